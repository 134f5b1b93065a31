package io.tributary.stream;

import io.tributary.common.VirtualNodes;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import java.util.List;

/**
 * The vnode of a row by its distribution key: the hash of the memcomparable encoding of the key
 * columns, the same function {@code TableKeys} applies to a table's primary key, so a view or
 * table row, the state it touches and the actor owning it agree. Stateless and thread-safe.
 */
public final class Vnodes {
    private Vnodes() {}

    /** @param types the types of {@code columns}, in the same order */
    public static int of(List<DataType> types, Object[] row, int[] columns) {
        ByteWriter w = new ByteWriter(32);
        KeyCodec.encode(w, types, row, columns);
        return VirtualNodes.of(w.toByteArray());
    }
}
