package io.tributary.sql.calcite;

import static org.apache.calcite.util.Static.RESOURCE;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * Resolves the math functions whose numeric overload PostgreSQL picks where Calcite computes a
 * double: {@code ^}/{@code power} of a NUMERIC beside an integer or NUMERIC, {@code log(b, x)} of
 * anything but floats, and {@code sqrt}, {@code exp}, {@code ln}, {@code log} and {@code log10} of
 * one NUMERIC go to {@link PgNumericFunctions}, typed NUMERIC with PostgreSQL's result scales.
 * Integers alone keep {@code ^} and the one-argument functions double precision, as PostgreSQL's
 * preferred float8 does. Called by {@link PgValidator#deriveType} for each call before Calcite
 * looks its operator up; planning thread.
 */
final class NumericFunctionCalls {
    /** The one-argument functions of a numeric, by Calcite's upper-case name. */
    private static final Map<String, String> ONE_ARGUMENT = Map.of(
            "SQRT", "pg_numeric_sqrt",
            "EXP", "pg_numeric_exp",
            "LN", "pg_numeric_ln",
            "LOG", "pg_numeric_log10",
            "LOG10", "pg_numeric_log10");

    private NumericFunctionCalls() {}

    /**
     * Points {@code call} at its {@link PgNumericFunctions} function when PostgreSQL would resolve
     * it to a numeric overload; leaves any other call alone.
     *
     * @throws org.apache.calcite.runtime.CalciteContextException for {@code log(b, x)} of a float
     *     (PostgreSQL has no such function, 42883)
     */
    static void resolve(PgValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (call.operandCount() == 1) {
            String function = ONE_ARGUMENT.get(name);
            if (function != null
                    && validator.deriveType(scope, call.operand(0)).getSqlTypeName() == SqlTypeName.DECIMAL) {
                rename(call, function);
            }
            return;
        }
        boolean power = name.equals("POWER");
        if (call.operandCount() != 2 || !power && !name.equals("LOG")) {
            return;
        }
        boolean decimal = false;
        boolean approx = false;
        List<RelDataType> types = new ArrayList<>(2);
        for (SqlNode operand : call.getOperandList()) {
            RelDataType derived = validator.deriveType(scope, operand);
            types.add(derived);
            SqlTypeName type = derived.getSqlTypeName();
            approx |= SqlTypeName.APPROX_TYPES.contains(type);
            decimal |= type == SqlTypeName.DECIMAL;
        }
        if (approx && !power) {
            // PostgreSQL's only log(b, x) is numeric, and a float does not become one implicitly
            String signature = "'LOG(<" + types.get(0) + ">, <" + types.get(1) + ">)'";
            throw validator.newValidationError(call, RESOURCE.canNotApplyOp2Type("LOG", signature, "LOG"));
        }
        if (!approx && (decimal || !power)) {
            rename(call, power ? "pg_numeric_power" : "pg_numeric_log");
        }
    }

    private static void rename(SqlBasicCall call, String function) {
        call.setOperator(PgIntervals.function(function, call.getParserPosition()));
    }
}
