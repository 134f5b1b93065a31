package io.tributary.stream.runtime;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.types.DataType;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.Vnodes;
import java.util.List;

/**
 * Routes each row to the actor owning the vnode of its distribution key; with one target it just
 * forwards. Sender's thread only.
 */
final class HashDispatcher implements Dispatcher {
    private final int[] keys;
    private final List<DataType> keyTypes;
    private final VnodeMapping mapping;
    private final Channel[] targets;
    private final Chunk.Builder[] pending;
    /** Where each row's distribution key is encoded for hashing; reused, so routing allocates nothing per row. */
    private final ByteWriter scratch = new ByteWriter(32);

    /** @param targets one channel per downstream actor, indexed like {@code mapping}'s owners */
    HashDispatcher(int[] keys, List<DataType> keyTypes, VnodeMapping mapping, Channel[] targets) {
        this.keys = keys;
        this.keyTypes = keyTypes;
        this.mapping = mapping;
        this.targets = targets;
        this.pending = new Chunk.Builder[targets.length];
        for (int i = 0; i < targets.length; i++) {
            pending[i] = new Chunk.Builder();
        }
    }

    @Override
    public void dispatch(Chunk chunk) {
        if (targets.length == 1) {
            targets[0].send(chunk);
            return;
        }
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = chunk.row(i);
            Op op = chunk.op(i);
            int target = mapping.owner(Vnodes.of(keyTypes, row, keys, scratch));
            pending[target].add(op, row);
        }
        for (int t = 0; t < targets.length; t++) {
            Chunk part = pending[t].build();
            if (part != null) {
                targets[t].send(part);
            }
        }
    }

    @Override
    public void barrier(Barrier barrier) {
        for (Channel c : targets) {
            c.send(barrier);
        }
    }
}
