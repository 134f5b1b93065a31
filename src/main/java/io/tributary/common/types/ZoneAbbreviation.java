package io.tributary.common.types;

import java.util.Arrays;

/**
 * One time zone abbreviation of PostgreSQL's default set, applied as PostgreSQL applies it. Most
 * are a fixed offset ({@code PST} is -08 in July too). The others PostgreSQL looks up in a zone
 * ({@code MSK} in Europe/Moscow, {@code CLT} in America/Santiago), so their offset depends on the
 * date: the abbreviation's meaning in the zone's tzdata in force at the instant (the latest one
 * that started at or before it, else the first; {@code MSK} is +04 from 2011 to 2014), or, for an
 * abbreviation the tzdata no longer holds ({@code CLT}), the zone's offset at the instant's local
 * time, the later one in a repeated hour, as PostgreSQL's {@code DetermineTimeZoneAbbrevOffsetTS}
 * does. Immutable and thread-safe; {@link ZoneAbbreviations} makes them.
 */
public final class ZoneAbbreviation implements PgZone {
    private final PgTimeZone zone;
    /** Epoch seconds at which each meaning starts, ascending; empty for a fixed offset or a zone's own offsets. */
    private final long[] starts;
    /** The meanings' offsets, seconds east, one per start. */
    private final int[] offsets;

    ZoneAbbreviation(PgTimeZone zone, long[] starts, int[] offsets) {
        this.zone = zone;
        this.starts = starts;
        this.offsets = offsets;
    }

    /** The abbreviation {@code lowerCaseName} of PostgreSQL's default set, or null when it is none. */
    public static ZoneAbbreviation find(String lowerCaseName) {
        return ZoneAbbreviations.find(lowerCaseName);
    }

    @Override
    public int offsetSeconds(long micros) {
        if (starts.length == 0) {
            // DetermineTimeZoneAbbrevOffsetTS: the offset of the instant's local time, which in a
            // repeated hour is the later one, not the offset at the instant
            long local = micros + zone.offsetSeconds(micros) * 1_000_000L;
            return zone.offsetSeconds(zone.toInstant(local));
        }
        long second = Math.floorDiv(micros, 1_000_000L);
        int found = Arrays.binarySearch(starts, second);
        // the meaning that started last at or before the instant; before the first, the first
        int index = found >= 0 ? found : Math.max(0, -found - 2);
        return offsets[index];
    }

    /**
     * {@inheritDoc} The local time is placed in the zone first, as PostgreSQL does, and the
     * abbreviation's meaning at that instant gives the offset.
     */
    @Override
    public long toInstant(long localMicros) {
        if (starts.length == 0) {
            return zone.toInstant(localMicros);
        }
        return localMicros - offsetSeconds(zone.toInstant(localMicros)) * 1_000_000L;
    }
}
