package io.tributary.sql.calcite;

import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;

/**
 * Sends the array functions whose Calcite namesakes differ from PostgreSQL's to Tributary's:
 * {@code string_to_array} to {@link PgTextArrays} (text elements, PostgreSQL's NULL and empty
 * delimiters) and the two-argument {@code array_length} to {@link PgArrayFunctions} (Calcite's
 * takes one). Labels are taken before rewrites, so the columns keep PostgreSQL's names.
 */
final class PgArrayCalls extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        boolean split = name.equals("string_to_array") && (call.operandCount() == 2 || call.operandCount() == 3);
        boolean length = name.equals("array_length") && call.operandCount() == 2;
        if (!split && !length) {
            return super.visit(call);
        }
        List<SqlNode> operands = call.getOperandList().stream()
                .map(o -> o == null ? null : o.accept(this))
                .toList();
        return rewritten(new SqlBasicCall(
                new SqlUnresolvedFunction(
                        new SqlIdentifier("pg_" + name, call.getParserPosition()),
                        null,
                        null,
                        null,
                        null,
                        SqlFunctionCategory.USER_DEFINED_FUNCTION),
                operands,
                call.getParserPosition()));
    }
}
