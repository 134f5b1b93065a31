package io.tributary.meta.sink;

import io.tributary.catalog.SinkDef;
import io.tributary.catalog.TableDef;
import io.tributary.meta.jobs.JobId;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.meta.jobs.JobResult;
import io.tributary.meta.jobs.Notifier;
import io.tributary.meta.jobs.RemoteJob;
import io.tributary.meta.jobs.RemoteJob.LocalRun;
import io.tributary.meta.jobs.ScheduleFailedException;
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
    private final JobPlacement placement;
    private volatile HeadDelivery headThread;
    /** See {@link #staleMarkerRequests}. */
    private final java.util.concurrent.atomic.AtomicLong staleMarkerRequests =
            new java.util.concurrent.atomic.AtomicLong();
    /** The job copying the current snapshot, null when none runs. */
    private JobId backfillJob;
    /** The copy {@link #stopBackfill} stopped last, for {@link #cancelStoppedBackfill} once a DROP committed. */
    private JobId stoppedBackfill;

    /**
     * @param onBackfillDone called on the backfill thread once the target holds the snapshot of
     *     the given record: it must make the record durable without its pin
     * @param created whether the sink was just created (its head has not run anywhere yet)
     * @param placement where its backfill runs (here, or on a worker with {@code backfill.remote})
     */
    RunningSink(
            SinkDef def,
            TableDef relation,
            StreamRuntime.LogKeeper keeper,
            StateStore store,
            Consumer<SinkDef> onBackfillDone,
            boolean created,
            JobPlacement placement) {
        this.placement = placement;
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

    /**
     * Starts copying the snapshot the record names, if any (after cancelling a running copy): a
     * job placed here or, with {@code backfill.remote}, on a worker; re-attaches to the job when a
     * worker already runs it (after a restart).
     */
    synchronized void startBackfill() {
        stopBackfill();
        if (def.pin() == null) {
            return;
        }
        markKeys = true;
        backfill = new SinkProgress("snapshotting");
        SinkDef copying = def;
        JobId id = placement.jobId(SinkBackfillJob.localJobId(copying));
        byte[] payload = new SinkBackfillJob(
                        RemoteJob.FORMAT_VERSION,
                        placement.database(),
                        SinkBackfillJob.snapshotId(copying),
                        copying,
                        relation)
                .encode();
        RemoteJob job = new RemoteJob(id, RemoteJob.SINK_BACKFILL, copying.name(), payload, new LocalRun() {
            private SnapshotDelivery delivery;

            @Override
            public synchronized void start(Notifier notifier) {
                delivery = new SnapshotDelivery(RunningSink.this, copying, store, id, notifier);
                delivery.start();
            }

            @Override
            public synchronized void stop() {
                if (delivery != null) {
                    delivery.stop();
                }
            }
        });
        backfillJob = id;
        try {
            placement.place(
                    job,
                    result -> backfillEnded(copying, result),
                    copying.target().remoteBackfill(),
                    copying.target().fallbackToLocal());
        } catch (ScheduleFailedException e) {
            backfill.failed(e.getMessage());
            backfill.phase("waiting for a worker");
        }
    }

    /** A scheduler's thread: the backfill job of {@code copied} ended. */
    private void backfillEnded(SinkDef copied, JobResult result) {
        SinkProgress progress = backfill;
        if (result.cancelled()) {
            progress.failed(cancelledMessage());
            progress.phase("cancelled");
            return;
        }
        if (!result.succeeded()) {
            progress.failed(result.error());
            progress.phase("failed");
            return;
        }
        if (!result.placement().equals("local")) {
            // a worker copied it: the local progress did not see its chunks
            progress.delivered(copied.snapshotEpoch(), 0);
            progress.vnodesDone(io.tributary.common.VirtualNodes.COUNT);
            progress.phase("complete");
        }
        backfillDone(copied);
    }

    /** Where the backfill runs: {@code local}, {@code remote:<worker>}, {@code waiting for a worker}; null when none runs. */
    String backfillPlacement() {
        JobId id = backfillJob;
        return id == null ? null : placement.placement(id);
    }

    /** Stops the copy of a snapshot wherever it runs, before RESYNC replaces it or at DROP. */
    synchronized void stopBackfill() {
        if (backfillJob != null) {
            placement.stop(backfillJob);
            stoppedBackfill = backfillJob;
            backfillJob = null;
        }
    }

    /**
     * After a DROP committed: the copy {@link #stopBackfill} stopped is cancelled for good, so
     * {@code remote_jobs} says {@code cancelled} and no restart queues it again. A session thread.
     */
    synchronized void cancelStoppedBackfill() {
        if (stoppedBackfill != null) {
            placement.cancel(stoppedBackfill);
            stoppedBackfill = null;
        }
    }

    /**
     * {@code CANCEL JOBS}: cancels the copy of the snapshot for good (a worker stops at its next
     * chunk; the target keeps the chunks committed). The snapshot stays pinned and the head keeps
     * delivering; RESYNC copies a new snapshot, DROP removes the sink. A session thread.
     *
     * @return false when no copy runs
     */
    synchronized boolean cancelBackfill() {
        if (backfillJob == null || placement.placement(backfillJob) == null) {
            return false;
        }
        placement.cancel(backfillJob);
        backfillJob = null;
        backfill.failed(cancelledMessage());
        backfill.phase("cancelled");
        return true;
    }

    private String cancelledMessage() {
        return "the backfill was cancelled (CANCEL JOBS " + def.id() + "); ALTER SINK " + def.name()
                + " RESYNC copies the relation again";
    }

    /** Backfill thread: the target holds the snapshot of {@code copied}. */
    void backfillDone(SinkDef copied) {
        onBackfillDone.accept(copied);
        if (def.generation() == copied.generation()) {
            markKeys = false;
            touchedKeys = null;
            // a head transaction that took the sink's lock after the backfill's last one and
            // before this read markKeys as still set: the head forgets what it marked
            staleMarkerRequests.incrementAndGet();
            HeadDelivery head = headThread;
            if (head != null) {
                head.wakeForMarkers();
            }
        }
    }

    /**
     * How many completed backfills asked the head to forget key markers it may have written after
     * their last transaction; the head compares it with the count it has handled. Any thread.
     */
    long staleMarkerRequests() {
        return staleMarkerRequests.get();
    }

    /**
     * Stops this process's delivery threads. A remote backfill keeps running on its worker: the
     * next start re-attaches to it.
     */
    synchronized void stop() {
        if (backfillJob != null) {
            if ("local".equals(placement.placement(backfillJob))) {
                placement.stop(backfillJob);
            }
            backfillJob = null;
        }
        if (headThread != null) {
            headThread.stop();
            headThread = null;
        }
    }
}
