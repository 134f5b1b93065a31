package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A session's {@code TimeZone} as PostgreSQL reads, names and applies it: {@link #name} is what
 * {@code SHOW TimeZone} and ParameterStatus print, {@link #zone} the rules that place an instant.
 * Values are immutable and thread-safe; the session thread parses them, any thread formats with them.
 *
 * <p>PostgreSQL's {@code check_timezone} reads a number (also as a string) as hours east of
 * Greenwich, {@code INTERVAL '...'} as that offset, and anything else as a zone name (matched
 * without regard to case, shown with the database's case) or a POSIX zone such as {@code
 * <+02>-02} or {@code FOO+3}, whose offset is hours <em>west</em> of Greenwich. A fixed offset is
 * named as {@code pg_tzset_offset} names it ({@code <+05:30>-05:30}).
 */
public record PgTimeZone(String name, ZoneId zone) implements PgZone {
    /** The default zone of every session. */
    public static final PgTimeZone UTC = new PgTimeZone("UTC", ZoneOffset.UTC);

    private static final long MICROS_PER_SECOND = 1_000_000L;
    /** tzdb ids by their lower-case spelling, PostgreSQL matching zone names without regard to case. */
    private static final Map<String, String> IDS = new HashMap<>();
    /** A number of hours, as C's {@code strtod} reads the whole of it. */
    private static final Pattern HOURS = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    /** A POSIX zone without daylight rules: an optional name ({@code ABC} or {@code <...>}) and hours west. */
    private static final Pattern POSIX =
            Pattern.compile("([A-Za-z]{3,}|<[A-Za-z0-9:+-]+>)?([+-]?)(\\d{1,2})(?::(\\d{1,2}))?(?::(\\d{1,2}))?");

    static {
        for (String id : ZoneId.getAvailableZoneIds()) {
            // Java's own aliases that are no zone of PostgreSQL's tzdata
            if (!id.startsWith("SystemV/")) {
                IDS.put(id.toLowerCase(Locale.ROOT), id);
            }
        }
    }

    /** PostgreSQL's zones that java.time knows only as aliases: links in its tzdata (2024b on). */
    private static final Map<String, String> LINKS =
            Map.of("EST", "America/Panama", "MST", "America/Phoenix", "HST", "Pacific/Honolulu");

    /**
     * Reads a TimeZone setting as PostgreSQL does (SET's value, a client's startup parameter).
     *
     * @throws TributaryException 22023 {@code invalid value for parameter "TimeZone"} for a zone
     *     PostgreSQL does not know
     */
    public static PgTimeZone parse(String value) {
        String v = value.trim();
        if (HOURS.matcher(v).matches()) {
            double hours = Double.parseDouble(v);
            // PostgreSQL truncates the seconds west of Greenwich, as C converts a double to long
            return ofOffset(-(long) (-hours * 3600), value);
        }
        String id = IDS.get(v.toLowerCase(Locale.ROOT));
        if (id != null) {
            return new PgTimeZone(id, ZoneId.of(id));
        }
        String link = LINKS.get(v.toUpperCase(Locale.ROOT));
        if (link != null) {
            return new PgTimeZone(v.toUpperCase(Locale.ROOT), ZoneId.of(link));
        }
        Matcher m = POSIX.matcher(v);
        if (m.matches()) {
            long west = Long.parseLong(m.group(3)) * 3600
                    + (m.group(4) == null ? 0 : Long.parseLong(m.group(4)) * 60)
                    + (m.group(5) == null ? 0 : Long.parseLong(m.group(5)));
            long east = m.group(2).equals("-") ? west : -west;
            if (Math.abs(east) <= 18 * 3600) {
                return new PgTimeZone(v, ZoneOffset.ofTotalSeconds((int) east));
            }
        }
        throw invalid(value);
    }

    /**
     * The zone of {@code SET TIME ZONE INTERVAL '...'}: its time east of Greenwich.
     *
     * @throws TributaryException 22023 when the interval has months or days, as PostgreSQL refuses it
     */
    public static PgTimeZone ofInterval(Interval interval) {
        // PostgreSQL names the value as SET passes it on: the interval's output in INTERVAL '...'
        String input = "INTERVAL '" + PgTextFormat.formatInterval(interval) + "'";
        if (interval.months() != 0 || interval.days() != 0) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "invalid value for parameter \"TimeZone\": \"" + input + "\"",
                    0,
                    "Cannot specify " + (interval.months() != 0 ? "months" : "days") + " in time zone interval.",
                    null,
                    null);
        }
        return ofOffset(interval.micros() / MICROS_PER_SECOND, input);
    }

    private static PgTimeZone ofOffset(long eastSeconds, String input) {
        if (Math.abs(eastSeconds) > 18 * 3600) {
            throw invalid(input);
        }
        long abs = Math.abs(eastSeconds);
        StringBuilder offset = new StringBuilder();
        two(offset, abs / 3600);
        if (abs % 3600 != 0) {
            two(offset.append(':'), abs % 3600 / 60);
            if (abs % 60 != 0) {
                two(offset.append(':'), abs % 60);
            }
        }
        // pg_tzset_offset's POSIX name: the SQL offset in brackets, then the POSIX (west) one
        String name = eastSeconds < 0 ? "<-" + offset + ">+" + offset : "<+" + offset + ">-" + offset;
        return new PgTimeZone(name, ZoneOffset.ofTotalSeconds((int) eastSeconds));
    }

    private static void two(StringBuilder out, long n) {
        if (n < 10) {
            out.append('0');
        }
        out.append(n);
    }

    private static TributaryException invalid(String value) {
        return new TributaryException(
                SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"TimeZone\": \"" + value + "\"");
    }

    /** Whether this zone is UTC at every instant (UTC by any name, or a zero offset). */
    public boolean isUtc() {
        return zone.getRules().isFixedOffset()
                && zone.getRules().getOffset(Instant.EPOCH).getTotalSeconds() == 0;
    }

    /** Seconds east of Greenwich at the instant {@code micros} (since 1970-01-01 UTC). */
    @Override
    public int offsetSeconds(long micros) {
        if (!InfiniteDateTimes.isFinite(micros)) {
            // an infinity has no local time: 0 keeps it the same count
            return 0;
        }
        if (zone instanceof ZoneOffset fixed) {
            return fixed.getTotalSeconds();
        }
        return zone.getRules()
                .getOffset(Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND)))
                .getTotalSeconds();
    }

    /** A timestamptz as PostgreSQL prints it in this zone: local time, then {@code +HH[:MM[:SS]]}. */
    public String format(long micros) {
        if (!InfiniteDateTimes.isFinite(micros)) {
            return PgTextFormat.formatTimestamp(micros);
        }
        int offset = offsetSeconds(micros);
        return formatLocal(micros + offset * MICROS_PER_SECOND, offset);
    }

    /** A timestamptz whose local time is {@code localMicros} at {@code eastSeconds} east of Greenwich. */
    public static String formatLocal(long localMicros, int eastSeconds) {
        StringBuilder out = new StringBuilder(32);
        out.append(PgTextFormat.formatTimestamp(localMicros));
        appendOffset(out, eastSeconds);
        return out.toString();
    }

    /** PostgreSQL's {@code EncodeTimezone}: sign, hours, then minutes and seconds only where non-zero. */
    private static void appendOffset(StringBuilder out, int eastSeconds) {
        int abs = Math.abs(eastSeconds);
        out.append(eastSeconds < 0 ? '-' : '+');
        two(out, abs / 3600);
        int minutes = abs % 3600 / 60;
        int seconds = abs % 60;
        if (minutes != 0 || seconds != 0) {
            two(out.append(':'), minutes);
        }
        if (seconds != 0) {
            two(out.append(':'), seconds);
        }
    }

    /**
     * The instant of local time {@code localMicros} in this zone, as PostgreSQL resolves it: a time
     * a spring-forward skips is read with the offset before the change, a time a fall-back repeats
     * with the offset after it.
     */
    @Override
    public long toInstant(long localMicros) {
        if (!InfiniteDateTimes.isFinite(localMicros)) {
            return localMicros;
        }
        if (zone instanceof ZoneOffset fixed) {
            return localMicros - fixed.getTotalSeconds() * MICROS_PER_SECOND;
        }
        long seconds = Math.floorDiv(localMicros, MICROS_PER_SECOND);
        long fraction = Math.floorMod(localMicros, MICROS_PER_SECOND);
        try {
            LocalDateTime local = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
            // ofLocal moves a skipped time forward by the gap, which is the earlier offset's instant
            ZonedDateTime at = ZonedDateTime.ofLocal(local, zone, null).withLaterOffsetAtOverlap();
            return at.toEpochSecond() * MICROS_PER_SECOND + fraction;
        } catch (DateTimeException e) {
            // beyond java.time's years: the offset of the nearest instant it knows
            return localMicros - offsetSeconds(localMicros) * MICROS_PER_SECOND;
        }
    }
}
