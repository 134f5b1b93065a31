package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * PostgreSQL's {@code timeofday()}: the wall clock at the call as text, {@code Sat Dec 05
 * 00:56:31.046520 2026 UTC} in the session's TimeZone. Written as {@code to_char(clock_timestamp(),
 * 'Dy Mon DD HH24:MI:SS.US YYYY TZ')}, which is that text in PostgreSQL too; the column keeps the
 * label {@code timeofday}, as labels are taken before rewrites. One instance per statement.
 */
final class TimeOfDayCalls extends StatementRewrite {
    private static final String FORMAT = "Dy Mon DD HH24:MI:SS.US YYYY TZ";

    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.OTHER_FUNCTION
                && call.operandCount() == 0
                && call.getOperator().getName().equalsIgnoreCase("timeofday")) {
            SqlParserPos pos = call.getParserPosition();
            return rewritten(new SqlBasicCall(
                    function("to_char", pos),
                    java.util.List.of(
                            new SqlBasicCall(function("clock_timestamp", pos), java.util.List.of(), pos),
                            SqlLiteral.createCharString(FORMAT, pos)),
                    pos));
        }
        return super.visit(call);
    }

    private static SqlUnresolvedFunction function(String name, SqlParserPos pos) {
        return new SqlUnresolvedFunction(
                new SqlIdentifier(name, pos), null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION);
    }
}
