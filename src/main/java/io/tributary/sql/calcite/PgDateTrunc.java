package io.tributary.sql.calcite;

import java.time.LocalDate;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;

/**
 * PostgreSQL's {@code date_trunc(unit, timestamp)} over Tributary's timestamps (milliseconds of the
 * proleptic Gregorian calendar, as stored): weeks start on Monday, a decade starts in a year
 * divisible by ten, a century in year 1 of it (2001, 1901), a millennium likewise (2001, 1001),
 * {@code microseconds} and {@code milliseconds} keep every stored digit. {@link PgValueSemantics}
 * writes each call with a literal unit as Calcite's {@code FLOOR(ts TO unit)} so that validation
 * types it; {@link #replace} (called by {@link PgScalarCalls}, so queries and materialized views
 * alike) and {@link ZonedTimestamps} (on a timestamptz's local time) replace every {@code FLOOR} of a
 * timestamp by a call of {@link #truncate}, Calcite's own weeks starting on Sunday and its
 * calendar being Julian before 1582. Pure functions, safe on any thread; no allocation per row
 * for units of a day or less.
 */
public final class PgDateTrunc {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final SqlOperator TRUNCATE = PgArithmetic.function(PgDateTrunc.class, "truncate");
    private static final SqlOperator TRUNCATE_DATE = PgArithmetic.function(PgDateTrunc.class, "truncateDate");

    private PgDateTrunc() {}

    /**
     * {@code call} as a call of {@link #truncate} when it is {@code FLOOR(timestamp TO unit)}, of
     * {@link #truncateDate} when it is {@code FLOOR(date TO unit)} (a date column: PostgreSQL's
     * result is a timestamptz, Tributary's stays a date), else {@code null}. Planning thread.
     */
    static RexNode replace(RexCall call, RexBuilder rex) {
        if (call.getKind() != SqlKind.FLOOR || call.getOperands().size() != 2) {
            return null;
        }
        RexNode value = call.getOperands().get(0);
        RexNode unit = call.getOperands().get(1);
        return switch (value.getType().getSqlTypeName()) {
            case TIMESTAMP -> truncateCall(rex, call.getType(), value, unit);
            case DATE ->
                unit instanceof RexLiteral literal && literal.getValue() instanceof TimeUnitRange range
                        ? rex.makeCall(call.getType(), TRUNCATE_DATE, List.of(value, rex.makeLiteral(range.name())))
                        : null;
            default -> null;
        };
    }

    /**
     * The call truncating the timestamp {@code value} to {@code unit} (a literal time unit), typed
     * {@code type}; {@code null} when the unit is not a literal PostgreSQL truncates to.
     */
    static RexNode truncateCall(
            RexBuilder rex, org.apache.calcite.rel.type.RelDataType type, RexNode value, RexNode unit) {
        if (!(unit instanceof RexLiteral literal) || !(literal.getValue() instanceof TimeUnitRange range)) {
            return null;
        }
        return switch (range) {
            case MICROSECOND,
                    MILLISECOND,
                    SECOND,
                    MINUTE,
                    HOUR,
                    DAY,
                    WEEK,
                    MONTH,
                    QUARTER,
                    YEAR,
                    DECADE,
                    CENTURY,
                    MILLENNIUM -> rex.makeCall(type, TRUNCATE, List.of(value, rex.makeLiteral(range.name())));
            default -> null;
        };
    }

    /**
     * {@code date_trunc(unit, timestamp)}: {@code unit} is the name of a {@link TimeUnitRange}
     * {@link #truncateCall} accepts; NULL in gives NULL out.
     *
     * @param millis the timestamp as Calcite's milliseconds since 1970-01-01 00:00:00
     */
    public static Long truncate(Long millis, String unit) {
        if (millis == null || unit == null) {
            return null;
        }
        long ms = millis;
        long day = Math.floorDiv(ms, MILLIS_PER_DAY);
        return switch (unit) {
            case "MICROSECOND", "MILLISECOND" -> ms;
            case "SECOND" -> ms - Math.floorMod(ms, 1_000L);
            case "MINUTE" -> ms - Math.floorMod(ms, 60_000L);
            case "HOUR" -> ms - Math.floorMod(ms, 3_600_000L);
            case "DAY" -> day * MILLIS_PER_DAY;
            default -> startOf(LocalDate.ofEpochDay(day), unit).toEpochDay() * MILLIS_PER_DAY;
        };
    }

    /**
     * {@code date_trunc(unit, date)} as a date: the first day of the unit's period holding the day
     * (the day itself for a day or less); NULL in gives NULL out.
     *
     * @param day the date as Calcite's days since 1970-01-01
     */
    public static Integer truncateDate(Integer day, String unit) {
        if (day == null || unit == null) {
            return null;
        }
        return switch (unit) {
            case "MICROSECOND", "MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY" -> day;
            default -> (int) startOf(LocalDate.ofEpochDay(day), unit).toEpochDay();
        };
    }

    /** The first day of the week, month, quarter, year, decade, century or millennium of {@code date}. */
    private static LocalDate startOf(LocalDate date, String unit) {
        int year = date.getYear();
        return switch (unit) {
            case "WEEK" -> date.minusDays(date.getDayOfWeek().getValue() - 1L);
            case "MONTH" -> date.withDayOfMonth(1);
            case "QUARTER" -> LocalDate.of(year, (date.getMonthValue() - 1) / 3 * 3 + 1, 1);
            case "YEAR" -> LocalDate.of(year, 1, 1);
            case "DECADE" -> LocalDate.of(Math.floorDiv(year, 10) * 10, 1, 1);
            // the proleptic year 0 is 1 BC: centuries and millennia start in their year 1
            case "CENTURY" -> LocalDate.of(Math.floorDiv(year - 1, 100) * 100 + 1, 1, 1);
            case "MILLENNIUM" -> LocalDate.of(Math.floorDiv(year - 1, 1000) * 1000 + 1, 1, 1);
            default -> throw new IllegalArgumentException("not a date_trunc unit: " + unit);
        };
    }
}
