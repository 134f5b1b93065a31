package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
import io.tributary.common.types.PgZone;
import io.tributary.common.types.ZoneAbbreviation;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's {@code timezone(zone, value)}, which {@code value AT TIME ZONE zone} is: a
 * timestamp read as local time in the zone gives the instant, a timestamptz gives its local time
 * there. Called by the code Calcite generates where {@link AtTimeZoneCalls} put the calls, on the
 * thread running the query or maintaining the view; values are the plans' microseconds since
 * 1970-01-01 ({@link MicrosecondTimestamps}; UTC for an instant, local for a timestamp), an interval
 * zone Calcite's milliseconds. Never called with NULL.
 *
 * <p>The zone is read as {@code timestamptz_zone} reads it: first as a time zone abbreviation of
 * PostgreSQL's default set ({@code PST} is a fixed offset, {@code MSK} and {@code CLT} one that
 * depends on the date: {@link ZoneAbbreviation}), then as a POSIX offset
 * ({@code '+05:30'} and {@code '-03'} are hours <em>west</em> of Greenwich, {@code 'UTC+3'} too),
 * then as a zone name in any case; anything else is 22023 {@code time zone "..." not recognized}.
 * An interval zone is its offset east of Greenwich and may hold no days.
 */
public final class AtTimeZoneFunctions {
    /** Zones by the text given; a zone column may hold many, so the cache is emptied when it grows large. */
    private static final Map<String, PgZone> ZONES = new ConcurrentHashMap<>();

    private static final int CACHED_ZONES = 1024;
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** A POSIX offset without a name: hours west of Greenwich, then minutes and seconds. */
    private static final Pattern OFFSET = Pattern.compile("([+-]?)(\\d{1,2})(?::(\\d{2}))?(?::(\\d{2}))?");

    private AtTimeZoneFunctions() {}

    /** {@code timestamptz AT TIME ZONE zone}: the instant's local time in the zone. */
    public static long local(String zone, long instant) {
        return instant + zone(zone).offsetSeconds(instant) * 1_000_000L;
    }

    /** {@code timestamp AT TIME ZONE zone}: the instant of the local time in the zone (gaps and overlaps as PostgreSQL). */
    public static long instant(String zone, long local) {
        return zone(zone).toInstant(local);
    }

    /** {@code timestamptz AT TIME ZONE interval}; {@code days} when the interval's type has a day field. */
    public static long local(long offset, boolean days, long instant) {
        return instant + checked(offset, days) * 1000L;
    }

    /** {@code timestamp AT TIME ZONE interval}. */
    public static long instant(long offset, boolean days, long local) {
        return local - checked(offset, days) * 1000L;
    }

    private static long checked(long offset, boolean days) {
        if (days && Math.abs(offset) >= MILLIS_PER_DAY) {
            long day = offset / MILLIS_PER_DAY;
            String text =
                    PgTextFormat.formatInterval(new Interval(0, (int) day, (offset - day * MILLIS_PER_DAY) * 1000L));
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "interval time zone \"" + text + "\" must not include months or days");
        }
        return offset;
    }

    /** The zone {@code text} names, read as PostgreSQL's {@code timestamptz_zone} reads it. */
    static PgZone zone(String text) {
        PgZone cached = ZONES.get(text);
        if (cached != null) {
            return cached;
        }
        PgZone zone = read(text);
        if (ZONES.size() >= CACHED_ZONES) {
            ZONES.clear();
        }
        ZONES.put(text, zone);
        return zone;
    }

    private static PgZone read(String text) {
        ZoneAbbreviation abbreviation = ZoneAbbreviation.find(text.toLowerCase(Locale.ROOT));
        if (abbreviation != null) {
            return abbreviation;
        }
        Matcher m = OFFSET.matcher(text);
        if (m.matches()) {
            int west = Integer.parseInt(m.group(2)) * 3600
                    + (m.group(3) == null ? 0 : Integer.parseInt(m.group(3)) * 60)
                    + (m.group(4) == null ? 0 : Integer.parseInt(m.group(4)));
            int east = m.group(1).equals("-") ? west : -west;
            if (Math.abs(east) <= 18 * 3600) {
                return new PgTimeZone(text, ZoneOffset.ofTotalSeconds(east));
            }
        } else {
            try {
                return PgTimeZone.parse(text);
            } catch (TributaryException e) {
                // PostgreSQL's own message for AT TIME ZONE, not SET's
            }
        }
        throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "time zone \"" + text + "\" not recognized");
    }
}
