package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * An ordering comparison of two PostgreSQL intervals ({@link PgIntervals}) as PostgreSQL orders
 * them: {@code pg_interval_cmp(a, b) op 0} (30-day months, 24-hour days). Validation accepts {@code
 * a < b} of two such values, as of any two values of one type, but Calcite's generated code finds no
 * ordering method when one is a column ({@code Object}) and the other a function's result ({@link
 * io.tributary.common.types.Interval}): an interval column against a sum of interval constants was an
 * internal error. Equality is left alone: Calcite's compares by {@code Interval.equals}, which is
 * already PostgreSQL's, and an equi-join must stay one. A comparison with a Calcite interval
 * constant is rewritten before, at validation's refusal ({@link IntervalOperands}). Used by {@link
 * PgArithmetic}; stateless.
 */
final class IntervalComparisons {
    private static final SqlUserDefinedFunction CMP =
            PlanFunctions.scalar(PgIntervalFunctions.class, "pg_interval_cmp", SqlTypeName.INTEGER);

    private IntervalComparisons() {}

    /** {@code call} as a comparison of the intervals' order with 0, of the same type; null when it is no such comparison. */
    static RexNode replace(RexCall call, RexBuilder rexBuilder) {
        List<RexNode> operands = call.getOperands();
        boolean comparison = switch (call.getKind()) {
            case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> true;
            default -> false;
        };
        if (!comparison
                || operands.size() != 2
                || !PgIntervals.isInterval(operands.get(0).getType())
                || !PgIntervals.isInterval(operands.get(1).getType())) {
            return null;
        }
        RexNode order = rexBuilder.makeCall(CMP, operands);
        return rexBuilder.makeCall(
                call.getType(), call.getOperator(), List.of(order, rexBuilder.makeExactLiteral(BigDecimal.ZERO)));
    }
}
