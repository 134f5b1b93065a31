package io.tributary.stream.operators;

import io.tributary.common.codec.ByteHash;
import java.util.Arrays;

/**
 * A hash map from byte-string keys (memcomparable encodings) to values, looked up straight from a
 * reused encoding buffer: {@link #find} takes the buffer and a length, so a hit allocates nothing.
 * That is what the operators' per-row paths need and what general-purpose maps (the JDK's, or
 * fastutil's with a byte-array strategy) cannot give: they want a key object, i.e. a fresh array
 * per probe. Only {@link #put} of a new key copies its bytes.
 *
 * <p>Layout: open addressing with linear probing over an {@code int} slot array holding entry ids
 * (plus one; 0 is empty) and a parallel array of the keys' hashes, so a probe compares bytes only
 * on a full hash match. Entries live in dense arrays indexed by id; an id stays the entry's until
 * {@link #remove}, which frees it for reuse and closes the probe chain by backward shifting (no
 * tombstones, so probe lengths do not degrade under churn). The table doubles at 1/2 load.
 *
 * <p>Eviction. Each entry carries a reference bit, set by {@link #get} and {@link #put} and
 * cleared by {@link #victim}, which sweeps a clock hand over the ids and returns the first entry
 * whose bit was already clear: the CLOCK approximation of least-recently-used, without a linked
 * list to update on every hit.
 *
 * <p>Not thread-safe: one actor thread.
 *
 * @param <V> the values; never null
 */
final class ByteKeyMap<V> {
    private int[] slots;
    private int[] slotHashes;
    private int mask;

    private byte[][] keys;
    private Object[] values;
    private int[] hashes;
    private boolean[] referenced;
    /** Ids below this were handed out at some point; free ones have a null key. */
    private int idLimit;

    private int[] freeIds = new int[16];
    private int freeCount;
    private int size;
    private int hand;

    ByteKeyMap(int expectedSize) {
        int capacity = Integer.highestOneBit(Math.max(8, expectedSize) * 2 - 1) * 2;
        slots = new int[capacity];
        slotHashes = new int[capacity];
        mask = capacity - 1;
        int ids = Math.max(8, expectedSize);
        keys = new byte[ids][];
        values = new Object[ids];
        hashes = new int[ids];
        referenced = new boolean[ids];
    }

    /** The number of entries. */
    int size() {
        return size;
    }

    /** One more than the largest id in use or freed; iterate ids below it and skip {@link #live} false. */
    int idLimit() {
        return idLimit;
    }

    /** Whether {@code id} names an entry (not a freed id). */
    boolean live(int id) {
        return id < idLimit && keys[id] != null;
    }

    /**
     * The id of the entry whose key equals {@code buf[0, len)}, or -1. Does not mark the entry
     * referenced (see {@link #get}).
     */
    int find(byte[] buf, int len) {
        int h = hash(buf, len);
        for (int s = h & mask; ; s = (s + 1) & mask) {
            int v = slots[s];
            if (v == 0) {
                return -1;
            }
            if (slotHashes[s] == h && Arrays.equals(keys[v - 1], 0, keys[v - 1].length, buf, 0, len)) {
                return v - 1;
            }
        }
    }

    /** The value of entry {@code id}, marking it referenced. */
    @SuppressWarnings("unchecked")
    V get(int id) {
        referenced[id] = true;
        return (V) values[id];
    }

    /** Replaces the value of entry {@code id}. */
    void set(int id, V value) {
        values[id] = value;
    }

    /** The key of entry {@code id}; callers must not change it. */
    byte[] key(int id) {
        return keys[id];
    }

    /**
     * Adds an entry for a key not in the map (callers {@link #find} first), copying {@code
     * buf[0, len)}; the entry starts referenced.
     *
     * @return its id
     */
    int put(byte[] buf, int len, V value) {
        if ((size + 1) * 2 > slots.length) {
            rehash(slots.length * 2);
        }
        int id = freeCount > 0 ? freeIds[--freeCount] : newId();
        int h = hash(buf, len);
        keys[id] = Arrays.copyOf(buf, len);
        values[id] = value;
        hashes[id] = h;
        referenced[id] = true;
        insertSlot(id, h);
        size++;
        return id;
    }

    /** Removes entry {@code id}; its id may be handed out again by a later {@link #put}. */
    void remove(int id) {
        int h = hashes[id];
        int s = h & mask;
        while (slots[s] != id + 1) {
            s = (s + 1) & mask;
        }
        // backward shift: move later entries of the chain into the hole unless they sit at their home slot or after
        for (int next = (s + 1) & mask; slots[next] != 0; next = (next + 1) & mask) {
            int home = slotHashes[next] & mask;
            if (((next - home) & mask) >= ((next - s) & mask)) {
                slots[s] = slots[next];
                slotHashes[s] = slotHashes[next];
                s = next;
            }
        }
        slots[s] = 0;
        keys[id] = null;
        values[id] = null;
        referenced[id] = false;
        if (freeCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, freeCount * 2);
        }
        freeIds[freeCount++] = id;
        size--;
    }

    /**
     * The id of an entry not referenced since the clock hand last passed it (clearing the
     * reference bits it passes), or -1 when the map is empty. The entry stays until removed.
     */
    int victim() {
        if (size == 0) {
            return -1;
        }
        while (true) {
            if (hand >= idLimit) {
                hand = 0;
            }
            int id = hand++;
            if (keys[id] == null) {
                continue;
            }
            if (!referenced[id]) {
                return id;
            }
            referenced[id] = false;
        }
    }

    /** Removes every entry, shrinking back to the initial size. */
    void clear() {
        ByteKeyMap<V> fresh = new ByteKeyMap<>(8);
        slots = fresh.slots;
        slotHashes = fresh.slotHashes;
        mask = fresh.mask;
        keys = fresh.keys;
        values = fresh.values;
        hashes = fresh.hashes;
        referenced = fresh.referenced;
        idLimit = 0;
        freeCount = 0;
        size = 0;
        hand = 0;
    }

    private int newId() {
        if (idLimit == keys.length) {
            int n = idLimit * 2;
            keys = Arrays.copyOf(keys, n);
            values = Arrays.copyOf(values, n);
            hashes = Arrays.copyOf(hashes, n);
            referenced = Arrays.copyOf(referenced, n);
        }
        return idLimit++;
    }

    private void insertSlot(int id, int h) {
        int s = h & mask;
        while (slots[s] != 0) {
            s = (s + 1) & mask;
        }
        slots[s] = id + 1;
        slotHashes[s] = h;
    }

    private void rehash(int capacity) {
        slots = new int[capacity];
        slotHashes = new int[capacity];
        mask = capacity - 1;
        for (int id = 0; id < idLimit; id++) {
            if (keys[id] != null) {
                insertSlot(id, hashes[id]);
            }
        }
    }

    private static int hash(byte[] buf, int len) {
        return ByteHash.of(buf, 0, len);
    }
}
