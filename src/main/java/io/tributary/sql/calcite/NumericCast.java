package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.List;

/**
 * {@code CAST(x AS NUMERIC)} without a precision keeps every digit of {@code x} in PostgreSQL,
 * but rounds to an integer in Calcite, whose DECIMAL has a fixed scale. This turns such casts into
 * {@link PgFunctions#pg_numeric} calls, which keep the value's own scale. One instance per
 * statement.
 */
final class NumericCast extends SqlShuttle {
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
        if (visited instanceof SqlBasicCall cast && cast.getKind() == SqlKind.CAST && cast.operandCount() == 2
                && cast.operand(1) instanceof SqlDataTypeSpec spec
                && spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic
                && basic.getTypeName().getSimple().toUpperCase().matches("DECIMAL|NUMERIC")
                && basic.getPrecision() < 0
                && !SqlUtil.isNullLiteral(cast.operand(0), false)) {
            changed = true;
            SqlIdentifier function = new SqlIdentifier(List.of("pg_numeric"), cast.getParserPosition());
            return new SqlBasicCall(new org.apache.calcite.sql.SqlUnresolvedFunction(function, null, null, null,
                    null, org.apache.calcite.sql.SqlFunctionCategory.USER_DEFINED_FUNCTION),
                    List.of(cast.operand(0)), cast.getParserPosition());
        }
        return visited;
    }
}
