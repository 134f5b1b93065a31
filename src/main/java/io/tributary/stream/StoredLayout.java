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

    public StoredLayout(int[] keyColumns, List<DataType> types) {
        this.keyColumns = keyColumns.clone();
        this.types = List.copyOf(types);
        this.codec = new RowCodec(this.types);
    }

    /** Whether rows keyed by {@code keyColumns} and holding values of {@code types} are stored exactly so. */
    public boolean matches(int[] keyColumns, List<DataType> types) {
        return Arrays.equals(this.keyColumns, keyColumns) && this.types.equals(types);
    }

    /** Whether the stored values are rows of exactly {@code types}, encoded as a {@link RowCodec} of them encodes. */
    public boolean hasTypes(List<DataType> types) {
        return this.types.equals(types);
    }

    RowCodec codec() {
        return codec;
    }
}
