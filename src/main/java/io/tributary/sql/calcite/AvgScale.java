package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlShuttle;

import java.math.BigDecimal;

/**
 * Calcite computes {@code avg} of an exact column as an exact division in the column's own scale,
 * so {@code avg} of integers truncates to an integer, where PostgreSQL returns a NUMERIC with 16
 * decimals. Multiplying the argument by {@code 1.0000000000000000} gives exact arguments 16 more
 * decimals and leaves floating-point ones floating-point. One instance per statement.
 */
final class AvgScale extends SqlShuttle {
    private static final SqlLiteral ONE = SqlLiteral.createExactNumeric(
            new BigDecimal("1.0000000000000000").toPlainString(), org.apache.calcite.sql.parser.SqlParserPos.ZERO);
    private boolean changed;

    SqlNode apply(SqlNode statement) {
        return statement.accept(this);
    }

    boolean changed() {
        return changed;
    }

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlCall avg && avg.getKind() == SqlKind.AVG && avg.operandCount() == 1) {
            changed = true;
            SqlNode scaled = SqlStdOperatorTable.MULTIPLY.createCall(avg.getParserPosition(), avg.operand(0), ONE);
            avg.setOperand(0, scaled);
            return avg;
        }
        return visited;
    }
}
