package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;

/**
 * PostgreSQL's {@code infinity} and {@code -infinity} of date, timestamp and timestamptz, encoded as
 * PostgreSQL encodes them: a timestamp's microseconds {@link Long#MAX_VALUE} and {@link
 * Long#MIN_VALUE}, a date's days {@link Integer#MAX_VALUE} and {@link Integer#MIN_VALUE}. Since they
 * are the ends of the counts, comparisons, sorting, MIN/MAX and the order-preserving key codec need
 * nothing; what computes with a value (casts, arithmetic, the conversion to Calcite's milliseconds)
 * goes through here so an infinity stays one and a finite result never lands on the encoding
 * (22008 {@code timestamp out of range} instead, with exact arithmetic). Stateless.
 */
public final class InfiniteDateTimes {
    /** The microseconds of timestamp {@code infinity}. */
    public static final long TIMESTAMP_INFINITY = Long.MAX_VALUE;
    /** The microseconds of timestamp {@code -infinity}. */
    public static final long TIMESTAMP_MINUS_INFINITY = Long.MIN_VALUE;
    /** The days of date {@code infinity}. */
    public static final int DATE_INFINITY = Integer.MAX_VALUE;
    /** The days of date {@code -infinity}. */
    public static final int DATE_MINUS_INFINITY = Integer.MIN_VALUE;

    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final long MICROS_PER_MILLI = 1_000L;
    /** 2000-01-01, PostgreSQL's epoch, in days since 1970. */
    private static final int POSTGRES_EPOCH_DAYS = 10_957;

    private static final long POSTGRES_EPOCH_MICROS = POSTGRES_EPOCH_DAYS * MICROS_PER_DAY;

    /** PostgreSQL's last date, 5874897-12-31, in days since 1970. */
    private static final long MAX_DATE_DAY =
            java.time.LocalDate.of(5_874_897, 12, 31).toEpochDay();
    /** PostgreSQL's first date, 4714-11-24 BC, in days since 1970. */
    private static final long MIN_DATE_DAY =
            java.time.LocalDate.of(-4713, 11, 24).toEpochDay();

    private InfiniteDateTimes() {}

    /** Whether timestamp microseconds {@code micros} are finite. */
    public static boolean isFinite(long micros) {
        return micros != TIMESTAMP_INFINITY && micros != TIMESTAMP_MINUS_INFINITY;
    }

    /** Whether date days {@code days} are finite. */
    public static boolean isFiniteDate(int days) {
        return days != DATE_INFINITY && days != DATE_MINUS_INFINITY;
    }

    /**
     * The date of an epoch day that came through {@code java.sql.Date} (Calcite's conversion for
     * reflective functions, which does not carry the ends of the int back): {@code days} as Calcite
     * reads the date, {@code millis} its {@code getTime()}; a day past PostgreSQL's dates is the
     * infinity on the side of the millisecond count.
     */
    public static int dateOfDays(long days, long millis) {
        if (days >= MIN_DATE_DAY && days <= MAX_DATE_DAY) {
            return (int) days;
        }
        return millis > 0 ? DATE_INFINITY : DATE_MINUS_INFINITY;
    }

    /** The text of an infinite value: {@code infinity} or {@code -infinity}, by its sign. */
    public static String text(boolean positive) {
        return positive ? "infinity" : "-infinity";
    }

    /**
     * The infinity {@code text} names ({@code infinity} or {@code -infinity}, any case, trimmed;
     * PostgreSQL 14 has no {@code +infinity} for these types), as +1 or -1; 0 for other text.
     */
    public static int sign(String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("infinity")) {
            return 1;
        }
        return t.equalsIgnoreCase("-infinity") ? -1 : 0;
    }

    /**
     * A finite timestamp result: {@code micros} itself, or 22008 {@code timestamp out of range}
     * when it is one of the infinity encodings.
     */
    public static long finite(long micros) {
        if (!isFinite(micros)) {
            throw outOfRange();
        }
        return micros;
    }

    /** Microseconds to Calcite's milliseconds (rounded down); an infinity stays the same count. */
    public static long toMillis(long micros) {
        return isFinite(micros) ? Math.floorDiv(micros, MICROS_PER_MILLI) : micros;
    }

    /** Calcite's milliseconds to microseconds; the infinity counts stay, others past the range are 22008. */
    public static long fromMillis(long millis) {
        if (!isFinite(millis)) {
            return millis;
        }
        try {
            return finite(Math.multiplyExact(millis, MICROS_PER_MILLI));
        } catch (ArithmeticException e) {
            throw outOfRange();
        }
    }

    /**
     * A result in milliseconds computed from {@code operand} by moving it whole milliseconds, with
     * the operand's microseconds below the millisecond; an infinite operand is its own result.
     */
    public static long keepMicros(long millisResult, long operand) {
        if (!isFinite(operand)) {
            return operand;
        }
        try {
            return finite(Math.addExact(
                    Math.multiplyExact(millisResult, MICROS_PER_MILLI), Math.floorMod(operand, MICROS_PER_MILLI)));
        } catch (ArithmeticException e) {
            throw outOfRange();
        }
    }

    /** {@code date::timestamp}: midnight of the day; infinities stay, 22008 past the timestamp range. */
    public static long dateToTimestamp(int days) {
        if (!isFiniteDate(days)) {
            return days > 0 ? TIMESTAMP_INFINITY : TIMESTAMP_MINUS_INFINITY;
        }
        try {
            return finite(Math.multiplyExact(days, MICROS_PER_DAY));
        } catch (ArithmeticException e) {
            throw new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, "date out of range for timestamp");
        }
    }

    /** {@code timestamp::date}: the day of the timestamp; infinities stay. */
    public static int timestampToDate(long micros) {
        if (!isFinite(micros)) {
            return micros > 0 ? DATE_INFINITY : DATE_MINUS_INFINITY;
        }
        return (int) Math.floorDiv(micros, MICROS_PER_DAY);
    }

    /**
     * A date as PostgreSQL's binary format counts it, days since 2000-01-01; its infinities are the
     * same ends of the int.
     */
    public static int toPostgresDays(int days) {
        return isFiniteDate(days) ? days - POSTGRES_EPOCH_DAYS : days;
    }

    /** A date of PostgreSQL's binary format (days since 2000-01-01) as days since 1970. */
    public static int fromPostgresDays(int pgDays) {
        return isFiniteDate(pgDays) ? pgDays + POSTGRES_EPOCH_DAYS : pgDays;
    }

    /** A timestamp as PostgreSQL's binary format counts it, microseconds since 2000-01-01. */
    public static long toPostgresMicros(long micros) {
        return isFinite(micros) ? micros - POSTGRES_EPOCH_MICROS : micros;
    }

    /**
     * A timestamp of PostgreSQL's binary format (microseconds since 2000-01-01) as microseconds since
     * 1970; 22008 for PostgreSQL's last 30 years, which a long since 1970 cannot count.
     */
    public static long fromPostgresMicros(long pgMicros) {
        if (!isFinite(pgMicros)) {
            return pgMicros;
        }
        try {
            return finite(Math.addExact(pgMicros, POSTGRES_EPOCH_MICROS));
        } catch (ArithmeticException e) {
            throw outOfRange();
        }
    }

    /** PostgreSQL's 22008 {@code timestamp out of range}. */
    public static TributaryException outOfRange() {
        return new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range");
    }
}
