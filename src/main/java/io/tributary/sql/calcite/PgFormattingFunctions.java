package io.tributary.sql.calcite;

import io.tributary.common.types.InfiniteDateTimes;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgDateTimeFormat;
import io.tributary.common.types.PgDateTimeParse;
import io.tributary.common.types.PgNumberFormat;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneRules;
import java.util.Locale;
import java.util.TimeZone;

/**
 * The runtime side of PostgreSQL's formatting functions: the code {@link PgFormattingCalls}
 * generates calls these with Calcite's internal values (microseconds since 1970-01-01 for
 * timestamps, local for a timestamp and UTC for a timestamptz, as {@link MicrosecondTimestamps};
 * days for a date) and the session's
 * {@link TimeZone} where PostgreSQL reads it (null in a materialized view, maintained in UTC).
 * Never called with NULL values; on the thread evaluating the expression.
 */
public final class PgFormattingFunctions {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final ZoneRules UTC = ZoneOffset.UTC.getRules();

    private PgFormattingFunctions() {}

    /** {@code to_char(timestamp, text)}: no zone, so TZ prints nothing and OF {@code +00}. */
    public static String timestamp(long micros, String template) {
        if (!InfiniteDateTimes.isFinite(micros)) {
            // PostgreSQL's to_char of an infinity is NULL
            return null;
        }
        return PgDateTimeFormat.dateTime(
                Math.floorDiv(micros, MICROS_PER_DAY), Math.floorMod(micros, MICROS_PER_DAY), null, 0, template);
    }

    /**
     * {@code to_char(timestamptz, text)}: the local time in {@code zone} (its java.time rules, which
     * keep a zone's local mean time before its first transition, as PostgreSQL's tzdata does), TZ
     * its abbreviation then.
     */
    public static String timestamptz(long micros, TimeZone zone, String template) {
        if (!InfiniteDateTimes.isFinite(micros)) {
            return null;
        }
        ZoneRules rules = rules(zone);
        Instant instant = Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L));
        int offset = rules.getOffset(instant).getTotalSeconds();
        long local = micros + offset * 1_000_000L;
        return PgDateTimeFormat.dateTime(
                Math.floorDiv(local, MICROS_PER_DAY),
                Math.floorMod(local, MICROS_PER_DAY),
                PgDateTimeFormat.printsZoneName(template) ? abbreviation(zone, rules, instant) : "",
                offset,
                template);
    }

    /** {@code to_char(date, text)}: PostgreSQL formats the timestamptz of its midnight in the session's zone. */
    public static String date(int days, TimeZone zone, String template) {
        LocalDateTime midnight = LocalDate.ofEpochDay(days).atStartOfDay();
        long instant = ZonedDateTime.ofLocal(midnight, zone == null ? ZoneOffset.UTC : zone.toZoneId(), null)
                        .toEpochSecond()
                * 1_000_000L;
        return timestamptz(instant, zone, template);
    }

    /** {@code to_char(interval, text)}. */
    public static String interval(Object interval, String template) {
        return PgDateTimeFormat.interval((Interval) interval, template);
    }

    /** {@code to_char} of a year-month interval constant of {@code months}. */
    public static String months(int months, String template) {
        return PgDateTimeFormat.interval(new Interval(months, 0, 0), template);
    }

    /**
     * {@code to_char} of a day-time interval constant of {@code millis}; {@code days}: its type
     * starts at days, so whole days are days (as it prints), else all of it is time.
     */
    public static String millis(long millis, boolean days, String template) {
        long d = days ? millis / MILLIS_PER_DAY : 0;
        return PgDateTimeFormat.interval(new Interval(0, (int) d, (millis - d * MILLIS_PER_DAY) * 1000L), template);
    }

    /** {@code to_char(numeric, text)}. */
    public static String numeric(BigDecimal value, String template) {
        return PgNumberFormat.numeric(value, template);
    }

    /** {@code to_char(integer, text)}, {@code to_char(smallint, text)}. */
    public static String int4(long value, String template) {
        return PgNumberFormat.integer(value, false, template);
    }

    /** {@code to_char(bigint, text)}. */
    public static String int8(long value, String template) {
        return PgNumberFormat.integer(value, true, template);
    }

    /** {@code to_char(double precision, text)}. */
    public static String float8(double value, String template) {
        return PgNumberFormat.floating(value, false, template);
    }

    /** {@code to_char(real, text)}. */
    public static String float4(double value, String template) {
        return PgNumberFormat.floating(value, true, template);
    }

    /**
     * {@code to_timestamp(text, text)}: the UTC microseconds of the time read, a zone-less one in
     * {@code zone}, rounded to the digits of an {@code FFn} as PostgreSQL rounds them.
     */
    public static long toTimestamp(String text, TimeZone zone, String template) {
        PgDateTimeParse.Result r = PgDateTimeParse.parse(text, template, false);
        return TimestampUnitCalls.roundToPrecision(instant(r, zone), r.fractionDigits());
    }

    private static long instant(PgDateTimeParse.Result r, TimeZone zone) {
        long local = r.epochDay() * MICROS_PER_DAY + r.micros();
        if (r.hasOffset()) {
            return local - r.offsetSeconds() * 1_000_000L;
        }
        LocalDateTime at = LocalDateTime.ofEpochSecond(Math.floorDiv(local, 1_000_000L), 0, ZoneOffset.UTC);
        ZoneId id = zone == null ? ZoneOffset.UTC : zone.toZoneId();
        return ZonedDateTime.ofLocal(at, id, null).withLaterOffsetAtOverlap().toEpochSecond() * 1_000_000L
                + Math.floorMod(local, 1_000_000L);
    }

    /** {@code to_date(text, text)}: the days since 1970-01-01 of the date read. */
    public static int toDate(String text, String template) {
        return (int) PgDateTimeParse.parse(text, template, true).epochDay();
    }

    /** {@code to_timestamp(double precision)}: seconds since 1970-01-01 UTC, to microseconds. */
    public static long fromEpoch(double seconds) {
        return PgDateTimeParse.epochSeconds(seconds);
    }

    private static ZoneRules rules(TimeZone zone) {
        return zone == null ? UTC : zone.toZoneId().getRules();
    }

    /**
     * PostgreSQL's abbreviation of {@code zone} at {@code instant}: {@code LMT} before the zone's
     * first transition, {@code +04} where the zone's name has no letters.
     */
    private static String abbreviation(TimeZone zone, ZoneRules rules, Instant instant) {
        if (zone == null) {
            return "UTC";
        }
        if (!rules.getTransitions().isEmpty() && rules.previousTransition(instant) == null) {
            return "LMT";
        }
        String name = zone.getDisplayName(rules.isDaylightSavings(instant), TimeZone.SHORT, Locale.ROOT);
        if (name.startsWith("GMT+") || name.startsWith("GMT-")) {
            String hm = name.substring(3).replace(":", "");
            return hm.endsWith("00") ? hm.substring(0, hm.length() - 2) : hm;
        }
        return name;
    }
}
