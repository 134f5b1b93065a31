package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;

/**
 * PostgreSQL's LIKE treats backslash as the escape character unless told otherwise; Calcite's has
 * no default escape. This adds {@code ESCAPE '\'} to LIKE patterns that contain a backslash and
 * name no escape, so {@code s LIKE 'x\%'} matches a literal percent sign as in PostgreSQL. An
 * empty escape ({@code ESCAPE ''}, LIKE's and SIMILAR TO's) means no escape character in
 * PostgreSQL, which is Calcite's pattern without ESCAPE; Calcite refuses the empty one (XX000), so
 * it is dropped. One instance per statement.
 */
final class LikeEscape extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlCall like
                && like.getKind() == SqlKind.LIKE
                && like.operandCount() == 2
                && like.operand(1) instanceof SqlCharStringLiteral pattern
                && pattern.getValueAs(String.class).indexOf('\\') >= 0) {
            return rewritten(like.getOperator()
                    .createCall(
                            like.getParserPosition(),
                            like.operand(0),
                            like.operand(1),
                            SqlLiteral.createCharString("\\", like.getParserPosition())));
        }
        if (visited instanceof SqlCall escaped
                && (escaped.getKind() == SqlKind.LIKE || escaped.getKind() == SqlKind.SIMILAR)
                && escaped.operandCount() == 3
                && escaped.operand(2) instanceof SqlCharStringLiteral escape
                && escape.getValueAs(String.class).isEmpty()) {
            return rewritten(escaped.getOperator()
                    .createCall(escaped.getParserPosition(), escaped.operand(0), escaped.operand(1)));
        }
        return visited;
    }
}
