package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.Interval;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * The fields of a PostgreSQL interval as {@code extract} (numeric, PostgreSQL 14 on) and
 * {@code date_part} (double precision) read them: the time is split into hours, minutes and
 * seconds truncating toward zero, so each takes the time's sign; days and months are as stored;
 * years are whole twelves of months; the epoch counts a year as 365.25 days and a month as 30.
 * Called from {@link PgIntervalFunctions} on the thread that runs the query. Stateless.
 */
final class IntervalFields {
    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
    private static final long MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
    private static final long SECONDS_PER_DAY = 86_400L;

    private IntervalFields() {}

    /** {@code extract(field FROM iv)}: an exact number, scale 6 for seconds and the epoch, 3 for milliseconds. */
    static BigDecimal extract(String field, Interval iv) {
        return switch (unit(field)) {
            case "epoch" -> BigDecimal.valueOf(epochMicros(iv), 6);
            case "second" -> BigDecimal.valueOf(secondMicros(iv), 6);
            case "millisecond" -> BigDecimal.valueOf(secondMicros(iv), 3);
            case "microsecond" -> BigDecimal.valueOf(secondMicros(iv));
            default -> BigDecimal.valueOf(whole(field, iv));
        };
    }

    /** {@code date_part('field', iv)}: the same field in floating point, computed as PostgreSQL does. */
    static double datePart(String field, Interval iv) {
        long sec = secondMicros(iv) / MICROS_PER_SECOND;
        long fraction = secondMicros(iv) % MICROS_PER_SECOND;
        return switch (unit(field)) {
            case "epoch" ->
                iv.micros() / 1_000_000.0
                        + (365.25 * SECONDS_PER_DAY) * (iv.months() / 12)
                        + (30.0 * SECONDS_PER_DAY) * (iv.months() % 12)
                        + (double) SECONDS_PER_DAY * iv.days();
            case "second" -> sec + fraction / 1_000_000.0;
            case "millisecond" -> sec * 1000.0 + fraction / 1000.0;
            case "microsecond" -> sec * 1_000_000.0 + fraction;
            default -> whole(field, iv);
        };
    }

    /** The epoch in microseconds: {@code ((365.25 * years + 30 * months + days) * 86400) s + time}. */
    private static long epochMicros(Interval iv) {
        // four times the days keeps a quarter day of each year whole
        long quarterDays = 1461L * (iv.months() / 12) + 120L * (iv.months() % 12) + 4L * iv.days();
        try {
            return Math.addExact(
                    Math.multiplyExact(quarterDays * (SECONDS_PER_DAY / 4), MICROS_PER_SECOND), iv.micros());
        } catch (ArithmeticException e) {
            throw IntervalScaling.outOfRange();
        }
    }

    /** The seconds within the minute and their fraction, in microseconds, with the time's sign. */
    private static long secondMicros(Interval iv) {
        return iv.micros() % MICROS_PER_MINUTE;
    }

    private static long whole(String field, Interval iv) {
        int years = iv.months() / 12;
        return switch (unit(field)) {
            case "minute" -> iv.micros() % MICROS_PER_HOUR / MICROS_PER_MINUTE;
            case "hour" -> iv.micros() / MICROS_PER_HOUR;
            case "day" -> iv.days();
            case "month" -> iv.months() % 12;
            case "quarter" -> iv.months() % 12 / 3 + 1;
            case "year" -> years;
            case "decade" -> years / 10;
            case "century" -> years / 100;
            case "millennium" -> years / 1000;
            case "dow", "doy", "isodow", "isoyear", "week", "julian", "timezone", "timezone_hour", "timezone_minute" ->
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED, "unit \"" + field + "\" not supported for type interval");
            default ->
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "unit \"" + field + "\" not recognized for type interval");
        };
    }

    /** PostgreSQL's name of a unit, from any of the spellings it accepts. */
    private static String unit(String field) {
        String f = field.toLowerCase(Locale.ROOT).strip();
        return switch (f) {
            case "microseconds", "microsecon", "us", "usec", "usecs", "useconds" -> "microsecond";
            case "milliseconds", "millisecon", "ms", "msec", "msecs", "mseconds" -> "millisecond";
            case "seconds", "s", "sec", "secs" -> "second";
            case "minutes", "m", "min", "mins" -> "minute";
            case "hours", "h", "hr", "hrs" -> "hour";
            case "days", "d" -> "day";
            case "months", "mon", "mons" -> "month";
            case "qtr" -> "quarter";
            case "years", "y", "yr", "yrs" -> "year";
            case "decades", "dec", "decs" -> "decade";
            case "centuries", "c", "cent" -> "century";
            case "millenniums", "millennia", "mil", "mils" -> "millennium";
            default -> f;
        };
    }
}
