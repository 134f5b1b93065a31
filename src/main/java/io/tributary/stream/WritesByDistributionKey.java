package io.tributary.stream;

import io.tributary.common.codec.ByteHash;
import io.tributary.stream.StateTable.StoreKey;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;

/**
 * The keys of a map of {@link PendingWrites}' writes grouped by distribution key, for scans, which
 * each stay within one: a chained hash index over the hash of each key's distribution-key bytes,
 * so a scan sorts only the few keys of its own distribution key, when it runs. Values are read
 * from the map when a scan reaches them, so a later write of an indexed key needs no update. The
 * map may only gain keys, never lose them (the pending writes record a delete as a tombstone);
 * every key it gains must be {@link #add added}. Owned by one state table, on its actor's thread.
 *
 * <p>Before, the first scan of an epoch put every pending write into a tree per distribution key,
 * each needing a copy and hash of its distribution key and, for most keys of a table with many
 * groups, a tree of its own; one sort of all keys instead cost as much. In {@code bench stream}'s
 * GROUP BY view, whose MAX re-reads the extreme of every group that lost it, a few keys per scan,
 * that build was a tenth of the aggregating actor's CPU.
 */
final class WritesByDistributionKey {
    private static final Comparator<StoreKey> ORDER = (a, b) -> Arrays.compareUnsigned(a.bytes, b.bytes);

    private final Map<StoreKey, byte[]> writes;
    /** The indexed keys, in the order they were added. */
    private StoreKey[] keys;
    /** Per indexed key, the position of the next key in its hash chain, or -1. */
    private int[] next;
    /** Per hash bucket (hash of the distribution key masked), the last key added to it, or -1. */
    private int[] heads;

    private int count;

    /** Indexes the keys {@code writes} holds now; {@link #add} every key it gains later. */
    WritesByDistributionKey(Map<StoreKey, byte[]> writes) {
        this.writes = writes;
        int capacity = Integer.highestOneBit(Math.max(16, writes.size() * 2 - 1)) << 1;
        keys = new StoreKey[capacity];
        next = new int[capacity];
        heads = new int[capacity];
        Arrays.fill(heads, -1);
        for (StoreKey k : writes.keySet()) {
            add(k);
        }
    }

    /** Indexes {@code key}, absent from the map before, now written to it. */
    void add(StoreKey key) {
        if (count == keys.length) {
            grow();
        }
        link(key, count++);
    }

    private void link(StoreKey key, int at) {
        keys[at] = key;
        int bucket = ByteHash.of(key.bytes, 0, key.distEnd) & (heads.length - 1);
        next[at] = heads[bucket];
        heads[bucket] = at;
    }

    private void grow() {
        StoreKey[] old = keys;
        keys = new StoreKey[old.length * 2];
        next = new int[old.length * 2];
        heads = new int[old.length * 2];
        Arrays.fill(heads, -1);
        for (int i = 0; i < count; i++) {
            link(old[i], i);
        }
    }

    /**
     * The writes with keys in [from, to), in unsigned key order, each with the map's value as of
     * the call. Every key in the range must start with {@code from}'s first {@code distEnd} bytes,
     * its distribution key. Not valid past the map's next write.
     */
    Iterator<Map.Entry<byte[], byte[]>> range(byte[] from, int distEnd, byte[] to) {
        StoreKey[] found = null;
        int n = 0;
        for (int i = heads[ByteHash.of(from, 0, distEnd) & (heads.length - 1)]; i >= 0; i = next[i]) {
            byte[] k = keys[i].bytes;
            if (keys[i].distEnd == distEnd
                    && Arrays.equals(k, 0, distEnd, from, 0, distEnd)
                    && Arrays.compareUnsigned(k, from) >= 0
                    && Arrays.compareUnsigned(k, to) < 0) {
                if (found == null) {
                    found = new StoreKey[4];
                } else if (n == found.length) {
                    found = Arrays.copyOf(found, n * 2);
                }
                found[n++] = keys[i];
            }
        }
        if (n == 0) {
            return Collections.emptyIterator();
        }
        Arrays.sort(found, 0, n, ORDER);
        @SuppressWarnings("unchecked")
        Map.Entry<byte[], byte[]>[] entries = new Map.Entry[n];
        for (int i = 0; i < n; i++) {
            entries[i] = new AbstractMap.SimpleImmutableEntry<>(found[i].bytes, writes.get(found[i]));
        }
        return Arrays.asList(entries).iterator();
    }
}
