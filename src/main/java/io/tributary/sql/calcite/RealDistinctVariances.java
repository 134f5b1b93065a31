package io.tributary.sql.calcite;

import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * {@code variance}, {@code stddev} and their forms with {@code DISTINCT} over a {@code real} are
 * double precision in PostgreSQL, computed from the reals widened to double ({@code
 * float4_accum}). {@link VarianceCalls} leaves DISTINCT calls to Calcite, which computes and types
 * them in the argument's type: {@code variance(DISTINCT r)} was a {@code real} with a real's
 * rounding errors ({@code 0.10333331} for PostgreSQL's {@code 0.10333332821726805}). So the REAL
 * argument of such a call becomes {@code CAST(x AS DOUBLE)}, which is exact. Views do not maintain
 * these calls, so no stored view plans differently. Called by {@link PgValidator} on the
 * validating thread.
 */
final class RealDistinctVariances {
    private static final Set<String> VARIANCES =
            Set.of("variance", "var_samp", "var_pop", "stddev", "stddev_samp", "stddev_pop");

    private RealDistinctVariances() {}

    /**
     * Before validation derives {@code call}'s type: when it is one of the variance aggregates
     * with DISTINCT over a REAL, its argument is widened to double precision; another call is left
     * alone.
     */
    static void widen(SqlValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        SqlLiteral quantifier = call.getFunctionQuantifier();
        if (call.operandCount() != 1
                || quantifier == null
                || !"DISTINCT".equalsIgnoreCase(quantifier.toValue())
                || !VARIANCES.contains(call.getOperator().getName().toLowerCase(Locale.ROOT))) {
            return;
        }
        RealRounding.widenRealOperand(validator, scope, call);
    }
}
