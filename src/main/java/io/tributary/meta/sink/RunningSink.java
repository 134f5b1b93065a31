package io.tributary.meta.sink;

import io.tributary.catalog.SinkDef;
import io.tributary.catalog.TableDef;
import io.tributary.storage.StateStore;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.function.Consumer;

/**
 * One sink at run time: its catalog record, the relation it delivers, its target, the change log
 * kept for it, its rate limit and its two delivery threads (head, and backfill while a snapshot
 * is being copied). Started, resynced and stopped by {@link SinkManager}.
 */
final class RunningSink {
    private volatile SinkDef def;
    private final TableDef relation;
    private final TargetTable table;
    private volatile StreamRuntime.LogKeeper keeper;
    private final SinkRateLimiter limiter;
    private final SinkProgress head = new SinkProgress("starting");
    private volatile SinkProgress backfill;
    /** Whether the head must mark the keys it writes: from before a snapshot is pinned until it is copied. */
    private volatile boolean markKeys;
    /**
     * The keys (memcomparable primary keys, as the snapshot and the change log hold them) the head
     * has written since the first snapshot's epoch, while that snapshot is being
     * copied by a backfill started in this process (so the set is complete): the backfill then
     * COPYs the other rows straight into the target. Null otherwise (the backfill merges).
     */
    private volatile java.util.Set<java.nio.ByteBuffer> touchedKeys;

    private final StateStore store;
    private final Consumer<SinkDef> onBackfillDone;
    private HeadDelivery headThread;
    private SnapshotDelivery backfillThread;

    /**
     * @param onBackfillDone called on the backfill thread once the target holds the snapshot of
     *     the given record: it must make the record durable without its pin
     * @param created whether the sink was just created (its head has not run anywhere yet)
     */
    RunningSink(
            SinkDef def,
            TableDef relation,
            StreamRuntime.LogKeeper keeper,
            StateStore store,
            Consumer<SinkDef> onBackfillDone,
            boolean created) {
        this.def = def;
        this.relation = relation;
        this.table = new TargetTable(def, relation);
        this.keeper = keeper;
        this.limiter = new SinkRateLimiter(def.rateLimit());
        this.store = store;
        this.onBackfillDone = onBackfillDone;
        this.markKeys = def.pin() != null;
        if (created && def.pin() != null && def.target().upsert()) {
            touchedKeys = java.util.concurrent.ConcurrentHashMap.newKeySet();
        }
        if (def.pin() != null) {
            backfill = new SinkProgress("snapshotting");
        }
    }

    SinkDef def() {
        return def;
    }

    void def(SinkDef now) {
        def = now;
    }

    TableDef relation() {
        return relation;
    }

    TargetTable table() {
        return table;
    }

    StreamRuntime.LogKeeper keeper() {
        return keeper;
    }

    /** The log kept anew after a failed DROP; under the barrier lock, while no delivery runs. */
    void keeper(StreamRuntime.LogKeeper now) {
        keeper = now;
    }

    SinkRateLimiter limiter() {
        return limiter;
    }

    SinkProgress headProgress() {
        return head;
    }

    /** The backfill's progress, null when the sink never copied a snapshot. */
    SinkProgress backfillProgress() {
        return backfill;
    }

    boolean markKeys() {
        return markKeys;
    }

    /** Makes the head mark its keys from its next transaction on; call before pinning a new snapshot. */
    void startMarking() {
        markKeys = true;
        touchedKeys = null;
    }

    /** See {@link #touchedKeys}; null when the backfill must merge. */
    java.util.Set<java.nio.ByteBuffer> touchedKeys() {
        return touchedKeys;
    }

    synchronized void start() {
        headThread = new HeadDelivery(this, store);
        headThread.start();
        startBackfill();
    }

    /** Starts copying the snapshot the record names, if any (after stopping a running copy). */
    synchronized void startBackfill() {
        if (backfillThread != null) {
            backfillThread.stop();
            backfillThread = null;
        }
        if (def.pin() != null) {
            markKeys = true;
            backfill = new SinkProgress("snapshotting");
            backfillThread = new SnapshotDelivery(this, def, store);
            backfillThread.start();
        }
    }

    /** Stops the copy of a snapshot, e.g. before RESYNC replaces it. */
    synchronized void stopBackfill() {
        if (backfillThread != null) {
            backfillThread.stop();
            backfillThread = null;
        }
    }

    /** Backfill thread: the target holds the snapshot of {@code copied}. */
    void backfillDone(SinkDef copied) {
        onBackfillDone.accept(copied);
        if (def.generation() == copied.generation()) {
            markKeys = false;
            touchedKeys = null;
        }
    }

    synchronized void stop() {
        stopBackfill();
        if (headThread != null) {
            headThread.stop();
            headThread = null;
        }
    }
}
