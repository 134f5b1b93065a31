package io.tributary.stream;

import io.tributary.stream.StateTable.StoreKey;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * A key-ordered index over a map of {@link PendingWrites}' writes, for scans: the map's keys as
 * one array sorted once, when the first scan needs it, plus the keys the map gains afterwards in a
 * tree. Values are read from the map when a scan reaches them, so a later write of a key the index
 * holds needs no update. The map may only gain keys, never lose them (the pending writes record a
 * delete as a tombstone). Owned by one state table, on its actor's thread.
 *
 * <p>Before, the first scan of an epoch put every pending write into a tree per distribution key,
 * each needing a copy and hash of its distribution key and, for most keys of a table with many
 * groups, a tree of its own: in {@code bench stream}'s GROUP BY view, whose MAX re-reads the
 * extreme of every group that lost it, that build was a tenth of the aggregating actor's CPU.
 */
final class SortedWrites {
    private static final Comparator<StoreKey> ORDER = (a, b) -> Arrays.compareUnsigned(a.bytes, b.bytes);

    private final Map<StoreKey, byte[]> writes;
    /** The keys {@link #writes} held when this index was made, ascending. */
    private final StoreKey[] sorted;
    /** The keys {@link #writes} gained since, by their bytes; null until the first. */
    private TreeMap<byte[], StoreKey> added;

    /** Indexes the keys {@code writes} holds now; tell it of every key it gains later ({@link #added}). */
    SortedWrites(Map<StoreKey, byte[]> writes) {
        this.writes = writes;
        this.sorted = writes.keySet().toArray(new StoreKey[0]);
        Arrays.sort(sorted, ORDER);
    }

    /** Records that {@code key}, absent from the map before, was written to it. */
    void added(StoreKey key) {
        if (added == null) {
            added = new TreeMap<>(Arrays::compareUnsigned);
        }
        added.put(key.bytes, key);
    }

    /**
     * The writes with keys in [from, to), in unsigned key order, each with the map's value as of
     * when the iterator reaches it. Not valid past the map's next new key.
     */
    Iterator<Map.Entry<byte[], byte[]>> range(byte[] from, byte[] to) {
        int start = lowerBound(from);
        Iterator<StoreKey> later = added == null
                ? Collections.emptyIterator()
                : added.subMap(from, true, to, false).values().iterator();
        if (!later.hasNext() && (start == sorted.length || Arrays.compareUnsigned(sorted[start].bytes, to) >= 0)) {
            return Collections.emptyIterator();
        }
        return new Range(start, to, later);
    }

    /** The position of the first key in {@link #sorted} at or after {@code key}. */
    private int lowerBound(byte[] key) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(sorted[mid].bytes, key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Merges a run of {@link #sorted} with the range's later keys, which are disjoint from it. */
    private final class Range implements Iterator<Map.Entry<byte[], byte[]>> {
        private final byte[] to;
        private final Iterator<StoreKey> later;
        private int next;
        private StoreKey nextLater;

        Range(int start, byte[] to, Iterator<StoreKey> later) {
            this.next = start;
            this.to = to;
            this.later = later;
            this.nextLater = later.hasNext() ? later.next() : null;
        }

        private StoreKey nextSorted() {
            return next < sorted.length && Arrays.compareUnsigned(sorted[next].bytes, to) < 0 ? sorted[next] : null;
        }

        @Override
        public boolean hasNext() {
            return nextLater != null || nextSorted() != null;
        }

        @Override
        public Map.Entry<byte[], byte[]> next() {
            StoreKey fromSorted = nextSorted();
            StoreKey key;
            if (fromSorted != null && (nextLater == null || ORDER.compare(fromSorted, nextLater) < 0)) {
                key = fromSorted;
                next++;
            } else if (nextLater != null) {
                key = nextLater;
                nextLater = later.hasNext() ? later.next() : null;
            } else {
                throw new NoSuchElementException();
            }
            return new AbstractMap.SimpleImmutableEntry<>(key.bytes, writes.get(key));
        }
    }
}
