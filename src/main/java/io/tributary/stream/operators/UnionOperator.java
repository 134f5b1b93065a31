package io.tributary.stream.operators;

import io.tributary.plan.UnionNode;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateWrites;

/**
 * UNION ALL: passes every change of every input unchanged. The planner gives all inputs the
 * union's layout and a stream key unique across them, so no row needs rewriting. Stateless.
 */
public final class UnionOperator implements Operator {
    public UnionOperator(UnionNode node) {
        // the node fixes nothing the operator needs: inputs already have its layout
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        for (int i = 0; i < chunk.size(); i++) {
            out.emit(chunk.op(i), chunk.row(i));
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
