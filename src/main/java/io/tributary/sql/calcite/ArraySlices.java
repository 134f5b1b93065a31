package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

/**
 * The subscript {@code a[pg__slice(lo, hi)]} that {@link ArraySliceText} made of PostgreSQL's
 * slice {@code a[lo:hi]} becomes {@code pg_array_slice(a, lo, hi)} ({@link ArrayFunctions}): the
 * elements from {@code lo} to {@code hi}, an empty array when none is in range, NULL when the
 * array or a bound is. The column keeps its label, taken before rewrites. One instance per
 * statement.
 */
final class ArraySlices extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() != SqlKind.ITEM
                || call.operandCount() != 2
                || !(call.operand(1) instanceof SqlCall bounds)
                || !bounds.getOperator().getName().equalsIgnoreCase(ArraySliceText.MARKER)
                || bounds.operandCount() != 2) {
            return super.visit(call);
        }
        return rewritten(ArrayFunctions.named(ArrayFunctions.SLICE_NAME)
                .createCall(
                        call.getParserPosition(),
                        call.operand(0).accept(this),
                        bounds.operand(0).accept(this),
                        bounds.operand(1).accept(this)));
    }
}
