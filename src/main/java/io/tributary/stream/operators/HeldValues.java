package io.tributary.stream.operators;

import java.util.Arrays;

/**
 * Every value one MIN/MAX call has in one held group, with its multiplicity: a complete copy of
 * the group's part of the call's {@link ValueTable} as it will be after the next barrier. With it
 * the group's extreme is read from memory and the table is only written, with counts known here:
 * no batched read of the stored counts per changed value and no scan of the group for a new
 * extreme when the current one goes. In {@code bench stream}'s GROUP BY view (MAX over amount,
 * which UPDATEs and DELETEs take away) those reads and scans were about a third of the
 * aggregating actor's samples (JFR).
 *
 * <p>Values are told apart by their memcomparable encoding (SQL equality) and kept sorted by it,
 * each with its representation as first seen while present, as the table keeps it. Entries whose
 * count fell to zero stay until {@link #writeTo}, which writes their deletes. Small by design:
 * {@link HashAggOperator} drops the copy of a group that holds more values than it allows.
 * Actor thread only.
 */
final class HeldValues {
    private byte[][] keys = new byte[4][];
    private Object[] values = new Object[4];
    private long[] counts = new long[4];
    /** Per entry, whether its count changed since the last {@link #writeTo}. */
    private boolean[] changed = new boolean[4];

    private int size;

    /**
     * Adds ({@code sign} +1) or removes (-1) one occurrence of the value encoded as {@code key[0,
     * len)}, whose representation is {@code value}.
     *
     * @return 1 when this makes the value's entry one more to write at {@link #writeTo}, else 0
     * @throws IllegalStateException when removing a value the group does not hold
     */
    int change(byte[] key, int len, Object value, int sign) {
        int i = search(key, len);
        if (i >= 0) {
            if (counts[i] == 0) {
                if (sign < 0) {
                    throw removedAbsent();
                }
                values[i] = value;
            }
            counts[i] += sign;
            if (changed[i]) {
                return 0;
            }
            changed[i] = true;
            return 1;
        }
        if (sign < 0) {
            throw removedAbsent();
        }
        insertAt(-i - 1, Arrays.copyOf(key, len), value);
        return 1;
    }

    /**
     * The index of the greatest value present ({@code max}) or the least, or -1 when none is; valid
     * until the next change.
     */
    int extreme(boolean max) {
        if (max) {
            for (int i = size - 1; i >= 0; i--) {
                if (counts[i] > 0) {
                    return i;
                }
            }
        } else {
            for (int i = 0; i < size; i++) {
                if (counts[i] > 0) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** The representation of entry {@code i}. */
    Object value(int i) {
        return values[i];
    }

    /** The encoding of entry {@code i}'s value ({@link io.tributary.common.codec.KeyCodec#encodeValue}). */
    byte[] key(int i) {
        return keys[i];
    }

    /**
     * Writes every entry changed since the last call to the group's part of {@code table} (its
     * count, or its delete when none is left) and forgets the entries without occurrences.
     *
     * @return the change in {@link #size()} (zero or negative)
     */
    int writeTo(ValueTable table, Object[] groupKey) {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (changed[i]) {
                table.store(groupKey, values[i], counts[i]);
                changed[i] = false;
            }
            if (counts[i] > 0) {
                keys[kept] = keys[i];
                values[kept] = values[i];
                counts[kept] = counts[i];
                kept++;
            }
        }
        int removed = size - kept;
        Arrays.fill(keys, kept, size, null);
        Arrays.fill(values, kept, size, null);
        size = kept;
        return -removed;
    }

    /** The entries held, counting those without occurrences until the next {@link #writeTo}. */
    int size() {
        return size;
    }

    /** The index of the key, or {@code -(insertion point) - 1}. */
    private int search(byte[] key, int len) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            byte[] k = keys[mid];
            int c = Arrays.compareUnsigned(k, 0, k.length, key, 0, len);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -lo - 1;
    }

    private void insertAt(int at, byte[] key, Object value) {
        if (size == keys.length) {
            int n = size * 2;
            keys = Arrays.copyOf(keys, n);
            values = Arrays.copyOf(values, n);
            counts = Arrays.copyOf(counts, n);
            changed = Arrays.copyOf(changed, n);
        }
        int tail = size - at;
        System.arraycopy(keys, at, keys, at + 1, tail);
        System.arraycopy(values, at, values, at + 1, tail);
        System.arraycopy(counts, at, counts, at + 1, tail);
        System.arraycopy(changed, at, changed, at + 1, tail);
        keys[at] = key;
        values[at] = value;
        counts[at] = 1;
        changed[at] = true;
        size++;
    }

    private static IllegalStateException removedAbsent() {
        return new IllegalStateException("a value was removed from an aggregation group that never held it");
    }
}
