package io.tributary.meta.sink;

import io.tributary.common.VirtualNodes;
import io.tributary.stream.RowStream;
import io.tributary.stream.UpstreamTable;
import java.util.Arrays;

/**
 * A relation's snapshot read across all its vnodes in one primary-key order: a k-way merge of the
 * per-vnode {@link RowStream}s (each key-ordered, keys disjoint across vnodes) on a binary heap of
 * vnode numbers. A sink's backfill reads it so the target's primary-key index takes its rows in
 * ascending order, as a plain COPY of sorted rows would, instead of 256 runs over the whole key range.
 *
 * <p>Resume position: after rows up to key K have been delivered in this order, every vnode has
 * delivered all its keys up to K, so K alone (with {@link #MERGED} as the position's vnode) says
 * where to restart: every vnode after K. A position of the older vnode-by-vnode order (vnode v, last
 * key k: vnodes below v complete, v through k, the rest untouched) resumes too, since the merge of
 * what is left is still in key order and, after its first chunk, K again covers every vnode.
 *
 * <p>The backfill thread only; close once. Holds one open stream per vnode with rows left.
 */
final class KeyOrderedSnapshot implements AutoCloseable {
    /** The position's vnode when the rows were delivered in this merged order. */
    static final int MERGED = -1;

    private final RowStream[] streams = new RowStream[VirtualNodes.COUNT];
    /** Each open stream's current key, by vnode. */
    private final byte[][] keys = new byte[VirtualNodes.COUNT][];
    /** Vnode numbers of the streams with a current row, as a min-heap by that row's key. */
    private final int[] heap = new int[VirtualNodes.COUNT];

    private int size;
    /** Whether the heap's top is the row last returned, so the next call must advance its stream. */
    private boolean returned;

    private byte[] pk;
    /** The last key to return (inclusive), or null for the end of the relation. */
    private final byte[] upTo;

    /**
     * Opens the streams of every vnode with rows left after a position.
     *
     * @param upstream the relation over the pinned snapshot
     * @param epoch the snapshot's epoch
     * @param vnode the position's vnode: {@link #MERGED}, or the vnode-by-vnode order's current vnode
     * @param lastKey the position's last delivered key, or null for none
     */
    KeyOrderedSnapshot(UpstreamTable upstream, long epoch, int vnode, byte[] lastKey) {
        this(upstream, epoch, vnode, lastKey, null);
    }

    /**
     * Like {@link #KeyOrderedSnapshot(UpstreamTable, long, int, byte[])}, but ends after key
     * {@code upTo} (inclusive; null for no bound): one key range of a backfill copied in parallel ranges.
     */
    KeyOrderedSnapshot(UpstreamTable upstream, long epoch, int vnode, byte[] lastKey, byte[] upTo) {
        this.upTo = upTo;
        try {
            for (int v = Math.max(0, vnode); v < VirtualNodes.COUNT; v++) {
                byte[] after = vnode == MERGED || v == vnode ? lastKey : null;
                RowStream rows = upstream.snapshot(v, epoch, after);
                if (rows.next()) {
                    streams[v] = rows;
                    keys[v] = rows.pk();
                    heap[size] = v;
                    siftUp(size++);
                } else {
                    rows.close();
                }
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Advances to the next row in key order; false when every vnode is done. */
    boolean next() {
        if (returned) {
            returned = false;
            int top = heap[0];
            if (streams[top].next()) {
                keys[top] = streams[top].pk();
                replaceTop(top);
            } else {
                streams[top].close();
                streams[top] = null;
                keys[top] = null;
                int last = heap[--size];
                if (size > 0) {
                    replaceTop(last);
                }
            }
        }
        if (size == 0 || upTo != null && Arrays.compareUnsigned(keys[heap[0]], upTo) > 0) {
            // past the range's end: the rest belongs to the next range
            close();
            pk = null;
            return false;
        }
        pk = keys[heap[0]];
        returned = true;
        return true;
    }

    /** The current row's memcomparable primary key; a new array per row, which the caller may keep. */
    byte[] pk() {
        return pk;
    }

    /** The current row, full width, canonical values; decoded on the call (see {@link #encodedRow}). */
    Object[] row() {
        return streams[heap[0]].row();
    }

    /** The current row as stored (the relation's {@code RowCodec} encoding), not decoded; the caller may keep it. */
    byte[] encodedRow() {
        return streams[heap[0]].encodedRow();
    }

    /** How many vnodes have no rows left after the current one (a lower bound of the vnodes done). */
    int vnodesDone() {
        return VirtualNodes.COUNT - size;
    }

    /**
     * Keys that cut the snapshot into {@code parts} key ranges of about equal size: vnode 0's keys
     * at its quantiles (rows are spread over vnodes by a hash of the key, so one vnode is a uniform
     * sample of all keys). A pure function of the pinned snapshot. Empty when vnode 0 holds fewer
     * than {@code minSample} rows, so the snapshot is too small to be worth cutting.
     *
     * @return ascending keys; range r holds the keys after {@code cuts[r - 1]} up to {@code cuts[r]}
     *     (inclusive), the last range those after the last cut
     */
    static byte[][] cuts(UpstreamTable upstream, long epoch, int parts, int minSample) {
        java.util.List<byte[]> sample = new java.util.ArrayList<>();
        try (RowStream rows = upstream.snapshot(0, epoch, null)) {
            while (rows.next()) {
                sample.add(rows.pk());
            }
        }
        if (parts < 2 || sample.size() < minSample) {
            return new byte[0][];
        }
        byte[][] cuts = new byte[parts - 1][];
        for (int i = 1; i < parts; i++) {
            cuts[i - 1] = sample.get(i * sample.size() / parts - 1);
        }
        return cuts;
    }

    @Override
    public void close() {
        for (int v = 0; v < streams.length; v++) {
            if (streams[v] != null) {
                streams[v].close();
                streams[v] = null;
            }
        }
        size = 0;
    }

    /** Whether vnode {@code a}'s current key sorts before vnode {@code b}'s. */
    private boolean before(int a, int b) {
        return Arrays.compareUnsigned(keys[a], keys[b]) < 0;
    }

    private void siftUp(int i) {
        int v = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(v, heap[parent])) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = v;
    }

    /**
     * Puts vnode {@code v} at the top and restores the heap bottom up: the smaller child moves up
     * to the leaves (one comparison a level), then {@code v} rises from there. The vnode just read
     * usually moves past most keys (keys are spread over vnodes by hash), so this takes about half
     * the comparisons of a top-down sift.
     */
    private void replaceTop(int v) {
        int i = 0;
        for (int child = 1; child < size; child = 2 * i + 1) {
            if (child + 1 < size && before(heap[child + 1], heap[child])) {
                child++;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = v;
        siftUp(i);
    }
}
