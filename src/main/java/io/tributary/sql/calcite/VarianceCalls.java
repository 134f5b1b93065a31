package io.tributary.sql.calcite;

import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * PostgreSQL's {@code variance}/{@code var_samp}/{@code var_pop} and {@code stddev}/
 * {@code stddev_samp}/{@code stddev_pop} of an exact argument are NUMERIC with
 * {@code numeric / numeric}'s result scale (4.5 of two smallints is {@code 4.5000000000000000}, the
 * deviation its exact square root in that scale); Calcite's compute in the argument's type or in
 * double. Each call is written {@code pg_var_samp(sum(e), sum(e * e), NULLIF(count(x), 1))} (the
 * population forms without NULLIF), with {@code e} = {@link AvgScale#exact}{@code (x)}, so the
 * aggregation keeps sums and a count, which views maintain too, and {@link PgVarianceFunctions}
 * does the final step. A wrapper ({@code FILTER}, {@code OVER}) is applied to each aggregate;
 * {@code DISTINCT} calls stay Calcite's (distinct values do not have distinct squares). Column
 * labels are taken before this rewrite. One instance per statement.
 */
final class VarianceCalls extends StatementRewrite {
    /** PostgreSQL's names of the aggregates, and the final function of each. */
    private static final Map<String, String> FINALS = Map.of(
            "variance", "pg_var_samp",
            "var_samp", "pg_var_samp",
            "var_pop", "pg_var_pop",
            "stddev", "pg_stddev_samp",
            "stddev_samp", "pg_stddev_samp",
            "stddev_pop", "pg_stddev_pop");

    @Override
    public SqlNode visit(SqlCall call) {
        if ((call.getKind() == SqlKind.FILTER || call.getKind() == SqlKind.OVER)
                && call.operand(0) instanceof SqlCall inner
                && finalOf(inner) != null) {
            for (int i = 1; i < call.operandCount(); i++) {
                SqlNode operand = call.operand(i);
                if (operand != null) {
                    call.setOperand(i, operand.accept(this));
                }
            }
            inner.setOperand(0, inner.operand(0).accept(this));
            return rewritten(finalCall(inner, call));
        }
        SqlNode visited = super.visit(call);
        return visited instanceof SqlCall c && finalOf(c) != null ? rewritten(finalCall(c, null)) : visited;
    }

    /** Whether {@code name} is one of the final functions this rewrite writes ({@code pg_var_samp}, ...). */
    static boolean isFinal(String name) {
        return FINALS.containsValue(name.toLowerCase(Locale.ROOT));
    }

    /** The final function for a one-argument, non-DISTINCT call of one of the aggregates; else null. */
    private static String finalOf(SqlCall call) {
        if (!(call.getOperator() instanceof SqlFunction) || call.operandCount() != 1) {
            return null;
        }
        SqlLiteral quantifier = call instanceof SqlBasicCall b ? b.getFunctionQuantifier() : null;
        if (quantifier != null && "DISTINCT".equalsIgnoreCase(quantifier.toValue())) {
            return null;
        }
        return FINALS.get(call.getOperator().getName().toLowerCase(Locale.ROOT));
    }

    private static SqlNode finalCall(SqlCall aggregate, SqlCall wrapper) {
        SqlParserPos pos = aggregate.getParserPosition();
        String name = finalOf(aggregate);
        SqlNode x = aggregate.operand(0);
        SqlNode sum = AvgScale.wrap(SqlStdOperatorTable.SUM.createCall(pos, AvgScale.exact(x, pos)), wrapper);
        SqlNode squares = AvgScale.wrap(
                SqlStdOperatorTable.SUM.createCall(
                        pos,
                        SqlStdOperatorTable.MULTIPLY.createCall(pos, AvgScale.exact(x, pos), AvgScale.exact(x, pos))),
                wrapper);
        SqlNode count = AvgScale.wrap(SqlStdOperatorTable.COUNT.createCall(pos, AvgScale.copy(x)), wrapper);
        if (name.endsWith("_samp")) {
            // a sample of one row has no variance: NULL, which the strict final function passes on
            count = SqlStdOperatorTable.NULLIF.createCall(pos, count, SqlLiteral.createExactNumeric("1", pos));
        }
        SqlUnresolvedFunction function = new SqlUnresolvedFunction(
                new SqlIdentifier(name, pos), null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION);
        return function.createCall(pos, sum, squares, count);
    }
}
