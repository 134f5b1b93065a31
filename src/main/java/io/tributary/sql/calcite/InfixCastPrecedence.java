package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlPrefixOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.List;

/**
 * Gives PostgreSQL's {@code ::} its precedence. Babel's grammar applies {@code x::type} to the
 * whole operator expression before it ({@code v = '5'::int} parses as {@code (v = '5')::int});
 * in PostgreSQL {@code ::} binds tightest. Where the text shows no closing parenthesis between the
 * expression's last operand and the {@code ::}, the cast moves onto that operand. A cast of a
 * parenthesized expression is left as parsed.
 */
final class InfixCastPrecedence extends StatementRewrite {
    private final String sql;

    /** @param sql the text the statement was parsed from, to tell {@code (a = b)::t} from {@code a = b::t} */
    InfixCastPrecedence(String sql) {
        this.sql = sql;
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.CAST && call.getOperator().getName().equals("::")
                && isOperatorCall(call.operand(0)) && castFollows(rightmostLeaf(call.operand(0)))) {
            SqlNode moved = withCastOnRight((SqlCall) call.operand(0), call);
            return rewritten(moved).accept(this);
        }
        return super.visit(call);
    }

    private static boolean isOperatorCall(SqlNode node) {
        return node instanceof SqlBasicCall c && (c.getOperator() instanceof SqlBinaryOperator
                || c.getOperator() instanceof SqlPrefixOperator) && c.operandCount() > 0
                && !c.getOperator().getName().equals("::");
    }

    private static SqlNode rightmostLeaf(SqlNode node) {
        SqlNode n = node;
        while (isOperatorCall(n)) {
            SqlCall c = (SqlCall) n;
            n = c.operand(c.operandCount() - 1);
        }
        return n;
    }

    /** Whether the next token after {@code leaf}'s text is {@code ::} (no parenthesis closes in between). */
    private boolean castFollows(SqlNode leaf) {
        SqlParserPos pos = leaf.getParserPosition();
        int next = SqlErrors.offset(sql, pos.getEndLineNum(), pos.getEndColumnNum());
        if (next <= 0) {
            return false;
        }
        int i = next;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return sql.startsWith("::", i);
    }

    /** {@code node} with its rightmost operand (recursively) cast as {@code cast} casts. */
    private static SqlNode withCastOnRight(SqlCall node, SqlCall cast) {
        List<SqlNode> operands = new ArrayList<>(node.getOperandList());
        int last = operands.size() - 1;
        SqlNode right = operands.get(last);
        operands.set(last, isOperatorCall(right) ? withCastOnRight((SqlCall) right, cast)
                : cast.getOperator().createCall(cast.getParserPosition(), right, cast.operand(1)));
        return node.getOperator().createCall(node.getFunctionQuantifier(), node.getParserPosition(),
                operands.toArray(new SqlNode[0]));
    }
}
