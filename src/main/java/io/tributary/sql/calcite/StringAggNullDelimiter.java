package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;

/**
 * PostgreSQL's {@code string_agg(x, NULL)} joins the values with nothing between them; Calcite
 * generates code for a bare NULL delimiter that does not compile (XX000). A NULL constant as the
 * delimiter (bare or cast; also before an ORDER BY, which Calcite keeps as a third operand) is
 * written as the empty text, which joins alike. One instance per
 * statement.
 */
final class StringAggNullDelimiter extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlCall agg
                && agg.getOperator().getName().equalsIgnoreCase("STRING_AGG")
                && agg.operandCount() >= 2
                && SqlUtil.isNullLiteral(agg.operand(1), true)) {
            agg.setOperand(1, SqlLiteral.createCharString("", agg.operand(1).getParserPosition()));
            return rewritten(agg);
        }
        return visited;
    }
}
