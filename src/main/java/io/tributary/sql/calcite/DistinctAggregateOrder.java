package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelectKeyword;

/**
 * {@code array_agg(DISTINCT x)} and {@code string_agg(DISTINCT x, sep)} without an ORDER BY of their
 * own as {@code ... ORDER BY x}: PostgreSQL removes the duplicates by sorting the values, so its
 * result lists them in ascending order (NULL last), which users and tests rely on; Calcite removes
 * them by hashing and listed them in hash order. A call that orders its values itself keeps its
 * order (Calcite's parser gives that order as the call's last operand, a list, and so does this
 * rewrite, ahead of {@link PgArrayCalls}). One instance per statement.
 */
final class DistinctAggregateOrder extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.OVER) {
            // a window aggregate takes no DISTINCT in PostgreSQL (0A000): left for validation to refuse
            return call;
        }
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlCall c && isUnorderedDistinctListing(c)) {
            List<SqlNode> operands = new ArrayList<>(c.getOperandList());
            operands.add(new SqlNodeList(List.of(c.operand(0)), c.getParserPosition()));
            return rewritten(c.getOperator().createCall(c.getFunctionQuantifier(), c.getParserPosition(), operands));
        }
        return visited;
    }

    private static boolean isUnorderedDistinctListing(SqlCall call) {
        if (call.getFunctionQuantifier() == null
                || call.getFunctionQuantifier().getValue() != SqlSelectKeyword.DISTINCT
                || call.operandCount() == 0
                || call.operand(call.operandCount() - 1) instanceof SqlNodeList) {
            return false;
        }
        String name = call.getOperator().getName();
        return name.equalsIgnoreCase("array_agg") && call.operandCount() == 1
                || name.equalsIgnoreCase("string_agg") && call.operandCount() == 2;
    }
}
