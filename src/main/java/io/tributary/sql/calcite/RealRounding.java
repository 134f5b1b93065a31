package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * A {@code real} ({@code float4}) cast to an integer type rounds half to even, as PostgreSQL's
 * {@code ftoi4} does with {@code rint}, and fails with 22003 when it is NaN, infinite or too big.
 * {@link NumericCast} puts {@code pg_round} before every such cast, but {@link PgFunctions} has no
 * {@code real} overload of it and Calcite's overload resolution cannot rank a REAL argument against
 * the NUMERIC and integer ones (an assertion under {@code -ea}, else the NUMERIC overload, which
 * rounds half away from zero and turned NaN into 22P02). So the REAL operand is widened to double
 * precision, which is exact and rounds alike; {@link IntegerCasts} then checks the range.
 */
final class RealRounding {
    private RealRounding() {}

    /**
     * Before validation derives {@code call}'s type: when it is {@code pg_round} of a REAL, the
     * operand becomes {@code CAST(x AS DOUBLE)}. Called by {@link PgValidator} on the validating
     * thread, in queries and views alike; another call is left alone.
     */
    static void widen(SqlValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        if (call.operandCount() != 1 || !call.getOperator().getName().equalsIgnoreCase("pg_round")) {
            return;
        }
        SqlNode operand = call.operand(0);
        if (operand instanceof SqlDynamicParam || SqlUtil.isNullLiteral(operand, true)) {
            return;
        }
        widenRealOperand(validator, scope, call);
    }

    /**
     * Makes {@code call}'s only operand {@code CAST(x AS DOUBLE)} when it is a REAL (exact: every
     * real is a double); also for {@link RealDistinctVariances}. On the validating thread.
     */
    static void widenRealOperand(SqlValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        SqlNode operand = call.operand(0);
        if (validator.deriveType(scope, operand).getSqlTypeName() != SqlTypeName.REAL) {
            return;
        }
        call.setOperand(
                0,
                SqlStdOperatorTable.CAST.createCall(
                        operand.getParserPosition(),
                        operand,
                        SqlTypeUtil.convertTypeToSpec(validator.getTypeFactory().createSqlType(SqlTypeName.DOUBLE))));
    }
}
