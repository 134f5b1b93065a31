package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.InfiniteDateTimes;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.LocalDate;
import org.apache.calcite.runtime.SqlFunctions;

/**
 * PostgreSQL's {@code make_date}, {@code make_time}, {@code make_timestamp} (and the zone of
 * {@code make_timestamptz}), {@code isfinite} and
 * {@code date_bin} (of timestamps),
 * registered as schema functions by {@link CatalogSchema} under their method names and called by
 * reflection from the code Calcite generates (queries and materialized views alike). Values cross
 * as Calcite's {@code java.sql} objects built from its internal day and millisecond counts (the
 * proleptic calendar, as Tributary stores them), so the conversion back in the generated code is
 * exact. A negative year (BC in PostgreSQL) is 0A000, as Calcite's conversions lose the era;
 * out-of-range fields are 22008. Seconds keep
 * milliseconds (Calcite's precision). NULL in gives NULL out; pure functions, safe on any thread.
 */
public final class PgDateFunctions {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private PgDateFunctions() {}

    /** {@code make_date(year, month, day)}. */
    public static Date make_date(Integer year, Integer month, Integer day) {
        if (year == null || month == null || day == null) {
            return null;
        }
        return SqlFunctions.internalToDate((int) epochDay(year, month, day));
    }

    /** {@code make_time(hour, min, sec)}: 24:00:00 is the only time past 23:59:59.999. */
    public static Time make_time(Integer hour, Integer minute, Double second) {
        if (hour == null || minute == null || second == null) {
            return null;
        }
        return SqlFunctions.internalToTime((int) timeMillis(hour, minute, second));
    }

    /** {@code make_time} with the seconds written as a decimal constant (generated code does not convert it to a double). */
    public static Time make_time(Integer hour, Integer minute, BigDecimal second) {
        return second == null ? null : make_time(hour, minute, second.doubleValue());
    }

    /** {@code make_timestamp(year, month, day, hour, min, sec)}. */
    public static Timestamp make_timestamp(
            Integer year, Integer month, Integer day, Integer hour, Integer minute, Double second) {
        if (year == null || month == null || day == null || hour == null || minute == null || second == null) {
            return null;
        }
        return SqlFunctions.internalToTimestamp(
                epochDay(year, month, day) * MILLIS_PER_DAY + timeMillis(hour, minute, second));
    }

    /** {@code make_timestamp} with the seconds written as a decimal constant. */
    public static Timestamp make_timestamp(
            Integer year, Integer month, Integer day, Integer hour, Integer minute, BigDecimal second) {
        return second == null ? null : make_timestamp(year, month, day, hour, minute, second.doubleValue());
    }

