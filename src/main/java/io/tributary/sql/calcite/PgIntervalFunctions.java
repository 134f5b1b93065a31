package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.InfiniteDateTimes;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import java.math.BigDecimal;

/**
 * PostgreSQL's interval functions over {@link Interval} values, registered in the schema; Calcite
 * calls the public static methods by reflection from generated code, on whichever thread runs the
 * query or view. NULL in, NULL out.
 */
public final class PgIntervalFunctions {
    private PgIntervalFunctions() {}

    /** {@code 'text'::interval}: PostgreSQL's interval input. */
    public static Interval pg_interval(String text) {
        return text == null ? null : (Interval) PgTextFormat.parse(DataType.INTERVAL, text);
    }

    /** The months of {@code iv}, which {@code ts + iv} adds first. */
    public static Integer pg_interval_months(Object iv) {
        return iv == null ? null : interval(iv, "pg_interval_months").months();
    }

    /** The days and time of {@code iv} in whole milliseconds, which {@code ts + iv} adds after the months. */
    public static Long pg_interval_day_millis(Object iv) {
        return iv == null ? null : dayMillis(interval(iv, "pg_interval_day_millis"));
    }

    /**
     * {@code ts} moved by the microseconds of {@code iv}'s time below its whole milliseconds (what
     * {@link #pg_interval_day_millis} leaves out), back when {@code minus}: the last step of {@code
     * ts ± iv}, Calcite's intervals being whole milliseconds.
     */
    @MicrosecondTimestamps
    public static Long pg_timestamp_shift_micros(@MicrosecondTimestamps Long ts, Object iv, boolean minus) {
        if (ts == null || iv == null) {
            return null;
        }
        if (!InfiniteDateTimes.isFinite(ts)) {
            // the infinity Calcite's shift by milliseconds kept
            return ts;
        }
        long below = Math.floorMod(interval(iv, "pg_timestamp_shift_micros").micros(), 1000L);
        return InfiniteDateTimes.finite(minus ? ts - below : ts + below);
    }

