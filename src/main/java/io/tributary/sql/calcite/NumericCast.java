package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;

/**
 * Casts whose PostgreSQL meaning Calcite does not share. {@code CAST(x AS NUMERIC)} without a
 * precision keeps every digit of {@code x} in PostgreSQL but rounds to an integer in Calcite,
 * whose DECIMAL has a fixed scale: it becomes {@link PgFunctions#pg_numeric}. A cast to an integer
 * type rounds in PostgreSQL (half away from zero for NUMERIC, half to even for floats) but
 * truncates in Calcite: its operand goes through {@link PgFunctions#pg_round} first. One instance
 * per statement.
 */
final class NumericCast extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlBasicCall cast)
                || cast.getKind() != SqlKind.CAST
                || cast.operandCount() != 2
                || !(cast.operand(1) instanceof SqlDataTypeSpec spec)
                || !(spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic)
                || SqlUtil.isNullLiteral(cast.operand(0), false)
                || cast.operand(0) instanceof org.apache.calcite.sql.SqlDynamicParam) {
            // NULL and parameters have no type of their own: the cast is what types them
            return visited;
        }
        String type = basic.getTypeName().getSimple().toUpperCase();
        if (type.matches("DECIMAL|NUMERIC") && basic.getPrecision() < 0) {
            return rewritten(call("pg_numeric", cast.operand(0), cast));
        }
        if (type.matches("INTEGER|INT|BIGINT|SMALLINT|TINYINT|INT2|INT4|INT8")) {
            cast.setOperand(0, call("pg_round", cast.operand(0), cast));
            return rewritten(cast);
        }
        return visited;
    }

    private static SqlNode call(String name, SqlNode argument, SqlCall at) {
        SqlIdentifier function = new SqlIdentifier(List.of(name), at.getParserPosition());
        return new SqlBasicCall(
                new org.apache.calcite.sql.SqlUnresolvedFunction(
                        function,
                        null,
                        null,
                        null,
                        null,
                        org.apache.calcite.sql.SqlFunctionCategory.USER_DEFINED_FUNCTION),
                List.of(argument),
                at.getParserPosition());
    }
}