    /**
     * The zone argument of {@code make_timestamptz} ({@link MakeTimestamptzCalls}) as {@code AT TIME
     * ZONE} reads the same zone: PostgreSQL reads a numeric offset there as timestamptz input does
     * ({@code '+05'} is east of Greenwich), where {@code AT TIME ZONE} takes it as POSIX does (west),
     * so its sign is turned; a zone starting with a digit is 22023, as PostgreSQL; any other
     * (a name or an abbreviation) is as it is.
     */
    public static String pg_make_timestamptz_zone(String zone) {
        if (zone == null || zone.isEmpty()) {
            return zone;
        }
        char first = zone.charAt(0);
        if (first == '+' || first == '-') {
            return (first == '+' ? '-' : '+') + zone.substring(1);
        }
        if (Character.isDigit(first)) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "invalid input syntax for type numeric time zone: \"" + zone + "\"",
                    0,
                    null,
                    "Numeric time zones must have \"-\" or \"+\" as first character.",
                    null);
        }
        return zone;
    }

    /** {@code isfinite(date)}: false for {@code infinity} and {@code -infinity} (the epoch day Calcite converted). */
    public static Boolean isfinite(Date d) {
        return d == null
                ? null
                : InfiniteDateTimes.isFiniteDate(InfiniteDateTimes.dateOfDays(SqlFunctions.toInt(d), d.getTime()));
    }

    /** {@code isfinite(timestamp)} (and timestamptz, cast): false for {@code infinity} and {@code -infinity}. */
    @MicrosecondTimestamps
    public static Boolean isfinite(@MicrosecondTimestamps Long micros) {
        return micros == null ? null : InfiniteDateTimes.isFinite(micros);
    }

    /**
     * {@code date_bin(stride, source, origin)}: the start of the stride-wide bin, counted from
     * {@code origin}, that holds {@code source} (the floor, also before the origin). The stride is an
     * interval (or its text); one with months is 0A000 and one not positive 22008, as PostgreSQL.
     */
    public static Timestamp date_bin(Object stride, Timestamp source, Timestamp origin) {
        if (stride == null || source == null || origin == null) {
            return null;
        }
        io.tributary.common.types.Interval iv = interval(stride);
        if (iv.months() != 0) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "timestamps cannot be binned into intervals containing months or years");
        }
        long strideMicros = Math.addExact(Math.multiplyExact(iv.days(), MILLIS_PER_DAY * 1000), iv.micros());
        if (strideMicros <= 0) {
            throw new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, "stride must be greater than zero");
        }
        // in microseconds, as PostgreSQL bins, back to Calcite's milliseconds at the end
        long from = SqlFunctions.toLong(origin);
        long distance = Math.multiplyExact(Math.subtractExact(SqlFunctions.toLong(source), from), 1000L);
        long binned = Math.floorDiv(distance, strideMicros) * strideMicros;
        return SqlFunctions.internalToTimestamp(from + Math.floorDiv(binned, 1000L));
    }

    /**
     * An interval argument as generated code passes it: Tributary's interval, its text (a string
     * constant), or Calcite's own interval of a typed {@code INTERVAL '1' HOUR} (milliseconds) or
     * {@code INTERVAL '1' MONTH} (months).
     */
    private static io.tributary.common.types.Interval interval(Object value) {
        if (value instanceof String text) {
            return PgIntervalFunctions.pg_interval(text);
        }
        if (value instanceof Long millis) {
            return new io.tributary.common.types.Interval(0, 0, Math.multiplyExact(millis, 1000L));
        }
        if (value instanceof Integer months) {
            return new io.tributary.common.types.Interval(months, 0, 0);
        }
        return (io.tributary.common.types.Interval) value;
    }

    private static long epochDay(int year, int month, int day) {
        if (year == 0) {
            throw outOfRange("date", year + "-" + two(month) + "-" + two(day));
        }
        long epochDay;
        try {
            // PostgreSQL's year -1 is 1 BC, the proleptic year 0
            epochDay = LocalDate.of(year < 0 ? year + 1 : year, month, day).toEpochDay();
        } catch (DateTimeException e) {
            throw outOfRange("date", year + "-" + two(month) + "-" + two(day));
        }
        if (year < 0) {
            // Calcite's java.sql conversions drop the era: refuse rather than answer the AD date
            throw new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, "dates before the year 1 are not supported");
        }
        return epochDay;
    }

    private static long timeMillis(int hour, int minute, double second) {
        boolean valid = hour >= 0
                && minute >= 0
                && minute < 60
                && second >= 0
                && second < 60
                && (hour < 24 || hour == 24 && minute == 0 && second == 0);
        if (!valid) {
            throw outOfRange("time", hour + ":" + two(minute) + ":" + two((int) second));
        }
        return hour * 3_600_000L + minute * 60_000L + Math.round(second * 1000);
    }

    private static String two(int v) {
        return v >= 0 && v < 10 ? "0" + v : String.valueOf(v);
    }

    private static TributaryException outOfRange(String kind, String value) {
        return new TributaryException(SqlState.DATETIME_FIELD_OVERFLOW, kind + " field value out of range: " + value);
    }
}
