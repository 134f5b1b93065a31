package io.tributary.stream.operators;

import io.tributary.plan.ScalarExpr;
import io.tributary.plan.UnnestNode;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateWrites;
import java.util.List;

/**
 * Emits, for every input row, the row followed by each element of its array and the element's
 * 1-based position, with the row's op ({@link UnnestNode}). Stateless. An array expression that
 * fails on a row yields NULL for that row (see {@link ExprEvaluator}), so no elements; since that
 * depends only on the row, a DELETE expands exactly as its INSERT did.
 */
public final class UnnestOperator implements Operator {
    private final ScalarExpr array;
    private final boolean outer;
    private final ExprEvaluator evaluator;

    public UnnestOperator(UnnestNode node) {
        this.array = node.array();
        this.outer = node.outer();
        this.evaluator = new ExprEvaluator("unnest " + node.array());
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = chunk.row(i);
            Op op = chunk.op(i);
            List<?> elements = (List<?>) evaluator.eval(array, row);
            if (elements == null || elements.isEmpty()) {
                if (outer) {
                    out.emit(op, expanded(row, null, null));
                }
                continue;
            }
            for (int e = 0; e < elements.size(); e++) {
                out.emit(op, expanded(row, elements.get(e), e + 1));
            }
        }
    }

    private static Object[] expanded(Object[] row, Object element, Integer position) {
        Object[] out = new Object[row.length + 2];
        System.arraycopy(row, 0, out, 0, row.length);
        out[row.length] = element;
        out[row.length + 1] = position;
        return out;
    }

    @Override
    public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
        // stateless and holds nothing back
    }

    /** Holds nothing: every row's elements pass on at once. */
    @Override
    public long heldChanges() {
        return 0;
    }
}
