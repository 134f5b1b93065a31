package io.tributary.stream.operators;

import java.util.Arrays;

/**
 * The occurrences of MIN/MAX argument values one group took in since the last barrier, summed per
 * distinct value (told apart by their memcomparable encoding, i.e. SQL equality), each with its
 * representation as first seen. {@link HashAggOperator} keeps one per group and call, beside the
 * group it has already found for the row, and hands the sums to the call's {@link ValueTable} at
 * the barrier: one {@link ValueTable#addUncounted} per distinct value and epoch instead of one per
 * row, each of which encoded the (group, value) key again and probed a map of every pair the
 * epoch saw (JFR of {@code bench backfill}'s GROUP BY: about a third of the job threads' samples,
 * mostly cache misses on that map's keys).
 *
 * <p>Small by design: at most {@link #CAPACITY} values, searched linearly; the operator sends the
 * values of a group that has more straight to the value table. Entries whose count went back to
 * zero keep their encoded key (and their last representation, replaced by the next one counted),
 * so a group that sees the same few values every epoch allocates nothing; a count of zero is never
 * handed over. Memory: at most {@link #CAPACITY} keys per held group and call. Actor thread only.
 */
final class PendingValues {
    /** The most distinct values held; a linear search over more would cost more than the table's map. */
    static final int CAPACITY = 8;

    private final byte[][] keys = new byte[CAPACITY][];
    /**
     * Per entry its key {@linkplain ByteKeyMap#packed packed} into a word (-1 for a longer one), so
     * a search of short values (a NUMERIC amount, an INTEGER) compares words in one array instead
     * of loading every held key's bytes: that load was 7% of {@code bench backfill}'s GROUP BY
     * actors' samples in JFR.
     */
    private final long[] packed = new long[CAPACITY];

    private final Object[] values = new Object[CAPACITY];
    private final long[] counts = new long[CAPACITY];
    private int size;

    /** The index of the value encoded as {@code buf[0, len)}, or -1. */
    int find(byte[] buf, int len) {
        if (len <= ByteKeyMap.INLINE_BYTES) {
            long p = ByteKeyMap.packed(buf, len);
            for (int i = 0; i < size; i++) {
                if (packed[i] == p) {
                    return i;
                }
            }
            return -1;
        }
        for (int i = 0; i < size; i++) {
            byte[] k = keys[i];
            if (Arrays.equals(k, 0, k.length, buf, 0, len)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether a value not held can still be {@link #add added}. */
    boolean hasRoom() {
        return size < CAPACITY;
    }

    /**
     * Adds {@code sign} occurrences of a value not held (callers {@link #find} first), encoded as
     * {@code buf[0, len)}; needs {@link #hasRoom}.
     *
     * @return its index
     */
    int add(byte[] buf, int len, Object value, int sign) {
        int i = size++;
        keys[i] = Arrays.copyOf(buf, len);
        packed[i] = ByteKeyMap.packed(buf, len);
        values[i] = value;
        counts[i] = sign;
        return i;
    }

    /**
     * Counts {@code sign} more occurrences of entry {@code i}, whose count is zero or of the same
     * sign; a value whose count was zero takes {@code value} as its representation, as a value new
     * to the epoch does.
     */
    void count(int i, Object value, int sign) {
        if (counts[i] == 0) {
            values[i] = value;
        }
        counts[i] += sign;
    }

    /** The net occurrences (added minus removed) of entry {@code i} since the last hand-over. */
    long countAt(int i) {
        return counts[i];
    }

    Object valueAt(int i) {
        return values[i];
    }

    /** Sets entry {@code i}'s count to zero (its occurrences were handed over). */
    void clearCount(int i) {
        counts[i] = 0;
    }

    /** The number of entries, counted or not; indexes below it are valid. */
    int size() {
        return size;
    }
}
