package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * A cast of an {@code ARRAY[...]} constructor to an array type ({@code ARRAY[1, NULL]::text[]},
 * {@code CAST(ARRAY[1.5, 2] AS int[])}) becomes the constructor of its elements cast to the
 * element type, as PostgreSQL's parser builds it: each element then gets the cast's PostgreSQL
 * meaning from the rewrites after this one (rounding to integers, booleans as {@code true}), where
 * Calcite's array cast truncates, drops numeric scales and fails on a NULL element. Other array
 * casts are Calcite's; {@link PgValidator} refuses those between element types. One instance per
 * statement, run before {@link NumericCast} and {@link PgValueSemantics}.
 */
final class ArrayElementCasts extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() != SqlKind.CAST
                || call.operandCount() != 2
                || call.operand(0).getKind() != SqlKind.ARRAY_VALUE_CONSTRUCTOR
                || !(call.operand(1) instanceof SqlDataTypeSpec spec)
                || !(spec.getTypeNameSpec() instanceof SqlCollectionTypeNameSpec array)) {
            return super.visit(call);
        }
        SqlDataTypeSpec element = new SqlDataTypeSpec(
                array.getElementTypeName(), spec.getTimeZone(), spec.getNullable(), spec.getParserPosition());
        List<SqlNode> casts = new ArrayList<>();
        for (SqlNode operand : ((SqlCall) call.operand(0)).getOperandList()) {
            casts.add(SqlStdOperatorTable.CAST.createCall(operand.getParserPosition(), operand.accept(this), element));
        }
        return rewritten(SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR.createCall(call.getParserPosition(), casts));
    }
}
