package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Calcite computes {@code avg} of an exact column as an exact division in the column's own scale,
 * so {@code avg} of integers truncates to an integer, where PostgreSQL returns a NUMERIC with 16
 * decimals. Multiplying the argument by {@code 1.0000000000000000} gives exact arguments 16 more
 * decimals and leaves floating-point ones floating-point. One instance per statement.
 */
final class AvgScale extends StatementRewrite {
    private static final SqlLiteral ONE = SqlLiteral.createExactNumeric("1.0000000000000000", SqlParserPos.ZERO);

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlCall avg && avg.getKind() == SqlKind.AVG && avg.operandCount() == 1) {
            avg.setOperand(0, SqlStdOperatorTable.MULTIPLY.createCall(avg.getParserPosition(), avg.operand(0), ONE));
            return rewritten(avg);
        }
        return visited;
    }
}
