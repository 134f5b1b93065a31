package io.tributary.sql.calcite;

import java.math.BigDecimal;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Calcite's conversion of SQL to row expressions, except that a float plus a constant zero ({@code
 * x + 0}, {@code 0 + x}) becomes {@link PgFloatKeys} of the other operand. Calcite's simplifier
 * drops an added zero of any numeric type, so {@code -0 + 0} stayed {@code -0} where PostgreSQL,
 * adding as IEEE 754 does, gives {@code 0}; the key function is that sum, and no simplifier looks
 * into it. Queries ({@link PgPrepare}) and views of this build ({@link ViewQueryConverter}) convert
 * with it; a view an earlier build created keeps Calcite's table ({@link
 * ViewPlanningBuild#pgZeroSums}). Stateless.
 */
final class FloatZeroSums implements SqlRexConvertletTable {
    static final FloatZeroSums INSTANCE = new FloatZeroSums();

    private FloatZeroSums() {}

    @Override
    public SqlRexConvertlet get(SqlCall call) {
        SqlRexConvertlet standard = StandardConvertletTable.INSTANCE.get(call);
        if (standard == null || call.getKind() != SqlKind.PLUS) {
            return standard;
        }
        return (context, sum) -> zeroSum(context.getRexBuilder(), standard.convertCall(context, sum));
    }

    /** {@code sum} with a float plus a numeric zero constant replaced by the other operand's key. */
    private static RexNode zeroSum(RexBuilder rex, RexNode sum) {
        if (!(sum instanceof RexCall call)
                || call.getKind() != SqlKind.PLUS
                || call.getOperands().size() != 2
                || !FloatKeyPlans.isFloat(call.getType())) {
            return sum;
        }
        for (int i = 0; i < 2; i++) {
            if (isZero(call.getOperands().get(i))) {
                RexNode other = call.getOperands().get(1 - i);
                return FloatKeyPlans.key(
                        rex, other.getType().equals(call.getType()) ? other : rex.makeCast(call.getType(), other));
            }
        }
        return sum;
    }

    /** Whether {@code node} is a numeric constant zero, maybe cast (the zero's sign is not kept). */
    private static boolean isZero(RexNode node) {
        return RexUtil.removeCast(node) instanceof RexLiteral literal
                && literal.getType().getSqlTypeName().getFamily() == SqlTypeFamily.NUMERIC
                && literal.getValue() instanceof BigDecimal value
                && value.signum() == 0;
    }
}
