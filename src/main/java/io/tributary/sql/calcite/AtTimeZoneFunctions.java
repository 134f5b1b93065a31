package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
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
 * PostgreSQL's default set ({@code PST}, {@code CEST}: a fixed offset), then as a POSIX offset
 * ({@code '+05:30'} and {@code '-03'} are hours <em>west</em> of Greenwich, {@code 'UTC+3'} too),
 * then as a zone name in any case; anything else is 22023 {@code time zone "..." not recognized}.
 * An interval zone is its offset east of Greenwich and may hold no days.
 */
public final class AtTimeZoneFunctions {
    /** Zones by the text given; a zone column may hold many, so the cache is emptied when it grows large. */
    private static final Map<String, PgTimeZone> ZONES = new ConcurrentHashMap<>();

    private static final int CACHED_ZONES = 1024;
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** A POSIX offset without a name: hours west of Greenwich, then minutes and seconds. */
    private static final Pattern OFFSET = Pattern.compile("([+-]?)(\\d{1,2})(?::(\\d{2}))?(?::(\\d{2}))?");

    /**
     * The fixed-offset abbreviations of PostgreSQL's {@code Default} abbreviation set, in seconds
     * east of Greenwich; PostgreSQL reads them before zone names ({@code EST} is -05, not America/New_York).
     * A subset of {@code io.tributary.common.types.ZoneAbbreviations}, the input's full default set,
     * which also holds the abbreviations PostgreSQL looks up in a zone ({@code MSK}), unknown here
     * ({@code AtTimeZoneDifferentialTest} and {@code ZoneNameInputDifferentialTest} check these).
     */
    private static final Map<String, Integer> ABBREVIATIONS = Map.ofEntries(
            Map.entry("utc", 0),
            Map.entry("ut", 0),
            Map.entry("gmt", 0),
            Map.entry("z", 0),
            Map.entry("zulu", 0),
            Map.entry("wet", 0),
            Map.entry("bst", 3600),
            Map.entry("cet", 3600),
            Map.entry("cest", 7200),
            Map.entry("met", 3600),
            Map.entry("mest", 7200),
            Map.entry("eet", 7200),
            Map.entry("eest", 10800),
            Map.entry("ist", 7200),
            Map.entry("jst", 32400),
            Map.entry("kst", 32400),
            Map.entry("hkt", 28800),
            Map.entry("awst", 28800),
            Map.entry("acst", 34200),
            Map.entry("acdt", 37800),
            Map.entry("aest", 36000),
            Map.entry("aedt", 39600),
            Map.entry("nzst", 43200),
            Map.entry("nzdt", 46800),
            Map.entry("nst", -12600),
            Map.entry("ndt", -9000),
            Map.entry("ast", -14400),
            Map.entry("adt", -10800),
            Map.entry("est", -18000),
            Map.entry("edt", -14400),
            Map.entry("cst", -21600),
            Map.entry("cdt", -18000),
            Map.entry("mst", -25200),
            Map.entry("mdt", -21600),
            Map.entry("pst", -28800),
            Map.entry("pdt", -25200),
            Map.entry("akst", -32400),
            Map.entry("akdt", -28800),
            Map.entry("hst", -36000));

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
    static PgTimeZone zone(String text) {
        PgTimeZone cached = ZONES.get(text);
        if (cached != null) {
            return cached;
        }
        PgTimeZone zone = read(text);
        if (ZONES.size() >= CACHED_ZONES) {
            ZONES.clear();
        }
        ZONES.put(text, zone);
        return zone;
    }

    private static PgTimeZone read(String text) {
        Integer abbreviation = ABBREVIATIONS.get(text.toLowerCase(Locale.ROOT));
        if (abbreviation != null) {
            return new PgTimeZone(text, ZoneOffset.ofTotalSeconds(abbreviation));
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
