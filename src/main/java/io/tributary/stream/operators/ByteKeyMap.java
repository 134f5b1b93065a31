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
 * <p>Layout: open addressing with linear probing over a {@code long} slot array, two words per
 * slot side by side: the entry id (plus one; 0 is empty) with the key's hash, and a key of at most
 * {@link #INLINE_BYTES} bytes packed with its length (a key of one INTEGER, DATE or SMALLINT
 * column, 5 or 3 bytes encoded, fits; one of a BIGINT, 9 bytes, does not). A probe of such a key therefore touches one
 * slot's 16 bytes and nothing else; before, the id, the hash and the key's bytes were three arrays
 * apart and a lookup of a cold group cost three or four cache misses (JFR of {@code bench
 * backfill}'s GROUP BY: {@code find} a fifth of its actors' samples, mostly {@code Arrays.equals}
 * loading the key). Longer keys are compared byte by byte on a full hash match. Entries live in
 * dense arrays indexed by id; an id stays the entry's until {@link #remove}, which frees it for
 * reuse and closes the probe chain by backward shifting (no tombstones, so probe lengths do not
 * degrade under churn). The table doubles at 1/2 load.
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
    /** The longest key kept in its slot: seven bytes and its length fill one {@code long}. */
    static final int INLINE_BYTES = 7;

    /**
     * Per slot {@code s}, word {@code 2s}: the entry id plus one in the low half (0: empty), the
     * key's hash in the high half; word {@code 2s + 1}: the key {@linkplain #packed packed}, or -1
     * for a longer key.
     */
    private long[] slots;
    /** Slots minus one (a power of two minus one). */
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
        slots = new long[capacity * 2];
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
        if (size == 0) {
            return -1; // a released join side's empty cache: no hash per row
        }
        int h = hash(buf, len);
        if (len <= INLINE_BYTES) {
            long packed = packed(buf, len);
            for (int s = h & mask; ; s = (s + 1) & mask) {
                long head = slots[2 * s];
                if (head == 0) {
                    return -1;
                }
                if ((int) (head >>> 32) == h && slots[2 * s + 1] == packed) {
                    return (int) head - 1;
                }
            }
        }
        for (int s = h & mask; ; s = (s + 1) & mask) {
            long head = slots[2 * s];
            if (head == 0) {
                return -1;
            }
            int id = (int) head - 1;
            if ((int) (head >>> 32) == h && Arrays.equals(keys[id], 0, keys[id].length, buf, 0, len)) {
                return id;
            }
        }
    }

    /**
     * A key of at most {@link #INLINE_BYTES} bytes as one word: its bytes below its length, so
     * keys of different lengths never pack alike; -1 (no such key packs to it: its top byte is at
     * most 7) for a longer one.
     */
    static long packed(byte[] buf, int len) {
        if (len > INLINE_BYTES) {
            return -1;
        }
        long w = len;
        for (int i = 0; i < len; i++) {
            w = (w << 8) | (buf[i] & 0xff);
        }
        return w;
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
        if ((size + 1) * 2 > mask + 1) {
            rehash((mask + 1) * 2);
        }
        int id = freeCount > 0 ? freeIds[--freeCount] : newId();
        int h = hash(buf, len);
        keys[id] = Arrays.copyOf(buf, len);
        values[id] = value;
        hashes[id] = h;
        referenced[id] = true;
        insertSlot(id, h, packed(buf, len));
        size++;
        return id;
    }

    /** Removes entry {@code id}; its id may be handed out again by a later {@link #put}. */
    void remove(int id) {
        int h = hashes[id];
        int s = h & mask;
        while ((int) slots[2 * s] != id + 1) {
            s = (s + 1) & mask;
        }
        // backward shift: move later entries of the chain into the hole unless they sit at their home slot or after
        for (int next = (s + 1) & mask; slots[2 * next] != 0; next = (next + 1) & mask) {
            int home = (int) (slots[2 * next] >>> 32) & mask;
            if (((next - home) & mask) >= ((next - s) & mask)) {
                slots[2 * s] = slots[2 * next];
                slots[2 * s + 1] = slots[2 * next + 1];
                s = next;
            }
        }
        slots[2 * s] = 0;
        slots[2 * s + 1] = 0;
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

    private void insertSlot(int id, int h, long packed) {
        int s = h & mask;
        while (slots[2 * s] != 0) {
            s = (s + 1) & mask;
        }
        slots[2 * s] = ((long) h << 32) | (id + 1);
        slots[2 * s + 1] = packed;
    }

    private void rehash(int capacity) {
        slots = new long[capacity * 2];
        mask = capacity - 1;
        for (int id = 0; id < idLimit; id++) {
            if (keys[id] != null) {
                insertSlot(id, hashes[id], packed(keys[id], keys[id].length));
            }
        }
    }

    private static int hash(byte[] buf, int len) {
        return ByteHash.of(buf, 0, len);
    }
}
