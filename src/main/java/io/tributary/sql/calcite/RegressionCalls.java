package io.tributary.sql.calcite;

import java.util.Locale;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's statistics aggregates of two arguments ({@code corr(y, x)}, {@code covar_pop},
 * {@code covar_samp}, {@code regr_slope} and the rest of {@link PgRegressionAggregates#BY_NAME}):
 * Calcite has some of them, computed otherwise, and not the others (42883). Each call becomes
 * {@code pg_corr(CAST(y AS DOUBLE), CAST(x AS DOUBLE))} and so on, PostgreSQL's only signature
 * (double precision arguments), with its {@code FILTER} or {@code OVER} wrapper kept around it.
 * {@code regr_count} stays Calcite's, which counts the pairs as PostgreSQL does. Column labels are
 * taken before this rewrite. One instance per statement.
 */
final class RegressionCalls extends StatementRewrite {
    /** The prefix of the schema functions the calls become. */
    static final String PREFIX = "pg_";

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall c)
                || !(c.getOperator() instanceof SqlFunction f)
                || c.operandCount() != 2
                || !PgRegressionAggregates.BY_NAME.containsKey(f.getName().toLowerCase(Locale.ROOT))) {
            return visited;
        }
        SqlParserPos pos = c.getParserPosition();
        return rewritten(PgIntervals.function(PREFIX + f.getName().toLowerCase(Locale.ROOT), pos)
                .createCall(c.getFunctionQuantifier(), pos, asDouble(c.operand(0), pos), asDouble(c.operand(1), pos)));
    }

    private static SqlNode asDouble(SqlNode node, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(
                pos, node, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DOUBLE, pos), pos));
    }
}
