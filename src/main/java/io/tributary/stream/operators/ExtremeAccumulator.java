package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import java.util.Arrays;

/**
 * MIN / MAX: the current extreme, in SQL order (the memcomparable order of {@link KeyCodec}), of
 * the distinct values present in the group. It is fed only when a value appears in or vanishes
 * from the group (see {@link ValueTable#change}). When the extreme itself vanishes it is
 * {@link #lost()} and the operator {@link #replace replaces} it from the call's value table,
 * which holds every value still present.
 */
final class ExtremeAccumulator implements Accumulator {
    private final DataType type;
    private final boolean min;
    private Object extreme;
    /** The memcomparable encoding of {@link #extreme}, or null while there is none. */
    private byte[] extremeKey;

    private boolean lost;

    ExtremeAccumulator(DataType type, boolean min, Object extreme) {
        this.type = type;
        this.min = min;
        set(extreme);
    }

    @Override
    public void add(Object value, int sign) {
        byte[] key = encode(value);
        if (sign > 0) {
            if (extremeKey == null || (min ? compare(key) < 0 : compare(key) > 0)) {
                extreme = value;
                extremeKey = key;
            }
        } else if (extremeKey != null && compare(key) == 0) {
            set(null);
            lost = true;
        }
    }

    /** Whether the extreme was removed and must be {@link #replace replaced} before the next read. */
    boolean lost() {
        return lost;
    }

    /** Takes {@code next} (the new extreme of the values present, or null when none is) as the extreme. */
    void replace(Object next) {
        set(next);
        lost = false;
    }

    private void set(Object value) {
        extreme = value;
        extremeKey = value == null ? null : encode(value);
    }

    private int compare(byte[] key) {
        return Arrays.compareUnsigned(key, extremeKey);
    }

    private byte[] encode(Object value) {
        ByteWriter w = new ByteWriter(16);
        KeyCodec.encodeValue(w, type, value);
        return w.toByteArray();
    }

    @Override
    public Object result() {
        return extreme;
    }

    @Override
    public void save(Object[] row, int at) {
        row[at] = extreme;
    }
}
