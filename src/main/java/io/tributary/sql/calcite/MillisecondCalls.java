package io.tributary.sql.calcite;

import io.tributary.common.types.PgTextFormat;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.util.TimestampString;

/**
 * Makes an expression about to be compiled hold timestamps as microseconds since 1970, the form of
 * Tributary's rows, where Calcite's code generator assumes milliseconds: a timestamp literal
 * becomes its count of microseconds; comparisons, CASE, COALESCE, GREATEST/LEAST, array
 * constructors and functions marked {@link MicrosecondTimestamps} take microseconds as they are;
 * an operation that moves a timestamp by whole milliseconds (plus or minus one of Calcite's
 * intervals, a cast between timestamp and timestamptz) computes in milliseconds and keeps the
 * operand's microseconds; {@code CAST} to {@code timestamp(p)} rounds as PostgreSQL; every other
 * call gets its timestamp operands in milliseconds and has its timestamp result read as
 * milliseconds ({@link TimestampUnitCalls}).
 *
 * <p>Applied to the final plan of a query ({@link MicrosecondPlans}), to a view's compiled
 * expressions ({@link CompiledExpression}) and to constant expressions before they are folded
 * ({@link PgConstantFolding}), so every piece of generated code sees the same unit. One instance
 * per rewrite, on the planning thread.
 */
final class MillisecondCalls extends RexShuttle {
    /** Calls whose code only compares or passes on their operands' values. */
    private static final Set<SqlKind> PASSING = passing();

    private static Set<SqlKind> passing() {
        Set<SqlKind> kinds = EnumSet.copyOf(ComparisonKinds.ALL);
        kinds.addAll(EnumSet.of(
                SqlKind.IS_NULL,
                SqlKind.IS_NOT_NULL,
                SqlKind.CASE,
                SqlKind.COALESCE,
                SqlKind.NULLIF,
                SqlKind.GREATEST,
                SqlKind.LEAST,
                SqlKind.ARRAY_VALUE_CONSTRUCTOR,
                SqlKind.ITEM,
                SqlKind.ROW,
                SqlKind.AND,
                SqlKind.OR,
                SqlKind.NOT));
        return kinds;
    }

    private static final int MICROS_DIGITS = 6;

    private final RexBuilder rexBuilder;

