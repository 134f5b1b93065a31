package io.tributary.stream.operators;

import io.tributary.plan.FilterNode;
import io.tributary.plan.ScalarExpr;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateWrites;

/**
 * Passes the changes whose row satisfies the condition ({@link Boolean#TRUE}; false and NULL drop
 * the row), unchanged. Stateless. A condition that fails on a row counts as not true (see
 * {@link ExprEvaluator}); since that depends only on the row, a DELETE is dropped or passed
 * exactly as its INSERT was.
 */
public final class FilterOperator implements Operator {
    private final ScalarExpr condition;
    private final ExprEvaluator evaluator;

    public FilterOperator(FilterNode node) {
        this.condition = node.condition();
        this.evaluator = new ExprEvaluator("filter " + node.condition());
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = chunk.row(i);
            if (Boolean.TRUE.equals(evaluator.eval(condition, row))) {
                out.emit(chunk.op(i), row);
            }
        }
    }

    @Override
    public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
        // stateless and holds nothing back
    }

    /** Holds nothing: every row passes on at once. */
    @Override
    public long heldChanges() {
        return 0;
    }
}
