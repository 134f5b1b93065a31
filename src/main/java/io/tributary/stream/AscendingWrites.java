package io.tributary.stream;

import io.tributary.storage.TableKeys;
import java.util.Arrays;
import java.util.Map;

/**
 * A state table's writes of one epoch while their keys arrive in strictly ascending unsigned
 * order, either of the whole key or of the key after its table id and vnode: kept as parallel
 * arrays in arrival order, so they are neither hashed nor sorted. Either order makes every key
 * distinct (the vnode is a function of the key columns after it, the table id is the table's), so
 * the arrays hold at most one write per key as a hash map would. A view's snapshot backfill writes
 * its rows in whole-key order (a vnode's rows in key order, vnode after vnode); a live view of a
 * table without a primary key (Nexmark's q0) gets rows in row-id order, whose vnodes are spread.
 *
 * <p>A table whose writes per epoch are bounded by the rows its operator takes in (a join side
 * without degrees) may also {@link #appendUnordered} keys in any order, repeats included: then a
 * key may be held more than once and its last write is the one that counts, which {@link
 * #moveInto} (a map keeps the last put) and every consumer of {@link #handOver} (an epoch's write
 * buffer applies writes in order, a checkpoint's sort keeps the last of equal keys) honour.
 * Owned by one {@link StateTable}, on its actor's thread.
 */
final class AscendingWrites {
    private byte[][] keys = new byte[16][];
    private byte[][] values = new byte[16][];
    /** Per key, where its distribution key ends (see {@link StateTable.StoreKey}). */
    private int[] distEnds = new int[16];

    private int size;
    /** Whether every key held sorts after the one before it, as a whole key. */
    private boolean wholeKeyOrder = true;
    /** Whether every key held sorts after the one before it after the table id and vnode. */
    private boolean afterVnodeOrder = true;

    int size() {
        return size;
    }

    /**
     * Appends the write when {@code key} (a store key of the owning table) sorts after the last
     * one held in an order every key held so far follows: the whole key's, or that of the bytes
     * after its table id and vnode.
     *
     * @return false, holding nothing new, when it does not: the caller then moves to a hash map
     */
    boolean append(byte[] key, int distEnd, byte[] value) {
        if (size > 0) {
            byte[] last = keys[size - 1];
            boolean whole = wholeKeyOrder && Arrays.compareUnsigned(last, key) < 0;
            boolean afterVnode = afterVnodeOrder
                    && Arrays.compareUnsigned(
                                    last,
                                    TableKeys.PREFIX_LENGTH,
                                    last.length,
                                    key,
                                    TableKeys.PREFIX_LENGTH,
                                    key.length)
                            < 0;
            if (!whole && !afterVnode) {
                return false;
            }
            wholeKeyOrder = whole;
            afterVnodeOrder = afterVnode;
        }
        add(key, distEnd, value);
        return true;
    }

    /**
     * Appends the write whatever its key's order: from now on the writes are held in arrival order
     * only, and a repeated key's last write counts (see the class comment).
     */
    void appendUnordered(byte[] key, int distEnd, byte[] value) {
        wholeKeyOrder = false;
        afterVnodeOrder = false;
        add(key, distEnd, value);
    }

    private void add(byte[] key, int distEnd, byte[] value) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            values = Arrays.copyOf(values, size * 2);
            distEnds = Arrays.copyOf(distEnds, size * 2);
        }
        keys[size] = key;
        values[size] = value;
        distEnds[size] = distEnd;
        size++;
    }

    /** Puts every write held into {@code map}, in arrival order (a repeated key's last write wins); this then holds nothing. */
    void moveInto(Map<StateTable.StoreKey, byte[]> map) {
        for (int i = 0; i < size; i++) {
            map.put(new StateTable.StoreKey(keys[i], distEnds[i]), values[i]);
        }
        clear();
    }

    /**
     * Hands the writes to {@code writes} in arrival order (key order only when the whole keys
     * ascended; a key held more than once after {@link #appendUnordered}, its last write last); a
     * value identical to {@code tombstone} is a delete.
     */
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
        wholeKeyOrder = true;
        afterVnodeOrder = true;
    }
}