    private MillisecondCalls(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    /** {@code expr} with timestamps in microseconds throughout; the same node when it has none to change. */
    static RexNode rewrite(RexBuilder rexBuilder, RexNode expr) {
        return expr.accept(new MillisecondCalls(rexBuilder));
    }

    /** A shuttle for nodes (joins, filters) whose expressions {@code RelNode.accept} rewrites. */
    static RexShuttle shuttle(RexBuilder rexBuilder) {
        return new MillisecondCalls(rexBuilder);
    }

    /** Whether values of {@code type} are timestamps (with or without a time zone). */
    static boolean isTimestamp(RelDataType type) {
        SqlTypeName name = type.getSqlTypeName();
        return name == SqlTypeName.TIMESTAMP || name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    /** A non-null timestamp literal's microseconds since 1970. */
    static long micros(RexLiteral literal) {
        return PgTextFormat.parseTimestamp(
                literal.getValueAs(TimestampString.class).toString(), false);
    }

    @Override
    public RexNode visitLiteral(RexLiteral literal) {
        if (!isTimestamp(literal.getType()) || literal.isNull()) {
            return literal;
        }
        RexNode count = rexBuilder.makeBigintLiteral(BigDecimal.valueOf(micros(literal)));
        return rexBuilder.makeCall(literal.getType(), TimestampUnitCalls.AS_MICROS, List.of(count));
    }

    @Override
    public RexNode visitCall(RexCall call) {
        SqlOperator op = call.getOperator();
        if (isConversion(op)) {
            return call;
        }
        if (call.getKind() == SqlKind.SEARCH
                && isTimestamp(call.getOperands().get(0).getType())) {
            // its ranges are literals, which the code generator would write as milliseconds
            return RexUtil.expandSearch(rexBuilder, null, call).accept(this);
        }
        boolean[] update = {false};
        List<RexNode> operands = visitList(call.getOperands(), update);
        if (PASSING.contains(call.getKind()) || takesMicros(op) || reinterpretsTimestamp(call)) {
            return update[0] ? call.clone(call.getType(), operands) : call;
        }
        boolean timestampResult = isTimestamp(call.getType());
        if (call.getKind() == SqlKind.CAST
                && timestampResult
                && isTimestamp(operands.get(0).getType())) {
            return cast(call, operands.get(0));
        }
        if (call.getKind() == SqlKind.CAST
                && isDateTimestampCast(call.getType(), operands.get(0).getType())) {
            // in microseconds, where infinities stay infinite (Calcite's code would scale them as days)
            SqlOperator conversion = timestampResult ? TimestampUnitCalls.FROM_DATE : TimestampUnitCalls.TO_DATE;
            return rexBuilder.makeCall(call.getType(), conversion, List.of(operands.get(0)));
        }
        if ((call.getKind() == SqlKind.PLUS || call.getKind() == SqlKind.MINUS) && timestampResult) {
            for (RexNode operand : operands) {
                if (isTimestamp(operand.getType())) {
                    // Calcite's intervals are whole milliseconds: the microseconds below them stay
                    return keepMicros(call.clone(call.getType(), inMillis(operands)), operand);
                }
            }
        }
        List<RexNode> millis = inMillis(operands);
        if (!timestampResult && millis.equals(call.getOperands())) {
            return call;
        }
        RexNode computed = call.clone(call.getType(), millis);
        return timestampResult
                ? rexBuilder.makeCall(call.getType(), TimestampUnitCalls.FROM_MILLIS, List.of(computed))
                : computed;
    }

    /**
     * A cast of a timestamp to a timestamp type: to {@code timestamp(p)} rounded as PostgreSQL
     * does, between timestamp and timestamptz in milliseconds (the zone's offset) keeping the
     * microseconds, else the value itself.
     */
    private RexNode cast(RexCall call, RexNode operand) {
        RelDataType to = call.getType();
        int precision = to.getPrecision();
        boolean rounds =
                precision < MICROS_DIGITS && precision < operand.getType().getPrecision();
        if (to.getSqlTypeName() != operand.getType().getSqlTypeName()) {
            RexNode millis = rexBuilder.makeCall(operand.getType(), TimestampUnitCalls.TO_MILLIS, List.of(operand));
            // not rounded to p yet: earlier builds' views hold such casts (Calcite's spelling, CAST(x AS
            // TIMESTAMP(p) WITH LOCAL TIME ZONE), was read), and their plans must stay as they were
            return keepMicros(call.clone(to, List.of(millis)), operand);
        }
        return rounds
                ? round(to, operand, precision)
                : rexBuilder.makeCall(to, TimestampUnitCalls.AS_MICROS, List.of(operand));
    }

    private RexNode round(RelDataType to, RexNode micros, int precision) {
        return rexBuilder.makeCall(
                to,
                TimestampUnitCalls.ROUND,
                List.of(micros, rexBuilder.makeExactLiteral(BigDecimal.valueOf(precision))));
    }

    /** Whether a cast from {@code from} to {@code to} is between a date and a timestamp without time zone. */
    private static boolean isDateTimestampCast(RelDataType to, RelDataType from) {
        SqlTypeName t = to.getSqlTypeName();
        SqlTypeName f = from.getSqlTypeName();
        return t == SqlTypeName.TIMESTAMP && f == SqlTypeName.DATE
                || t == SqlTypeName.DATE && f == SqlTypeName.TIMESTAMP;
    }

    private RexNode keepMicros(RexNode millisResult, RexNode operand) {
        return rexBuilder.makeCall(
                millisResult.getType(), TimestampUnitCalls.KEEP_MICROS, List.of(millisResult, operand));
    }

    private List<RexNode> inMillis(List<RexNode> operands) {
        List<RexNode> out = new ArrayList<>(operands.size());
        for (RexNode operand : operands) {
            out.add(
                    isTimestamp(operand.getType())
                            ? rexBuilder.makeCall(operand.getType(), TimestampUnitCalls.TO_MILLIS, List.of(operand))
                            : operand);
        }
        return out;
    }

    /**
     * Whether {@code call} reinterprets one timestamp type as the other (the count stays); a
     * reinterpretation as a number is Calcite's arithmetic on milliseconds (time windows).
     */
    private static boolean reinterpretsTimestamp(RexCall call) {
        return call.getKind() == SqlKind.REINTERPRET
                && isTimestamp(call.getType())
                && isTimestamp(call.getOperands().get(0).getType());
    }

    private static boolean isConversion(SqlOperator op) {
        return op == TimestampUnitCalls.AS_MICROS
                || op == TimestampUnitCalls.TO_MILLIS
                || op == TimestampUnitCalls.FROM_MILLIS
                || op == TimestampUnitCalls.KEEP_MICROS
                || op == TimestampUnitCalls.FROM_DATE
                || op == TimestampUnitCalls.TO_DATE
                || op == TimestampUnitCalls.ROUND;
    }

    /** Whether {@code op} is a function marked {@link MicrosecondTimestamps}. */
    private static boolean takesMicros(SqlOperator op) {
        if (!(op instanceof SqlUserDefinedFunction udf)) {
            return false;
        }
        Object function = udf.getFunction();
        return function instanceof ScalarFunctionImpl f
                ? f.method.isAnnotationPresent(MicrosecondTimestamps.class)
                : function.getClass().isAnnotationPresent(MicrosecondTimestamps.class);
    }
}
