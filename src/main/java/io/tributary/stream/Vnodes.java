package io.tributary.stream;

import io.tributary.common.VirtualNodes;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import java.util.List;

/**
 * The vnode of a row by its distribution key: the hash of the memcomparable encoding of the key
 * columns, the same function {@code TableKeys} applies to a table's primary key, so a view or
 * table row, the state it touches and the actor owning it agree. Stateless; thread-safe as long as
 * each thread passes its own scratch buffer.
 */
public final class Vnodes {
    private Vnodes() {}

    /**
     * @param types the types of {@code columns}, in the same order
     * @param scratch where the key is encoded (reset first): a caller hashing row after row
     *     reuses one, so this allocates nothing
     */
    public static int of(List<DataType> types, Object[] row, int[] columns, ByteWriter scratch) {
        scratch.reset();
        KeyCodec.encode(scratch, types, row, columns);
        return VirtualNodes.of(scratch.array(), 0, scratch.length());
    }
}