    /**
     * {@code a - b} of two timestamps as PostgreSQL's {@code timestamp_mi}: their distance to the
     * microsecond, whole days of 24 hours as days and the rest as time, both of its sign; 22008
     * for an infinite one, as PostgreSQL 14.
     */
    @MicrosecondTimestamps
    public static Interval pg_timestamp_diff(@MicrosecondTimestamps Long a, @MicrosecondTimestamps Long b) {
        if (a == null || b == null) {
            return null;
        }
        if (!InfiniteDateTimes.isFinite(a) || !InfiniteDateTimes.isFinite(b)) {
            throw new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, "cannot subtract infinite timestamps");
        }
        return IntervalScaling.justifyHours(new Interval(0, 0, a - b));
    }

    /**
     * The time field of {@code iv} in whole milliseconds, less than a day either way: what
     * PostgreSQL's {@code time ± interval} adds (its months and days are ignored there, and the
     * sum wraps at midnight, which Calcite's {@code TIME + interval} does too).
     */
    public static Long pg_interval_time_millis(Object iv) {
        return iv == null ? null : (interval(iv, "pg_interval_time_millis").micros() % 86_400_000_000L) / 1000L;
    }

    /** {@code a + b}: months, days and time added apart. */
    public static Interval pg_interval_add(Object a, Object b) {
        return a == null || b == null
                ? null
                : IntervalScaling.add(interval(a, "pg_interval_add"), interval(b, "pg_interval_add"), 1);
    }

    /** {@code a - b}: months, days and time subtracted apart. */
    public static Interval pg_interval_sub(Object a, Object b) {
        return a == null || b == null
                ? null
                : IntervalScaling.add(interval(a, "pg_interval_sub"), interval(b, "pg_interval_sub"), -1);
    }

    /**
     * {@code iv * factor} as PostgreSQL's {@code interval_mul}: each field scaled, a fraction of a
     * month carried into days (30 a month) and a fraction of a day into time, rounded to microseconds.
     */
    public static Interval pg_interval_mul(Object iv, Double factor) {
        return iv == null || factor == null ? null : IntervalScaling.multiply(interval(iv, "*"), factor);
    }

    /** {@code iv / divisor} as PostgreSQL's {@code interval_div}; 22012 for zero. */
    public static Interval pg_interval_div(Object iv, Double divisor) {
        return iv == null || divisor == null ? null : IntervalScaling.divide(interval(iv, "/"), divisor);
    }

    /** The sign of {@code a - b}, as PostgreSQL orders intervals (30-day months, 24-hour days). */
    public static Integer pg_interval_cmp(Object a, Object b) {
        return a == null || b == null
                ? null
                : Integer.signum(interval(a, "pg_interval_cmp").compareTo(interval(b, "pg_interval_cmp")));
    }

    /**
     * A text equal for two intervals exactly when PostgreSQL's {@code =} finds them equal (the
     * same length with 30-day months and 24-hour days): what {@link IntervalPlans} joins on.
     */
    public static String pg_interval_key(Object iv) {
        if (iv == null) {
            return null;
        }
        Interval v = interval(iv, "pg_interval_key");
        return v.normalizedDays() + ":" + v.microsOfDay();
    }

    /** {@code justify_days}: each 30 days become a month. */
    public static Interval justify_days(Object iv) {
        return iv == null ? null : IntervalScaling.justifyDays(interval(iv, "justify_days"));
    }

    /** {@code justify_hours}: each 24 hours become a day. */
    public static Interval justify_hours(Object iv) {
        return iv == null ? null : IntervalScaling.justifyHours(interval(iv, "justify_hours"));
    }

    /** {@code justify_interval}: both, with the signs of the fields made to agree. */
    public static Interval justify_interval(Object iv) {
        return iv == null ? null : IntervalScaling.justifyInterval(interval(iv, "justify_interval"));
    }

    /** {@code extract(field FROM iv)}: numeric, as PostgreSQL 14 on returns it. */
    public static BigDecimal pg_interval_extract(String field, Object iv) {
        return field == null || iv == null ? null : IntervalFields.extract(field, interval(iv, "extract"));
    }

    /** {@code date_part('field', iv)}: double precision. */
    public static Double pg_interval_date_part(String field, Object iv) {
        return field == null || iv == null ? null : IntervalFields.datePart(field, interval(iv, "date_part"));
    }

    /**
     * {@code make_interval(years, months, weeks, days, hours, mins, secs)} with every argument
     * given ({@link IntervalSemantics} fills in the zeros PostgreSQL defaults to); NULL if any is
     * NULL. The seconds are rounded to microseconds; 22008 past the fields' range.
     */
    public static Interval pg_make_interval(
            Integer years, Integer months, Integer weeks, Integer days, Integer hours, Integer mins, Double secs) {
        if (years == null
                || months == null
                || weeks == null
                || days == null
                || hours == null
                || mins == null
                || secs == null) {
            return null;
        }
        try {
            if (!Double.isFinite(secs)) {
                throw new ArithmeticException();
            }
            long micros = Math.addExact(
                    Math.addExact(hours * 3_600_000_000L, mins * 60_000_000L), (long) Math.rint(secs * 1_000_000.0));
            return new Interval(
                    Math.addExact(Math.multiplyExact(years, 12), months),
                    Math.addExact(Math.multiplyExact(weeks, 7), days),
                    micros);
        } catch (ArithmeticException e) {
            throw IntervalScaling.outOfRange();
        }
    }

    private static long dayMillis(Interval iv) {
        return iv.days() * 86_400_000L + Math.floorDiv(iv.micros(), 1000L);
    }

    /**
     * {@code value} as an interval. Parameters are {@code Object} because Calcite types a Java
     * parameter of any other class as {@code OTHER}, which its casting rules cannot match.
     *
     * @throws TributaryException 42883 when the argument is no interval
     */
    private static Interval interval(Object value, String function) {
        if (value instanceof Interval iv) {
            return iv;
        }
        throw new TributaryException(
                SqlState.UNDEFINED_FUNCTION,
                "function " + function + " does not exist for arguments other than interval");
    }
}
