package io.tributary.stream.runtime;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.types.DataType;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.SummedInserts;
import io.tributary.stream.Vnodes;
import io.tributary.stream.operators.InsertCombiner;
import java.util.List;

/**
 * A {@link HashDispatcher} for an exchange into a GROUP BY that sums inserted rows per group first
 * ({@link InsertCombiner}), so a backfill's snapshot crosses the exchange as about one row per group
 * and barrier rather than one per row. Everything held goes on before each barrier (so a checkpoint
 * covers exactly the rows before it), before any row that is not an insert (which then goes on
 * as it is), and when the combiner holds its most groups. Sender's thread only.
 */
final class CombiningDispatcher implements Dispatcher, InsertCombiner.Sink {
    private final int[] keys;
    private final List<DataType> keyTypes;
    private final VnodeMapping mapping;
    private final Channel[] targets;
    private final Chunk.Builder[] pending;
    private final InsertCombiner combiner;
    private final ByteWriter scratch = new ByteWriter(32);

    /** As {@link HashDispatcher}'s, summing through {@code combiner}. */
    CombiningDispatcher(
            int[] keys, List<DataType> keyTypes, VnodeMapping mapping, Channel[] targets, InsertCombiner combiner) {
        this.keys = keys;
        this.keyTypes = keyTypes;
        this.mapping = mapping;
        this.targets = targets;
        this.combiner = combiner;
        this.pending = new Chunk.Builder[targets.length];
        for (int i = 0; i < targets.length; i++) {
            pending[i] = new Chunk.Builder();
        }
    }

    @Override
    public void dispatch(Chunk chunk) {
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = chunk.row(i);
            if (chunk.op(i) == Op.INSERT && chunk.summed(i) == null) {
                combiner.add(row, this);
                if (combiner.full()) {
                    combiner.drain(this);
                }
            } else {
                combiner.drain(this);
                route(chunk.op(i), row, chunk.summed(i));
            }
        }
        sendPending();
    }

    @Override
    public void barrier(Barrier barrier) {
        combiner.drain(this);
        sendPending();
        for (Channel c : targets) {
            c.send(barrier);
        }
    }

    @Override
    public void accept(Object[] row, SummedInserts sums) {
        route(Op.INSERT, row, sums);
    }

    private void route(Op op, Object[] row, SummedInserts sums) {
        int target = targets.length == 1 ? 0 : mapping.owner(Vnodes.of(keyTypes, row, keys, scratch));
        Chunk.Builder b = pending[target];
        if (sums == null) {
            b.add(op, row);
        } else {
            b.addSummed(row, sums);
        }
        if (b.isFull()) {
            targets[target].send(b.build());
        }
    }

    private void sendPending() {
        for (int t = 0; t < targets.length; t++) {
            Chunk part = pending[t].build();
            if (part != null) {
                targets[t].send(part);
            }
        }
    }
}
