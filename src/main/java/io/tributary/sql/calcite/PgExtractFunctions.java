package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.InfiniteDateTimes;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Time;
import java.time.LocalDate;
import java.time.temporal.IsoFields;
import org.apache.calcite.runtime.SqlFunctions;

/**
 * PostgreSQL 14's {@code extract} (numeric) and {@code date_part} (double precision) of the fields
 * whose value has a fraction or a range Calcite's BIGINT {@code EXTRACT} loses: {@code second},
 * {@code milliseconds}, {@code microseconds}, {@code epoch} and {@code julian}, of a timestamp, a
 * date or a time, the zone offset fields of a timestamptz, and {@code isoyear} (Calcite's {@code
 * date_part} cannot name it) and the {@code hour} and {@code minute} a date lacks. {@link ExtractCalls} writes a query's calls of those fields as calls of these
 * (one name per argument type, as the rewrite knows the type), registered as schema functions by
 * {@link CatalogSchema}. The field is one of {@link ExtractCalls}' normalized names. A timestamp
 * arrives as its microseconds ({@link MicrosecondParameters}); dates and times as Calcite's {@code
 * java.sql} objects, converted back to its internal counts exactly (see {@link PgDateFunctions}). Seconds have the scales PostgreSQL gives microseconds. NULL in gives
 * NULL out; pure, any thread.
 */
public final class PgExtractFunctions {
    private static final long DAY_MICROS = 86_400_000_000L;
    private static final long HOUR_MICROS = 3_600_000_000L;
    private static final long MINUTE_MICROS = 60_000_000L;
    /** The Julian day number of 1970-01-01. */
    private static final long UNIX_EPOCH_JULIAN = 2_440_588L;

    private static final BigDecimal MICROS_PER_DAY = BigDecimal.valueOf(86_400_000_000L);

    private PgExtractFunctions() {}

    /** {@code extract(field FROM timestamp)}. */
    @MicrosecondTimestamps
    public static BigDecimal pg_extract_timestamp(String field, @MicrosecondTimestamps Long value) {
        if (field == null || value == null) {
            return null;
        }
        long micros = value;
        if (!InfiniteDateTimes.isFinite(micros)) {
            return infinitePart(field);
        }
        long microsOfDay = Math.floorMod(micros, DAY_MICROS);
        return switch (field) {
            case "epoch" -> BigDecimal.valueOf(micros, 6);
            case "julian" ->
                BigDecimal.valueOf(Math.floorDiv(micros, DAY_MICROS) + UNIX_EPOCH_JULIAN)
                        .add(PgArithmeticFunctions.numericDivide(BigDecimal.valueOf(microsOfDay), MICROS_PER_DAY));
            case "hour" -> BigDecimal.valueOf(microsOfDay / HOUR_MICROS);
            case "minute" -> BigDecimal.valueOf(microsOfDay / MINUTE_MICROS % 60);
            case "second", "milliseconds", "microseconds", "timezone", "timezone_hour", "timezone_minute" ->
                seconds(field, microsOfDay, "timestamp");
            default -> BigDecimal.valueOf(dayField(field, Math.floorDiv(micros, DAY_MICROS)));
        };
    }

    /**
     * The field of the day {@code epochDay} (days from 1970-01-01, proleptic Gregorian) that a
     * date has, as PostgreSQL 14's {@code extract_date}: years count 1 BC as -1, and decades,
     * centuries and millennia before year 1 as PostgreSQL numbers them; {@code dow} counts from
     * Sunday (0), {@code isodow} from Monday (1), {@code week} is the ISO week.
     */
    private static long dayField(String field, long epochDay) {
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        // astronomical numbering (0 is 1 BC), as PostgreSQL's j2date gives it
        long year = date.getYear();
        return switch (field) {
            case "year" -> year > 0 ? year : year - 1;
            case "month" -> date.getMonthValue();
            case "day" -> date.getDayOfMonth();
            case "quarter" -> (date.getMonthValue() - 1) / 3 + 1;
            case "week" -> date.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            case "decade" -> year >= 0 ? year / 10 : -((8 - (year - 1)) / 10);
            case "century" -> year > 0 ? (year + 99) / 100 : -((99 - (year - 1)) / 100);
            case "millennium" -> year > 0 ? (year + 999) / 1000 : -((999 - (year - 1)) / 1000);
            case "isoyear" -> isoYear(epochDay);
            case "dow" -> date.getDayOfWeek().getValue() % 7;
            case "isodow" -> date.getDayOfWeek().getValue();
            case "doy" -> date.getDayOfYear();
            default -> throw new IllegalArgumentException("not a field of a day: " + field);
        };
    }

