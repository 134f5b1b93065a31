package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import java.util.Arrays;

/**
 * MIN / MAX: the current extreme, in SQL order (the memcomparable order of {@link KeyCodec}), of
 * the distinct values present in the group. It is fed every occurrence added to or removed from
 * the group, without knowing the multiplicities (see {@link ValueTable#addUncounted}): a removal
 * of a value equal to the extreme makes it {@link #lost()}, even when other occurrences remain,
 * and the operator {@link #replace replaces} it at the barrier from the call's value table, which
 * holds every value still present. While lost, the extreme it holds is not the group's.
 */
final class ExtremeAccumulator implements Accumulator {
    private final DataType type;
    private final boolean min;
    /**
     * Where values are encoded to compare them with the extreme; shared by every accumulator of
     * one call (one actor thread), so an add allocates only when the value becomes the extreme.
     */
    private final ByteWriter scratch;

    private Object extreme;
    /** The memcomparable encoding of {@link #extreme}, or null while there is none. */
    private byte[] extremeKey;

    private boolean lost;

    ExtremeAccumulator(DataType type, boolean min, Object extreme, ByteWriter scratch) {
        this.type = type;
        this.min = min;
        this.scratch = scratch;
        set(extreme);
    }

    @Override
    public void add(Object value, int sign) {
        encodeInScratch(value);
        if (sign > 0) {
            if (extremeKey == null || (min ? compareScratch() < 0 : compareScratch() > 0)) {
                extreme = value;
                extremeKey = scratch.toByteArray();
            }
        } else if (extremeKey != null && compareScratch() == 0) {
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
        if (value == null) {
            extremeKey = null;
        } else {
            encodeInScratch(value);
            extremeKey = scratch.toByteArray();
        }
    }

    /** The value last {@link #encodeInScratch encoded} compared with the extreme, in SQL order. */
    private int compareScratch() {
        return Arrays.compareUnsigned(scratch.array(), 0, scratch.length(), extremeKey, 0, extremeKey.length);
    }

    private void encodeInScratch(Object value) {
        scratch.reset();
        KeyCodec.encodeValue(scratch, type, value);
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
