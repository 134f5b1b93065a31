package io.tributary.stream.operators;

import io.tributary.common.codec.ByteHash;
import java.util.Arrays;

/**
 * The rows of one join side that share one join key, each with its degree, found by the
 * encoding of its stream key (unique among the rows present, so a delete finds its row). A copy
 * of part of a {@link JoinSide}'s state table, kept coherent by that side. One actor thread.
 *
 * <p>Layout. Rows sit in insertion order in flat parallel arrays (values, degrees, stream-key
 * bytes and their hashes), addressed by position: a probe walks {@link #values(int)} for {@code
 * 0 <= i < }{@link #limit()} and reaches a row's values in two loads from the bucket, where a
 * {@code LinkedHashMap} of {@code Row} objects took four dependent ones (JFR of {@code bench
 * backfill}'s join: the map's {@code values()} alone was a third of the join actor's samples, cache
 * misses on the way to a dimension row). A removed row leaves a hole (null values) so positions
 * and order stay put; holes are squeezed out once they outnumber the rows. Up to {@link
 * #SCAN_ROWS} positions a stream key is found by comparing hashes in order; past that through an
 * open-addressing table of positions, rebuilt when the arrays grow or are squeezed. Adding a row
 * copies nothing but the stream key bytes it is given.
 */
final class JoinBucket {
    /** Positions searched by a plain scan before the bucket keeps a table of positions. */
    static final int SCAN_ROWS = 8;

    /**
     * No rows: what a held side answers for a join key it holds no bucket of. Never added to, as
     * only cached buckets are.
     */
    static final JoinBucket EMPTY = new JoinBucket();

    private Object[][] values = new Object[1][];
    private long[] degrees = new long[1];
    private byte[][] keys = new byte[1][];
    private int[] hashes = new int[1];
    /** Positions handed out so far, holes included. */
    private int limit;
    /** Rows present. */
    private int size;
    /** With more than {@link #SCAN_ROWS} positions: position plus one per slot (0: empty); else null. */
    private int[] table;

    /**
     * Adds a row whose stream key is encoded in {@code key[0, keyLength)}, the bytes copied; a row
     * of an equal stream key is replaced in place (the table's put overwrites it too).
     *
     * @return how many rows the bucket gained (1, or 0 when the stream key was present)
     */
    int add(byte[] key, int keyLength, Object[] row, long degree) {
        int hash = ByteHash.of(key, 0, keyLength);
        int at = find(key, keyLength, hash);
        if (at >= 0) {
            values[at] = row;
            degrees[at] = degree;
            return 0;
        }
        if (limit == values.length) {
            grow();
        }
        at = limit++;
        values[at] = row;
        degrees[at] = degree;
        keys[at] = Arrays.copyOf(key, keyLength);
        hashes[at] = hash;
        size++;
        if (table != null) {
            index(at);
        } else if (limit > SCAN_ROWS) {
            rebuildTable();
        }
        return 1;
    }

    /**
     * Removes the row whose stream key is encoded in {@code key[0, keyLength)}.
     *
     * @return how many rows the bucket lost (1, or 0 when the stream key was absent)
     */
    int remove(byte[] key, int keyLength) {
        int at = find(key, keyLength, ByteHash.of(key, 0, keyLength));
        if (at < 0) {
            return 0;
        }
        values[at] = null;
        keys[at] = null;
        size--;
        if (size == 0) {
            limit = 0;
            table = null;
        } else if (limit - size > size && limit > SCAN_ROWS) {
            squeeze();
        }
        return 1;
    }

    int size() {
        return size;
    }

    /** One past the last position in use; positions below it whose {@link #values} is null are holes. */
    int limit() {
        return limit;
    }

    /**
     * The row at {@code position}, or null for a hole. Callers iterate positions below {@link
     * #limit} and must not add or remove meanwhile.
     */
    Object[] values(int position) {
        return values[position];
    }

    /**
     * The row's number of current matches on the other side; kept only for a padded side (it
     * decides when the NULL-padded row must come and go), 0 otherwise.
     */
    long degree(int position) {
        return degrees[position];
    }

    void setDegree(int position, long degree) {
        degrees[position] = degree;
    }

    private int find(byte[] key, int keyLength, int hash) {
        if (table == null) {
            for (int i = 0; i < limit; i++) {
                if (hashes[i] == hash && keys[i] != null && equal(keys[i], key, keyLength)) {
                    return i;
                }
            }
            return -1;
        }
        int mask = table.length - 1;
        for (int s = hash & mask; ; s = (s + 1) & mask) {
            int entry = table[s];
            if (entry == 0) {
                return -1;
            }
            int at = entry - 1;
            if (hashes[at] == hash && keys[at] != null && equal(keys[at], key, keyLength)) {
                return at;
            }
        }
    }

    private static boolean equal(byte[] held, byte[] key, int keyLength) {
        return held.length == keyLength && Arrays.equals(held, 0, keyLength, key, 0, keyLength);
    }

    private void grow() {
        int capacity = values.length * 2;
        values = Arrays.copyOf(values, capacity);
        degrees = Arrays.copyOf(degrees, capacity);
        keys = Arrays.copyOf(keys, capacity);
        hashes = Arrays.copyOf(hashes, capacity);
        if (table != null) {
            rebuildTable();
        }
    }

    /** Moves the rows down over the holes, keeping their order, and re-indexes them. */
    private void squeeze() {
        int to = 0;
        for (int from = 0; from < limit; from++) {
            if (values[from] != null) {
                values[to] = values[from];
                degrees[to] = degrees[from];
                keys[to] = keys[from];
                hashes[to] = hashes[from];
                to++;
            }
        }
        Arrays.fill(values, to, limit, null);
        Arrays.fill(keys, to, limit, null);
        limit = to;
        table = null;
        if (limit > SCAN_ROWS) {
            rebuildTable();
        }
    }

    /** A table of at most 1/4 load over the capacity, so holes (indexed until squeezed) never fill it. */
    private void rebuildTable() {
        table = new int[Integer.highestOneBit(values.length) * 4];
        for (int i = 0; i < limit; i++) {
            if (values[i] != null) {
                index(i);
            }
        }
    }

    private void index(int position) {
        int mask = table.length - 1;
        int s = hashes[position] & mask;
        while (table[s] != 0) {
            s = (s + 1) & mask;
        }
        table[s] = position + 1;
    }
}
