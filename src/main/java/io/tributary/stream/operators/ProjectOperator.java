package io.tributary.stream.operators;

import io.tributary.plan.ProjectNode;
import io.tributary.plan.ScalarExpr;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateWrites;

/**
 * Emits {@code exprs[i](row)} for every input row, with the row's op. Stateless. An expression
 * that fails on a row yields NULL for that row (see {@link ExprEvaluator}); since that depends
 * only on the row, a DELETE projects exactly as its INSERT did.
 */
public final class ProjectOperator implements Operator {
    private final ScalarExpr[] exprs;
    private final ExprEvaluator evaluator;

    public ProjectOperator(ProjectNode node) {
        this.exprs = node.exprs().toArray(new ScalarExpr[0]);
        this.evaluator = new ExprEvaluator("project " + node.exprs());
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = chunk.row(i);
            Object[] projected = new Object[exprs.length];
            for (int e = 0; e < exprs.length; e++) {
                projected[e] = evaluator.eval(exprs[e], row);
            }
            out.emit(chunk.op(i), projected);
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
