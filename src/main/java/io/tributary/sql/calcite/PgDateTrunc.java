package io.tributary.sql.calcite;

import io.tributary.common.types.InfiniteDateTimes;
import java.time.LocalDate;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * PostgreSQL's {@code date_trunc(unit, timestamp)} over Tributary's timestamps (microseconds of the
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
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final SqlOperator TRUNCATE = PgArithmetic.function(PgDateTrunc.class, "truncate");

    private PgDateTrunc() {}

    /**
     * {@code call} as a call of {@link #truncate} when it is {@code FLOOR(timestamp TO unit)}; as
     * {@code CAST(truncate(CAST(d AS TIMESTAMP), unit) AS timestamptz)} when it is {@code
     * FLOOR(CAST(d AS timestamptz) TO unit)} of a date {@code d} ({@code date_trunc(unit, date)}):
     * the date's midnight truncated as local time, then made the timestamptz of that local time,
     * as PostgreSQL's truncation in the session's zone gives, with its units in views too (where
     * no other step replaces a timestamptz's FLOOR); else {@code null}. Planning thread.
     */
    static RexNode replace(RexCall call, RexBuilder rex) {
        if (call.getKind() != SqlKind.FLOOR || call.getOperands().size() != 2) {
            return null;
        }
        RexNode value = call.getOperands().get(0);
        RexNode unit = call.getOperands().get(1);
        if (value.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP) {
            return truncateCall(rex, call.getType(), value, unit);
        }
        if (value instanceof RexCall cast
                && cast.getKind() == SqlKind.CAST
                && value.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                && cast.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.DATE) {
            RelDataType local = rex.getTypeFactory()
                    .createTypeWithNullability(
                            rex.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP),
                            value.getType().isNullable());
            RexNode truncated = truncateCall(
                    rex, local, rex.makeCast(local, cast.getOperands().get(0)), unit);
            return truncated == null ? null : rex.makeCast(call.getType(), truncated);
        }
        return null;
    }

    /**
     * Before validation derives {@code call}'s type: when it is {@code FLOOR(x TO unit)} (a {@code
     * date_trunc}) of a date {@code x}, the date becomes {@code CAST(x AS timestamptz)}, its
     * midnight in the session's zone, which PostgreSQL truncates for {@code date_trunc(unit,
     * date)}: the result is a timestamptz, not a date. {@link PgValueSemantics} does the same for
     * a date constant before validation; this finds a date column or expression by its type. Called by
     * {@link PgValidator} on the validating thread, in queries and materialized views alike (a view
     * reads the session's zone so, which {@link TimeZoneUse} checks); another call is left alone.
     */
    static void truncateDateAsTimestamptz(SqlValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        if (call.getKind() != SqlKind.FLOOR
                || call.operandCount() != 2
                || !(call.operand(1) instanceof SqlIntervalQualifier)) {
            return;
        }
        SqlNode value = call.operand(0);
        if (validator.deriveType(scope, value).getSqlTypeName() != SqlTypeName.DATE) {
            return;
        }
        SqlParserPos pos = value.getParserPosition();
        call.setOperand(
                0,
                SqlStdOperatorTable.CAST.createCall(
                        pos,
                        value,
                        new SqlDataTypeSpec(
                                new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, pos), pos)));
    }

    /**
     * The call truncating the timestamp {@code value} to {@code unit} (a literal time unit), typed
     * {@code type}; {@code null} when the unit is not a literal PostgreSQL truncates to.
     */
    static RexNode truncateCall(RexBuilder rex, RelDataType type, RexNode value, RexNode unit) {
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
     * {@link #truncateCall} accepts; NULL in gives NULL out, an infinity itself.
     *
     * @param micros the timestamp as microseconds since 1970-01-01 00:00:00
     */
    @MicrosecondTimestamps
    public static Long truncate(Long micros, String unit) {
        if (micros == null || unit == null) {
            return null;
        }
        if (!InfiniteDateTimes.isFinite(micros)) {
            // PostgreSQL's timestamp_trunc: an infinity is its own truncation
            return micros;
        }
        long us = micros;
        long day = Math.floorDiv(us, MICROS_PER_DAY);
        return switch (unit) {
            case "MICROSECOND" -> us;
            case "MILLISECOND" -> us - Math.floorMod(us, 1_000L);
            case "SECOND" -> us - Math.floorMod(us, 1_000_000L);
            case "MINUTE" -> us - Math.floorMod(us, 60_000_000L);
            case "HOUR" -> us - Math.floorMod(us, 3_600_000_000L);
            case "DAY" -> day * MICROS_PER_DAY;
            default -> startOf(LocalDate.ofEpochDay(day), unit).toEpochDay() * MICROS_PER_DAY;
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
