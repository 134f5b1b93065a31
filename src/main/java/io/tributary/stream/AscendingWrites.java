package io.tributary.stream;

import java.util.Arrays;
import java.util.Map;

/**
 * A state table's writes of one epoch while their keys arrive in strictly ascending unsigned
 * order: kept as parallel arrays in arrival order, which is key order, so they are neither hashed
 * nor sorted. A view's snapshot backfill writes its rows this way (a vnode's rows in key order,
 * vnode after vnode). Owned by one {@link StateTable}, on its actor's thread.
 */
final class AscendingWrites {
    private byte[][] keys = new byte[16][];
    private byte[][] values = new byte[16][];
    /** Per key, where its distribution key ends (see {@link StateTable.StoreKey}). */
    private int[] distEnds = new int[16];

    private int size;

    int size() {
        return size;
    }

    /**
     * Appends the write when {@code key} sorts after every key held.
     *
     * @return false, holding nothing new, when it does not: the caller then moves to a hash map
     */
    boolean append(byte[] key, int distEnd, byte[] value) {
        if (size > 0 && Arrays.compareUnsigned(keys[size - 1], key) >= 0) {
            return false;
        }
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            values = Arrays.copyOf(values, size * 2);
            distEnds = Arrays.copyOf(distEnds, size * 2);
        }
        keys[size] = key;
        values[size] = value;
        distEnds[size] = distEnd;
        size++;
        return true;
    }

    /** Puts every write held into {@code map}; this then holds nothing. */
    void moveInto(Map<StateTable.StoreKey, byte[]> map) {
        for (int i = 0; i < size; i++) {
            map.put(new StateTable.StoreKey(keys[i], distEnds[i]), values[i]);
        }
        clear();
    }

    /** Hands the writes to {@code writes} in key order; a value identical to {@code tombstone} is a delete. */
    void handOver(StateWrites writes, byte[] tombstone) {
        for (int i = 0; i < size; i++) {
            if (values[i] == tombstone) {
                writes.delete(keys[i]);
            } else {
                writes.put(keys[i], values[i]);
            }
        }
    }

    /** Forgets every write (the arrays are kept for the next epoch). */
    void clear() {
        Arrays.fill(keys, 0, size, null);
        Arrays.fill(values, 0, size, null);
        size = 0;
    }
}
