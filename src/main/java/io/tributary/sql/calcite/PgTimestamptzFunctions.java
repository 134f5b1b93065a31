package io.tributary.sql.calcite;

import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PostgreSQL's conversions between timestamptz and local time in a session's zone, called by
 * Calcite's generated code (by reflection, on the thread running the query) where {@link
 * ZonedTimestamps} put them, the zone named by a constant of the plan. Values are microseconds since
 * 1970-01-01 ({@link MicrosecondTimestamps}), UTC for timestamptz, local for timestamp. NULL in, NULL
 * out.
 */
public final class PgTimestamptzFunctions {
    /** Zones by the name the plan holds; a session has one at a time, so this stays small. */
    private static final Map<String, PgTimeZone> ZONES = new ConcurrentHashMap<>();

    private PgTimestamptzFunctions() {}

    private static PgTimeZone zone(String name) {
        return ZONES.computeIfAbsent(name, PgTimeZone::parse);
    }

    /** {@code tz::timestamp}: the local time of the instant in the zone. */
    @MicrosecondTimestamps
    public static Long pg_timestamptz_local(Long instant, String zone) {
        if (instant == null || zone == null) {
            return null;
        }
        return instant + zone(zone).offsetSeconds(instant) * 1_000_000L;
    }

    /** {@code ts::timestamptz}: the instant of a local time in the zone, as PostgreSQL resolves gaps and overlaps. */
    @MicrosecondTimestamps
    public static Long pg_timestamptz_of_local(Long local, String zone) {
        if (local == null || zone == null) {
            return null;
        }
        return zone(zone).toInstant(local);
    }

    /** The instant moved as its local time was, {@code from} to {@code to}: date_trunc below a day keeps the offset. */
    @MicrosecondTimestamps
    public static Long pg_timestamptz_moved(Long instant, Long from, Long to) {
        if (instant == null || from == null || to == null) {
            return null;
        }
        return instant + (to - from);
    }

    /** {@code tz::text}: PostgreSQL's output of the instant in the zone, local time and offset. */
    @MicrosecondTimestamps
    public static String pg_timestamptz_text(Long instant, String zone) {
        if (instant == null || zone == null) {
            return null;
        }
        return zone(zone).format(instant);
    }

    /** {@code text::timestamptz}: PostgreSQL's input, a time without an offset read in the zone. */
    @MicrosecondTimestamps
    public static Long pg_timestamptz_parse(String text, String zone) {
        if (text == null || zone == null) {
            return null;
        }
        return PgTextFormat.parseTimestamptz(text, zone(zone));
    }
}
