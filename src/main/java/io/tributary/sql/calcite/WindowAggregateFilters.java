package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code agg(x) FILTER (WHERE c) OVER (...)}, which PostgreSQL accepts and Calcite refuses
 * (42803), written {@code agg(CASE WHEN c THEN x END) OVER (...)}: the same rows, for an
 * aggregate that skips NULL arguments, as those named here do ({@code count(*)} counts {@code CASE
 * WHEN c THEN 1 END}; a two-argument statistics aggregate, which skips a pair with a NULL, has both
 * arguments guarded). Other aggregates keep the FILTER and Calcite's refusal. One instance per
 * statement; applied before the rewrites of the aggregates themselves.
 */
final class WindowAggregateFilters extends StatementRewrite {
    /** Aggregates whose every argument is skipped when NULL (a row with one adds nothing). */
    private static final Set<String> NULL_SKIPPING = Set.of(
            "count",
            "sum",
            "avg",
            "min",
            "max",
            "bool_and",
            "bool_or",
            "every",
            "stddev",
            "stddev_samp",
            "stddev_pop",
            "variance",
            "var_samp",
            "var_pop",
            "corr",
            "covar_pop",
            "covar_samp",
            "regr_slope",
            "regr_intercept",
            "regr_count",
            "regr_r2",
            "regr_avgx",
            "regr_avgy",
            "regr_sxx",
            "regr_syy",
            "regr_sxy");

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall over)
                || over.getKind() != SqlKind.OVER
                || !(over.operand(0) instanceof SqlCall filter)
                || filter.getKind() != SqlKind.FILTER
                || !(filter.operand(0) instanceof SqlCall aggregate)
                || !(aggregate.getOperator() instanceof SqlFunction f)
                || !NULL_SKIPPING.contains(f.getName().toLowerCase(Locale.ROOT))) {
            return visited;
        }
        SqlNode condition = filter.operand(1);
        SqlParserPos pos = aggregate.getParserPosition();
        List<SqlNode> arguments = new ArrayList<>();
        if (aggregate.operandCount() == 0
                || (aggregate.operand(0).getKind() == SqlKind.IDENTIFIER
                        && aggregate.operand(0).toString().equals("*"))) {
            arguments.add(guarded(condition, SqlLiteral.createExactNumeric("1", pos), pos)); // count(*)
        } else {
            for (SqlNode argument : aggregate.getOperandList()) {
                // a condition is never shared between two parents
                arguments.add(guarded(arguments.isEmpty() ? condition : RowComparisons.copy(condition), argument, pos));
            }
        }
        SqlNode guardedCall = aggregate
                .getOperator()
                .createCall(aggregate.getFunctionQuantifier(), pos, arguments.toArray(new SqlNode[0]));
        over.setOperand(0, guardedCall);
        return rewritten(over);
    }

    /** {@code CASE WHEN condition THEN value END}. */
    private static SqlNode guarded(SqlNode condition, SqlNode value, SqlParserPos pos) {
        return new SqlCase(pos, null, SqlNodeList.of(condition), SqlNodeList.of(value), SqlLiteral.createNull(pos));
    }
}
