package io.tributary.stream;

import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import java.util.Arrays;
import java.util.List;

/**
 * How an upstream relation stores its rows: its column types (the {@link RowCodec} its values are
 * encoded with) and its key columns (its stored keys are {@code TableKeys}' layout: table id, the
 * vnode of the key bytes, then those columns memcomparable in default order). A chunk of rows read
 * from the relation's snapshot carries their stored bytes with this layout
 * ({@link Chunk#ofStored}), so an operator whose own rows are stored the same way (a view over
 * {@code SELECT *}) can copy them instead of decoding and re-encoding every value. Immutable.
 */
public final class StoredLayout {
    private final int[] keyColumns;
    private final List<DataType> types;
    private final RowCodec codec;
    /** The columns {@link #decode} makes values of; null: all. */
    private final boolean[] read;

    public StoredLayout(int[] keyColumns, List<DataType> types) {
        this(keyColumns, types, null);
    }

    /**
     * @param read per column, whether the rows' readers look at it ({@code plan.ColumnsRead}); the
     *     others are decoded as null. Null: all columns. Storage is the same either way.
     */
    public StoredLayout(int[] keyColumns, List<DataType> types, boolean[] read) {
        this.keyColumns = keyColumns.clone();
        this.types = List.copyOf(types);
        this.codec = new RowCodec(this.types);
        this.read = read == null || allTrue(read) ? null : read.clone();
        if (read != null && read.length != types.size()) {
            throw new IllegalArgumentException("read marks " + read.length + " columns of " + types.size());
        }
    }

    private static boolean allTrue(boolean[] read) {
        for (boolean r : read) {
            if (!r) {
                return false;
            }
        }
        return true;
    }

    /** Whether rows keyed by {@code keyColumns} and holding values of {@code types} are stored exactly so. */
    public boolean matches(int[] keyColumns, List<DataType> types) {
        return Arrays.equals(this.keyColumns, keyColumns) && this.types.equals(types);
    }

    /** Whether the stored values are rows of exactly {@code types}, encoded as a {@link RowCodec} of them encodes. */
    public boolean hasTypes(List<DataType> types) {
        return this.types.equals(types);
    }

    /** The row of stored value {@code value}, with the columns not read left null. */
    Object[] decode(byte[] value) {
        return read == null ? codec.decode(value) : codec.decode(value, read);
    }
}
