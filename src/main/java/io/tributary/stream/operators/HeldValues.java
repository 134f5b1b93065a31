package io.tributary.stream.operators;

import java.util.Arrays;

/**
 * Every value one MIN/MAX call has in one held group, with its multiplicity: a complete copy of
 * the group's part of the call's {@link ValueTable} as it will be after the next barrier. With it
 * the group's extreme is read from memory and the table is only written, with counts known here:
 * no batched read of the stored counts per changed value and no scan of the group for a new
 * extreme when the current one goes. In {@code bench stream}'s three-view round (the GROUP BY
 * view's MAX over amount, which UPDATEs and DELETEs take away) the lost-extreme scans had 40 and the
 * uncounted path ({@link ValueTable#addUncounted}, its batched count) 42 of the aggregating
 * actor's 194 samples (JFR).
 *
 * <p>Values are told apart by their memcomparable encoding (SQL equality) and kept sorted by it,
 * each with its representation as first seen while present, as the table keeps it. Entries whose
 * count fell to zero stay until {@link #writeTo}, which writes their deletes. Small by design:
 * {@link HashAggOperator} drops the copy of a group that holds more values than it allows.
 * Actor thread only.
 */
final class HeldValues {
    private byte[][] keys = new byte[4][];
    /**
     * Per entry its key's first 8 bytes ({@link #head}), so a search decides most comparisons in
     * this array and loads a key's bytes only on a tie: each key is an array of its own, and
     * loading one per step had been most of the search's samples (JFR, cache misses).
     */
    private long[] heads = new long[4];

    private Object[] values = new Object[4];
    private long[] counts = new long[4];
    /** Per entry, whether its count changed since the last {@link #writeTo}. */
    private boolean[] changed = new boolean[4];

    private int size;

    /**
     * Adds ({@code sign} above zero) or removes (below zero) {@code |sign|} occurrences of the value
     * encoded as {@code key[0, len)}, whose representation is {@code value}.
     *
     * @return 1 when this makes the value's entry one more to write at {@link #writeTo}, else 0
     * @throws IllegalStateException when removing a value the group does not hold
     */
    int change(byte[] key, int len, Object value, long sign) {
        long head = head(key, len);
        int i = search(head, key, len);
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
        insertAt(-i - 1, head, Arrays.copyOf(key, len), value, sign);
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
                heads[kept] = heads[i];
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

    /**
     * The first 8 bytes of {@code key[0, len)} as an unsigned big-endian word, zero-padded: two
     * keys' heads compare as the keys do, or tie when the keys agree on those bytes (padding
     * included, so a key and its extension by zero bytes tie too).
     */
    static long head(byte[] key, int len) {
        long h = 0;
        for (int i = 0; i < 8; i++) {
            h = h << 8 | (i < len ? key[i] & 0xff : 0);
        }
        return h;
    }

    /** The index of the key whose {@link #head} is {@code head}, or {@code -(insertion point) - 1}. */
    private int search(long head, byte[] key, int len) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(heads[mid], head);
            if (c == 0) {
                byte[] k = keys[mid];
                c = Arrays.compareUnsigned(k, 0, k.length, key, 0, len);
            }
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

    private void insertAt(int at, long head, byte[] key, Object value, long count) {
        if (size == keys.length) {
            int n = size * 2;
            keys = Arrays.copyOf(keys, n);
            heads = Arrays.copyOf(heads, n);
            values = Arrays.copyOf(values, n);
            counts = Arrays.copyOf(counts, n);
            changed = Arrays.copyOf(changed, n);
        }
        int tail = size - at;
        System.arraycopy(keys, at, keys, at + 1, tail);
        System.arraycopy(heads, at, heads, at + 1, tail);
        System.arraycopy(values, at, values, at + 1, tail);
        System.arraycopy(counts, at, counts, at + 1, tail);
        System.arraycopy(changed, at, changed, at + 1, tail);
        keys[at] = key;
        heads[at] = head;
        values[at] = value;
        counts[at] = count;
        changed[at] = true;
        size++;
    }

    private static IllegalStateException removedAbsent() {
        return new IllegalStateException("a value was removed from an aggregation group that never held it");
    }
}
