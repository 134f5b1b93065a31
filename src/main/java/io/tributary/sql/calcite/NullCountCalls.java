package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * PostgreSQL's {@code num_nulls(VARIADIC "any")} and {@code num_nonnulls(VARIADIC "any")}: how
 * many of the arguments are (not) NULL, an integer never NULL. A function of any number of
 * arguments of any types is no schema function, so each call is written as the sum of {@code CASE
 * WHEN arg IS [NOT] NULL THEN 1 ELSE 0 END} over its arguments; the column keeps its label, as
 * labels are taken before rewrites. A call without arguments is left as it is (PostgreSQL has no
 * such function: 42883), and so is the {@code VARIADIC array} form. One instance per statement.
 */
final class NullCountCalls extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        String name = call.getOperator().getName();
        boolean nulls = name.equalsIgnoreCase("num_nulls");
        if (call.getKind() != SqlKind.OTHER_FUNCTION
                || call.operandCount() == 0
                || !(nulls || name.equalsIgnoreCase("num_nonnulls"))) {
            return super.visit(call);
        }
        SqlParserPos pos = call.getParserPosition();
        SqlNode sum = null;
        for (SqlNode operand : call.getOperandList()) {
            SqlNode visited = operand.accept(this);
            SqlNode test =
                    (nulls ? SqlStdOperatorTable.IS_NULL : SqlStdOperatorTable.IS_NOT_NULL).createCall(pos, visited);
            SqlNode one = SqlStdOperatorTable.CASE.createCall(
                    null,
                    pos,
                    null,
                    new SqlNodeList(List.of(test), pos),
                    new SqlNodeList(List.of(SqlLiteral.createExactNumeric("1", pos)), pos),
                    SqlLiteral.createExactNumeric("0", pos));
            sum = sum == null ? one : SqlStdOperatorTable.PLUS.createCall(pos, sum, one);
        }
        return rewritten(sum);
    }
}
