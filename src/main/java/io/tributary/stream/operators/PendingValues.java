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

    /** Per entry its key's bytes when it is longer than {@link ByteKeyMap#INLINE_BYTES}, else null. */
    private final byte[][] keys = new byte[CAPACITY][];
    /**
     * Per entry its key's {@link #fingerprint}, so a search compares words in one array and loads
     * a held key's bytes only when the words match. A NUMERIC amount encodes longer than a word;
     * when only shorter keys were packed, comparing each held key's bytes had been 14-17% of
     * {@code bench backfill}'s GROUP BY actors' samples (JFR), mostly cache misses on those arrays.
     */
    private final long[] fingerprints = new long[CAPACITY];

    private final Object[] values = new Object[CAPACITY];
    private final long[] counts = new long[CAPACITY];
    private int size;

    /**
     * A word standing for the key {@code buf[0, len)}: a key of at most {@link
     * ByteKeyMap#INLINE_BYTES} bytes {@linkplain ByteKeyMap#packed packed} (its top byte, the
     * length, at most 7), which only that key has; a longer one its length (capped at 255) in the
     * top byte over 56 bits of an FNV-1a hash of its bytes, which other keys may share. A plain
     * byte loop: a few keys of about ten bytes need no more mixing to tell them apart, and it
     * costs little even before the JIT compiles it (a VarHandle-based hash did, in JFR).
     */
    static long fingerprint(byte[] buf, int len) {
        if (len <= ByteKeyMap.INLINE_BYTES) {
            return ByteKeyMap.packed(buf, len);
        }
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < len; i++) {
            h = (h ^ (buf[i] & 0xff)) * 0x100000001b3L;
        }
        return (long) Math.min(len, 255) << 56 | (h & 0x00ffffffffffffffL);
    }

    /** The index of the value encoded as {@code buf[0, len)}, or -1. */
    int find(byte[] buf, int len) {
        long f = fingerprint(buf, len);
        for (int i = 0; i < size; i++) {
            if (fingerprints[i] == f
                    && (len <= ByteKeyMap.INLINE_BYTES || Arrays.equals(keys[i], 0, keys[i].length, buf, 0, len))) {
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
    int add(byte[] buf, int len, Object value, long sign) {
        int i = size++;
        keys[i] = len <= ByteKeyMap.INLINE_BYTES ? null : Arrays.copyOf(buf, len);
        fingerprints[i] = fingerprint(buf, len);
        values[i] = value;
        counts[i] = sign;
        return i;
    }

    /**
     * Counts {@code sign} more occurrences of entry {@code i}, whose count is zero or of the same
     * sign; a value whose count was zero takes {@code value} as its representation, as a value new
     * to the epoch does.
     */
    void count(int i, Object value, long sign) {
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
