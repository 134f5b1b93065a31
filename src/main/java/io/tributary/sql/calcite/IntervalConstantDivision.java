package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code INTERVAL '...' / n} as PostgreSQL's {@code interval_div} ({@code pg_interval_div} of the
 * constant as a PostgreSQL interval and {@code n} as double precision): Calcite divides its interval
 * constants itself, a month constant by whole months ({@code INTERVAL '1 month' / 2} was 0, where
 * PostgreSQL cascades the half month into 15 days) and a day-time one in milliseconds (the
 * microseconds of {@code INTERVAL '1 day' / 7} were lost). Division by any other operand is
 * validation's to refuse or answer. One instance per statement.
 */
final class IntervalConstantDivision extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall c) || c.getKind() != SqlKind.DIVIDE) {
            return visited;
        }
        SqlNode dividend = c.operand(0);
        SqlNode divisor = c.operand(1);
        SqlParserPos pos = c.getParserPosition();
        if (dividend instanceof SqlCall minus
                && minus.getKind() == SqlKind.MINUS_PREFIX
                && minus.operand(0) instanceof SqlIntervalLiteral) {
            // -INTERVAL '1 month' / 2 parses as (-INTERVAL '1 month') / 2: PostgreSQL truncates toward
            // zero, so dividing by -2 gives the same fields
            dividend = minus.operand(0);
            divisor = SqlStdOperatorTable.UNARY_MINUS.createCall(pos, divisor);
        }
        if (!(dividend instanceof SqlIntervalLiteral interval)) {
            return visited;
        }
        SqlNode asDouble = SqlStdOperatorTable.CAST.createCall(
                pos, divisor, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DOUBLE, pos), pos));
        return rewritten(PgIntervals.call("pg_interval_div", pos, PgIntervals.literal(interval), asDouble));
    }
}
