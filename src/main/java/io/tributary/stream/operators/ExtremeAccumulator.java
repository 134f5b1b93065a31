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
     * one call (one actor thread).
     */
    private final ByteWriter scratch;

    private Object extreme;
    /**
     * The memcomparable encoding of {@link #extreme} in {@code [0, extremeLength)}, or null until
     * the first extreme. Overwritten in place by a new extreme that fits, so a group whose maximum
     * rises row after row (a backfill's) allocates only when an encoding grows.
     */
    private byte[] extremeKey;

    /** The length of {@link #extremeKey}'s encoding, or -1 while there is no extreme. */
    private int extremeLength = -1;

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
        add(value, sign, scratch.array(), scratch.length());
    }

    /**
     * As {@link #add(Object, int)}, for a caller that already encoded {@code value} with {@link
     * KeyCodec#encodeValue} as {@code key[0, len)}; the bytes are copied when the value becomes the
     * extreme, so the caller may reuse its buffer.
     */
    void add(Object value, int sign, byte[] key, int len) {
        if (sign > 0) {
            if (extremeLength < 0 || (min ? compare(key, len) < 0 : compare(key, len) > 0)) {
                extreme = value;
                keep(key, len);
            }
        } else if (extremeLength >= 0 && compare(key, len) == 0) {
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

    /**
     * As {@link #replace(Object)}, for a caller holding {@code next}'s {@link KeyCodec#encodeValue
     * encoding} as {@code key[0, len)} (copied): no encoding again ({@link HeldValues}).
     */
    void replace(Object next, byte[] key, int len) {
        extreme = next;
        keep(key, len);
        lost = false;
    }

    private void set(Object value) {
        extreme = value;
        if (value == null) {
            extremeLength = -1;
        } else {
            encodeInScratch(value);
            keep(scratch.array(), scratch.length());
        }
    }

    /** Takes {@code key[0, len)} as the extreme's encoding. */
    private void keep(byte[] key, int len) {
        if (extremeKey == null || extremeKey.length < len) {
            extremeKey = Arrays.copyOf(key, len);
        } else {
            System.arraycopy(key, 0, extremeKey, 0, len);
        }
        extremeLength = len;
    }

    /** The value encoded as {@code key[0, len)} compared with the extreme, in SQL order. */
    private int compare(byte[] key, int len) {
        return Arrays.compareUnsigned(key, 0, len, extremeKey, 0, extremeLength);
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
