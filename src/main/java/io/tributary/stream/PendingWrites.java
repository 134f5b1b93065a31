package io.tributary.stream;

import io.tributary.stream.StateTable.StoreKey;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * A {@link StateTable}'s writes that are not yet known to be committed: those since the last
 * {@link #flush} and those handed over at it. Decides how they are held (in arrival order while
 * that is cheaper, else in a hash map, indexed by distribution key once a scan needs order) and
 * answers point lookups and sorted ranges over them; the owning table merges those with its
 * committed state. Values are encoded rows, {@link #TOMBSTONE} (by identity) a delete. Owned by
 * one state table, on its actor's thread.
 */
final class PendingWrites {
    /** The value of a deleted key; compared by identity. */
    static final byte[] TOMBSTONE = new byte[0];

    /**
     * Writes since the last flush. Point reads and writes only need the hash map; the sorted copy
     * scans need is built on the first scan of an epoch and kept up to date from then on, so
     * tables that are never scanned (views, group states) never pay for ordering.
     */
    private Map<StoreKey, byte[]> pending = new HashMap<>();
    /**
     * The writes handed over at the last flush, still read through (under {@link #pending}) until
     * the next flush: a backfilling job's actor goes on past a checkpoint barrier while the
     * checkpoint is written (see {@code Actor}), so its committed view may not hold them yet. The
     * actor waits for that checkpoint to be durable before it passes the next barrier, so at the
     * next flush they are committed and this layer is dropped. Live epochs commit before their
     * actor's next input arrives, so for them this layer only repeats committed state. Point reads
     * and scans both merge it, so no read ever waits for the checkpoint's write. Null when there
     * is none.
     */
    private Map<StoreKey, byte[]> flushed;
    /**
     * {@link #flushed} indexed by distribution key, as {@link #sortedPending} is for the pending
     * writes: taken over from it at the flush when a scan had built it, else built on the first
     * scan after the flush; null until then and with {@link #flushed}.
     */
    private WritesByDistributionKey sortedFlushed;
    /**
     * The pending writes indexed by distribution key, or null until the epoch's first scan; each
     * scan sorts only its own distribution key's writes (see {@link WritesByDistributionKey}).
     */
    private WritesByDistributionKey sortedPending;
    /**
     * Writes since the last flush while every key written sorted after the one before (as a whole
     * or after its vnode, see {@link AscendingWrites}) and nothing was read: held in arrival order
     * instead of {@link #pending} (empty meanwhile), so a view backfilled in key order, or fed a
     * keyless table's rows in row-id order, neither hashes its rows nor has them sorted. The
     * first write out of order, or the first read, moves them into {@link #pending} for the rest
     * of the epoch ({@link #stopAppending}).
     */
    private AscendingWrites run = new AscendingWrites();
    /** Whether writes still go to {@link #run} this epoch. */
    private boolean appending = true;
    /**
     * Whether writes out of key order go to {@link #run} as well ({@link #appendUnordered}), and
     * an epoch after one without reads through the pending writes starts appending again.
     */
    private boolean unordered;
    /** Whether a read went through the pending writes since the last flush. */
    private boolean readThisEpoch;
    /**
     * Set by the first read through the pending writes: a table that is read (a join side, a
     * group state) keeps its writes in {@link #pending} from then on, rather than moving them
     * every epoch.
     */
    private boolean readThrough;
    /**
     * The writes handed over at the last flush when they were a {@link #run}: read through like
     * {@link #flushed} (moved into it at the first read), null when none.
     */
    private AscendingWrites flushedRun;

    /** See {@link StateTable#appendUnordered}; before the first write. */
    void appendUnordered() {
        unordered = true;
    }

    /**
     * Records a write of {@code key} (whose distribution key ends at {@code distEnd}); {@code
     * value} is kept, not copied, {@link #TOMBSTONE} for a delete.
     *
     * @param known {@code key} as a store key when the caller has one, else null
     */
    void write(byte[] key, int distEnd, StoreKey known, byte[] value) {
        if (appending) {
            if (run.append(key, distEnd, value)) {
                return;
            }
            if (unordered) {
                run.appendUnordered(key, distEnd, value);
                return;
            }
            stopAppending();
        }
        StoreKey k = known != null ? known : new StoreKey(key, distEnd);
        // values are never null (a delete is TOMBSTONE), so null means the key is new
        if (pending.put(k, value) == null && sortedPending != null) {
            sortedPending.add(k);
        }
    }

    /**
     * Before point reads through the pending writes ({@link #uncommitted}): from now until the
     * next flush the writes are kept where those reads find them (see {@link #readThrough}).
     */
    void beforeRead() {
        readThrough = true;
        readThisEpoch = true;
        stopAppending();
        if (flushedRun != null) {
            flushed = new HashMap<>();
            flushedRun.moveInto(flushed);
            flushedRun = null;
        }
    }

    /**
     * Whether {@code k} was written since the last flush. Moves the writes held in arrival order
     * into {@link #pending} for the rest of the epoch, but is not a read through the pending
     * writes ({@link #beforeRead}): it neither needs the last flush's writes nor keeps the table
     * from appending in later epochs.
     */
    boolean writtenSinceFlush(StoreKey k) {
        stopAppending();
        return pending.containsKey(k);
    }

    /**
     * The write of {@code k} since the last flush, else the one handed over at it; null: neither.
     * Only after {@link #beforeRead} (since the last write).
     */
    byte[] uncommitted(StoreKey k) {
        byte[] v = pending.get(k);
        if (v == null && flushed != null) {
            v = flushed.get(k);
        }
        return v;
    }

    /**
     * The writes with keys in [from, to), in key order, those since the last flush shadowing those
     * handed over at it; tombstones included. Every key in the range starts with {@code from}'s
     * first {@code distEnd} bytes, its distribution key. A read through the pending writes, as
     * {@link #beforeRead}. Not valid past the next write.
     */
    Iterator<Map.Entry<byte[], byte[]>> sortedRange(byte[] from, int distEnd, byte[] to) {
        beforeRead();
        if (sortedPending == null) {
            sortedPending = new WritesByDistributionKey(pending);
        }
        Iterator<Map.Entry<byte[], byte[]>> mine = sortedPending.range(from, distEnd, to);
        if (flushed != null) {
            if (sortedFlushed == null) {
                sortedFlushed = new WritesByDistributionKey(flushed);
            }
            Iterator<Map.Entry<byte[], byte[]>> handedOver = sortedFlushed.range(from, distEnd, to);
            if (handedOver.hasNext()) {
                mine = mine.hasNext() ? new ShadowingRuns(mine, handedOver) : handedOver;
            }
        }
        return mine;
    }

    /**
     * From now until the next flush the pending writes are kept in {@link #pending}: those of
     * {@link #run} move there; at a read, so do those of {@link #flushedRun} into {@link #flushed}.
     * Called before every read through the pending writes and on a write out of key order.
     */
    private void stopAppending() {
        if (appending) {
            appending = false;
            run.moveInto(pending);
        }
    }

    /** See {@link StateTable#flush}. */
    int flush(StateWrites writes) {
        // the last flush's writes are durable now (see flushed): their layer goes at this flush
        AscendingWrites spare = flushedRun;
        flushedRun = null;
        if (run.size() > 0) {
            // appended throughout the epoch, so pending is empty
            int n = run.size();
            run.handOver(writes, TOMBSTONE);
            flushed = null;
            sortedFlushed = null;
            flushedRun = run;
            if (spare != null) {
                spare.clear();
            }
            run = spare != null ? spare : new AscendingWrites();
            appending = appendsNextEpoch();
            return n;
        }
        appending = appendsNextEpoch();
        int n = 0;
        for (Map.Entry<StoreKey, byte[]> e : pending.entrySet()) {
            if (e.getValue() == TOMBSTONE) {
                writes.delete(e.getKey().bytes);
            } else {
                writes.put(e.getKey().bytes, e.getValue());
            }
            n++;
        }
        if (n == 0) {
            // the caller waited for the last flush's writes to be stored before this one
            flushed = null;
            sortedFlushed = null;
        } else {
            flushed = pending;
            // a scan this epoch already indexed them: keep that index rather than build it again
            sortedFlushed = sortedPending;
            // sized for as many writes as this epoch's: a backfill's checkpoints each write about as
            // many, and growing a map from 16 entries by doubling had been a twentieth of a join's actor CPU
            pending = new HashMap<>(capacityFor(n));
        }
        sortedPending = null;
        return n;
    }

    /**
     * Whether the epoch after this flush starts appending: a table that allows any order does
     * unless this epoch read through its writes (a live join side probed every epoch stays on the
     * map, as moving each epoch's run into it, and the handed-over run into {@link #flushed} at the
     * next epoch's first read, would hash every write twice); any other table only until its first
     * read ever. At a flush.
     */
    private boolean appendsNextEpoch() {
        boolean read = readThisEpoch;
        readThisEpoch = false;
        return unordered ? !read : !readThrough;
    }

    /** A {@link HashMap} capacity that holds {@code writes} entries without growing (its load factor is 0.75). */
    private static int capacityFor(int writes) {
        return (int) Math.min(1 << 30, writes / 3L * 4 + 16);
    }

    /** See {@link StateTable#pendingCount}. */
    int count() {
        return pending.size() + run.size();
    }
}
