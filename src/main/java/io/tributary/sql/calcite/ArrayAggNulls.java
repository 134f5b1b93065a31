package io.tributary.sql.calcite;

import java.util.EnumSet;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * {@code array_agg(x)} keeps the rows whose {@code x} is NULL, as PostgreSQL's does: Calcite skips
 * a row whose aggregate argument is NULL, so the call aggregates {@code ARRAY[x]} (never NULL) and
 * {@code pg_array_flat} ({@link ArrayFunctions}) unwraps the elements. {@code DISTINCT}, {@code
 * ORDER BY} inside the call, {@code FILTER} and {@code OVER} stay where they were (the wrapping
 * goes around them). One instance per statement; planning thread.
 */
final class ArrayAggNulls extends StatementRewrite {
    /** The calls that may stand around an aggregate call. */
    private static final Set<SqlKind> AROUND = EnumSet.of(SqlKind.FILTER, SqlKind.WITHIN_GROUP, SqlKind.OVER);

    @Override
    public SqlNode visit(SqlCall call) {
        SqlCall aggregate = call;
        while (AROUND.contains(aggregate.getKind()) && aggregate.operand(0) instanceof SqlCall inner) {
            aggregate = inner;
        }
        // before validation the call is unresolved: known by its name
        if (!aggregate.getOperator().getName().equalsIgnoreCase("array_agg") || aggregate.operandCount() != 1) {
            return super.visit(call);
        }
        SqlNode argument = aggregate.operand(0);
        aggregate.setOperand(
                0, SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR.createCall(argument.getParserPosition(), argument));
        return rewritten(ArrayFunctions.named("pg_array_flat").createCall(call.getParserPosition(), call));
    }
}
