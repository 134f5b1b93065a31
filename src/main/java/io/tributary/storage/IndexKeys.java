package io.tributary.storage;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import java.util.List;

/**
 * The key layout of secondary index entries: {@code [index id: 4 bytes][memcomparable indexed
 * values][memcomparable pk of the row]}, in the data keyspace, so an index's entries are
 * contiguous under its id (which no table uses) and sort by the indexed values. A unique index
 * leaves the pk out of the key when no indexed value is NULL, so the key is the values alone and
 * one point read tells whether another row holds them; the entry's value is then the row's pk.
 * Every other entry's value is empty. There is no vnode: an index is never scanned by vnode.
 * Stateless and thread-safe.
 */
public final class IndexKeys {
    /** The value of an entry whose key ends with the row's pk. */
    public static final byte[] NO_VALUE = new byte[0];

    private IndexKeys() {}

    /**
     * The entry key of {@code row} (full width, canonical values) in index {@code indexId}.
     *
     * @param types the indexed columns' types, in key order
     * @param columns the indexed columns' positions in {@code row}
     * @param unique whether the index is unique
     * @param rowKey the row's storage key ({@link TableKeys} layout)
     * @param scratch reused for the encoding
     */
    public static byte[] key(
            int indexId,
            List<DataType> types,
            Object[] row,
            int[] columns,
            boolean unique,
            byte[] rowKey,
            ByteWriter scratch) {
        scratch.reset();
        scratch.putInt(indexId);
        KeyCodec.encode(scratch, types, row, columns);
        if (!unique || hasNull(row, columns)) {
            scratch.putBytes(java.util.Arrays.copyOfRange(rowKey, TableKeys.PREFIX_LENGTH, rowKey.length));
        }
        return scratch.toByteArray();
    }

    /** The entry value for {@code row}'s key: the row's pk for a key of values alone, else {@link #NO_VALUE}. */
    public static byte[] value(Object[] row, int[] columns, boolean unique, byte[] rowKey) {
        return unique && !hasNull(row, columns)
                ? java.util.Arrays.copyOfRange(rowKey, TableKeys.PREFIX_LENGTH, rowKey.length)
                : NO_VALUE;
    }

    /** Whether one of the indexed values is NULL: such a row never conflicts in a unique index. */
    public static boolean hasNull(Object[] row, int[] columns) {
        for (int c : columns) {
            if (row[c] == null) {
                return true;
            }
        }
        return false;
    }
}