    /** Whether PostgreSQL 14 gives an infinite value's {@code field} as that infinity (else NULL): the fields that grow with time. */
    private static boolean growsWithTime(String field) {
        return switch (field) {
            case "year", "decade", "century", "millennium", "julian", "isoyear", "epoch" -> true;
            default -> false;
        };
    }

    /**
     * {@code extract} of an infinite timestamp or date: NULL for the fields that cycle, as
     * PostgreSQL; its {@code Infinity} of the fields that grow with time is a numeric Tributary's
     * cannot hold (0A000).
     */
    private static BigDecimal infinitePart(String field) {
        if (growsWithTime(field)) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "numeric Infinity (extract of an infinite timestamp) is not supported");
        }
        return null;
    }

    /**
     * {@code extract(timezone[_hour|_minute] FROM timestamptz)}: the session zone's offset at the
     * value's instant, given as the instant's {@code local} time there and its {@code utc} time;
     * seconds, or whole hours and the minutes beyond them, each with the offset's sign.
     */
    @MicrosecondTimestamps
    public static BigDecimal pg_extract_zone(
            String field, @MicrosecondTimestamps Long local, @MicrosecondTimestamps Long utc) {
        Long part = zonePart(field, local, utc);
        return part == null ? null : BigDecimal.valueOf(part);
    }

    /** {@code date_part('timezone[_hour|_minute]', timestamptz)}, as {@link #pg_extract_zone}. */
    @MicrosecondTimestamps
    public static Double pg_date_part_zone(
            String field, @MicrosecondTimestamps Long local, @MicrosecondTimestamps Long utc) {
        Long part = zonePart(field, local, utc);
        return part == null ? null : part.doubleValue();
    }

    private static Long zonePart(String field, Long local, Long utc) {
        if (field == null || local == null || utc == null) {
            return null;
        }
        long seconds = (local - utc) / 1_000_000L;
        return switch (field) {
            case "timezone" -> seconds;
            case "timezone_hour" -> seconds / 3600;
            default -> seconds / 60 % 60;
        };
    }

    /**
     * {@code extract(field FROM date)}, the date as Calcite's {@code java.sql.Date} (wrong in 1582's
     * gap): as views built before session 40 call it; see {@link #pg_extract_midnight}.
     */
    public static BigDecimal pg_extract_date(String field, Date value) {
        return value == null
                ? null
                : pg_extract_midnight(
                        field,
                        InfiniteDateTimes.dateToTimestamp(
                                InfiniteDateTimes.dateOfDays(SqlFunctions.toInt(value), value.getTime())));
    }

    /**
     * {@code extract(field FROM date)}, the date given as its midnight's timestamp: a date has no
     * time of day (0A000 for those fields), and its epoch and Julian day are whole numbers.
     */
    @MicrosecondTimestamps
    public static BigDecimal pg_extract_midnight(String field, @MicrosecondTimestamps Long value) {
        if (field == null || value == null) {
            return null;
        }
        switch (field) {
            case "hour",
                    "minute",
                    "second",
                    "milliseconds",
                    "microseconds",
                    "timezone",
                    "timezone_hour",
                    "timezone_minute" ->
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED, "date units \"" + field + "\" not supported");
            default -> {}
        }
        if (!InfiniteDateTimes.isFinite(value)) {
            return infinitePart(field);
        }
        long day = Math.floorDiv(value, DAY_MICROS);
        return switch (field) {
            case "epoch" -> BigDecimal.valueOf(day * 86_400L);
            case "julian" -> BigDecimal.valueOf(day + UNIX_EPOCH_JULIAN);
            default -> BigDecimal.valueOf(dayField(field, day));
        };
    }

    /** {@code extract(field FROM time)}: a time has no Julian day (22023). */
    public static BigDecimal pg_extract_time(String field, Time value) {
        if (field == null || value == null) {
            return null;
        }
        long microsOfDay = SqlFunctions.toInt(value) * 1000L;
        return switch (field) {
            case "epoch" -> BigDecimal.valueOf(microsOfDay, 6);
            case "hour" -> BigDecimal.valueOf(microsOfDay / HOUR_MICROS);
            case "minute" -> BigDecimal.valueOf(microsOfDay / MINUTE_MICROS % 60);
            default -> seconds(field, microsOfDay, "\"time\"");
        };
    }

    /** {@code date_part(field, timestamp)}, computed in double precision as PostgreSQL's {@code timestamp_part}. */
    @MicrosecondTimestamps
    public static Double pg_date_part_timestamp(String field, @MicrosecondTimestamps Long value) {
        return value == null ? null : datePart(field, value);
    }

    private static Double datePart(String field, long micros) {
        if (field == null) {
            return null;
        }
        if (!InfiniteDateTimes.isFinite(micros)) {
            // PostgreSQL's NonFiniteTimestampTzPart: the fields that grow with time are infinite, the rest NULL
            return growsWithTime(field) ? (micros > 0 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY) : null;
        }
        long microsOfDay = Math.floorMod(micros, DAY_MICROS);
        return switch (field) {
            case "epoch" -> micros / 1_000_000.0;
            case "julian" ->
                (Math.floorDiv(micros, DAY_MICROS) + UNIX_EPOCH_JULIAN)
                        + ((microsOfDay / 1_000_000) + (microsOfDay % 1_000_000) / 1_000_000.0) / 86_400.0;
            case "hour" -> (double) (microsOfDay / HOUR_MICROS);
            case "minute" -> (double) (microsOfDay / MINUTE_MICROS % 60);
            case "second", "milliseconds", "microseconds", "timezone", "timezone_hour", "timezone_minute" ->
                secondsPart(field, microsOfDay, "timestamp");
            default -> (double) dayField(field, Math.floorDiv(micros, DAY_MICROS));
        };
    }

    /** {@code date_part(field, date)}: PostgreSQL 14 reads the date as its midnight's timestamp. */
    public static Double pg_date_part_date(String field, Date value) {
        if (field == null || value == null) {
            return null;
        }
        return datePart(
                field,
                InfiniteDateTimes.dateToTimestamp(
                        InfiniteDateTimes.dateOfDays(SqlFunctions.toInt(value), value.getTime())));
    }

    /** {@code date_part(field, time)}. */
    public static Double pg_date_part_time(String field, Time value) {
        if (field == null || value == null) {
            return null;
        }
        long microsOfDay = SqlFunctions.toInt(value) * 1000L;
        return switch (field) {
            case "epoch" -> microsOfDay / 1_000_000.0;
            case "hour" -> (double) (microsOfDay / HOUR_MICROS);
            case "minute" -> (double) (microsOfDay / MINUTE_MICROS % 60);
            default -> secondsPart(field, microsOfDay, "\"time\"");
        };
    }

    /**
     * The ISO 8601 week-numbering year of the day {@code epochDay} (days from 1970-01-01, proleptic
     * Gregorian), as PostgreSQL 14 gives it: an ISO year of 0 or before (astronomical numbering,
     * where 0 is 1 BC) is made one less.
     */
    private static long isoYear(long epochDay) {
        long year = LocalDate.ofEpochDay(epochDay).get(IsoFields.WEEK_BASED_YEAR);
        return year <= 0 ? year - 1 : year;
    }

    /** The seconds fields as numeric: microseconds of the minute at scale 6, 3 or 0. */
    private static BigDecimal seconds(String field, long microsOfDay, String type) {
        refuseZone(field, type);
        long micros = Math.floorMod(microsOfDay, 60_000_000L);
        return switch (field) {
            case "second" -> BigDecimal.valueOf(micros, 6);
            case "milliseconds" -> BigDecimal.valueOf(micros, 3);
            case "microseconds" -> BigDecimal.valueOf(micros);
            default -> throw notRecognized(field, type);
        };
    }

    /** The seconds fields in double precision, as PostgreSQL adds the whole seconds and the fraction. */
    private static double secondsPart(String field, long microsOfDay, String type) {
        refuseZone(field, type);
        long ofMinute = Math.floorMod(microsOfDay, 60_000_000L);
        long sec = ofMinute / 1_000_000;
        long fsec = ofMinute % 1_000_000;
        return switch (field) {
            case "second" -> sec + fsec / 1_000_000.0;
            case "milliseconds" -> sec * 1000.0 + fsec / 1000.0;
            case "microseconds" -> sec * 1_000_000.0 + fsec;
            default -> throw notRecognized(field, type);
        };
    }

    /** A timestamp has no zone: its timezone fields are 0A000 (a time's are not recognized, 22023). */
    private static void refuseZone(String field, String type) {
        if (type.equals("timestamp") && field.startsWith("timezone")) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED, "timestamp units \"" + field + "\" not supported");
        }
    }

    private static TributaryException notRecognized(String field, String type) {
        return new TributaryException(
                SqlState.INVALID_PARAMETER_VALUE, type + " units \"" + field + "\" not recognized");
    }
}
