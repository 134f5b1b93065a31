package io.tributary.stream.operators;

import io.tributary.common.VirtualNodes;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.types.DataType;
import io.tributary.stream.Vnodes;
import java.util.List;

/**
 * Which stored rows of a state table that every actor of a fragment writes into belong to one
 * actor: those whose distribution columns hash to one of its vnodes. A dimension join's left side
 * is stored by join key, so one prefix scan finds every actor's rows of a key; the actor keeps its
 * own. One actor thread (the scratch buffer is reused).
 */
final class OwnedRows {
    private final int[] columns;
    private final List<DataType> types;
    private final boolean[] owned = new boolean[VirtualNodes.COUNT];
    private final ByteWriter scratch = new ByteWriter(32);

    /**
     * @param columns the row's columns its actor is chosen by (the input's distribution keys)
     * @param types the types of those columns, in the same order
     * @param vnodes the actor's vnodes
     */
    OwnedRows(int[] columns, List<DataType> types, int[] vnodes) {
        this.columns = columns.clone();
        this.types = List.copyOf(types);
        for (int v : vnodes) {
            owned[v] = true;
        }
    }

    /** Whether {@code row} (a whole input row) is this actor's. */
    boolean owns(Object[] row) {
        return owned[Vnodes.of(types, row, columns, scratch)];
    }
}
