package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * PostgreSQL's {@code TABLE t} as the query {@code SELECT * FROM t} it abbreviates, wherever a query
 * stands (the statement, a set operation's operand, a CTE, a sub-query, before ORDER BY and LIMIT):
 * Calcite parses it but plans it only in some of those places. {@code TABLE t} as the operand of a
 * table function ({@code TUMBLE(TABLE t, ...)}) is Calcite's table argument and stays.
 */
final class ExplicitTableQueries extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.EXPLICIT_TABLE) {
            SqlParserPos pos = call.getParserPosition();
            return rewritten(new SqlSelect(
                    pos,
                    null,
                    SqlNodeList.of(SqlIdentifier.star(pos)),
                    call.operand(0),
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null));
        }
        if (call.getOperator() instanceof SqlFunction && call instanceof SqlBasicCall basic) {
            for (int i = 0; i < basic.operandCount(); i++) {
                SqlNode operand = basic.operand(i);
                if (operand != null && operand.getKind() != SqlKind.EXPLICIT_TABLE) {
                    basic.setOperand(i, operand.accept(this));
                }
            }
            return basic;
        }
        return super.visit(call);
    }
}
