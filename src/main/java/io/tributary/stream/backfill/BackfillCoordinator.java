package io.tributary.stream.backfill;

import io.tributary.common.BackgroundPriority;
import io.tributary.storage.SortedFile;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.Barrier;
import io.tributary.stream.StateWrites;
import io.tributary.stream.UpstreamTable;
import io.tributary.stream.runtime.Channel;
import io.tributary.stream.runtime.DataWrites;
import io.tributary.stream.runtime.EpochWrites;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the checkpoints of one job being backfilled, on its own thread, apart from the epochs:
 * every interval, or sooner once the operators of one of the job's actors hold {@link #CHECKPOINT_ROWS}
 * changes for the next checkpoint, it sends a checkpoint barrier into the job's source channels, waits until every
 * actor passed it, and writes their state changes and backfill positions in one atomic synced
 * write ({@link StateStore#write}). So the upstream's epochs never wait for the backfill, and a
 * restarted job resumes from its last checkpoint. Once every source has read its snapshot and is
 * near the upstream's head (idle at the last checkpoint, or within one interval of a bounded
 * change-log remainder: {@code BackfillInput.nearHead}) it asks its {@link Listener} to join the
 * job to the live flow, which reads that remainder inside the joining epoch, and stops
 * checkpointing when that succeeded. So the job converges while writers keep writing.
 */
public final class BackfillCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(BackfillCoordinator.class);
    /** How long all actors may take to pass a checkpoint barrier before the job counts as stuck. */
    private static final long CHECKPOINT_TIMEOUT_MS = 600_000;

    private static final long CAUGHT_UP_POLL_MS = 5;

    /**
     * How many times its own duration the job waits after a checkpoint before the next one by
     * interval: a checkpoint that rewrites much state (an aggregation re-emits, and re-writes the
     * group and value-table rows of, every group the interval touched) then costs at most about a
     * tenth of the backfill's time, however short the barrier interval.
     */
    static final long CHECKPOINT_COST_FACTOR = 10;

    /** The longest wait between checkpoints by interval, so a crash loses at most this much of the backfill's work. */
    static final long MAX_INTERVAL_MS = 30_000;

    /**
     * Changes held by one actor's operators (state writes and output waiting for the barrier, see
     * {@code Operator.heldChanges}; rows taken in, for an actor with an operator that does not
     * count) after which a checkpoint is taken without waiting for the interval. The operators
     * hold every state write since the last checkpoint in memory, so this bounds that memory by
     * design rather than by how fast an interval's rows happen to arrive. Counting what is held
     * rather than rows read matters for aggregations: each checkpoint re-emits and re-writes every
     * group it touched, so checkpoints every so many rows made a GROUP BY over few groups pay per
     * group and checkpoint about as often as per row. Every young garbage collection copies
     * those writes, so this also bounds the collection pauses that
     * stop the server's other work, foreground INSERTs included (at 1 s intervals they reached
     * hundreds of milliseconds). An actor reads at most this many rows past a checkpoint that is
     * still being written (see {@code Actor}), so at most two checkpoints' writes are held per actor.
     * The budget is per actor, like the operators' caches: a job's memory grows with its actor count,
     * while its checkpoints do not come more often the more actors share its rows.
     */
    public static final long CHECKPOINT_ROWS = 65_536;

    /** Told about the job's milestones; called on the coordinator's thread. */
    public interface Listener {
        /**
         * Every source has read its snapshot and is at most a bounded change-log remainder
         * behind its upstream: join the job to the live flow now (at an epoch boundary), the
         * sources reading the remainder inside the joining epoch.
         *
         * @return whether it joined; if not, checkpoints go on and it is asked again later
         */
        boolean caughtUp() throws InterruptedException;

        /** The job cannot go on (an actor failed, a checkpoint could not be written). */
        void failed(Throwable error);
    }

    private final String name;
    private final StateStore store;
    private final long intervalMs;
    private final List<Channel> sourceChannels;
    private final int actorCount;
    private final List<BackfillInput> backfills;
    /** Per source ordinal, its upstream (to count the snapshot's rows) and relation id. */
    private final List<UpstreamTable> upstreams;

    private final List<Integer> upstreamIds;
    private final Listener listener;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Thread thread;
    /** Estimates the snapshots' rows beside the checkpoints, so the first checkpoint is not held up. */
    private final Thread counter;
    /** The snapshots' estimated row count, -1 until estimated. */
    private volatile long expectedSnapshotRows = -1;
    /**
     * {@link #counter} and {@link #thread} at background priority, raised by {@link #stop} before it
     * waits for them under the barrier lock; set by each thread itself as it starts.
     */
    private volatile BackgroundPriority.LoweredThread countingThread = BackgroundPriority.LoweredThread.NONE;

    private volatile BackgroundPriority.LoweredThread checkpointingThread = BackgroundPriority.LoweredThread.NONE;

    private volatile boolean stopped;
    private volatile JobCheckpoint current;
    /**
     * Each backfill's status as of the last durable checkpoint (as restored, before the first).
     * An actor updates its input's status when it passes a checkpoint's barrier, before the
     * checkpoint is written; progress published from those could go back after a crash.
     */
    private volatile List<BackfillInput.Status> durableStatuses;

    private volatile BackfillProgress progress;
    private final long startedNanos = System.nanoTime();
    private final long rowsAtStart;
    /** How long the last checkpoint took, from its barrier's sending until durable; coordinator thread. */
    private long lastCheckpointMs;
    /** What the job's operators hold for the next checkpoint (see {@link #CHECKPOINT_ROWS}); any thread. */
    private final LongSupplier heldChanges;

    public BackfillCoordinator(
            String name,
            StateStore store,
            long intervalMs,
            List<Channel> sourceChannels,
            int actorCount,
            List<BackfillInput> backfills,
            List<UpstreamTable> upstreams,
            List<Integer> upstreamIds,
            LongSupplier heldChanges,
            Listener listener) {
        this.heldChanges = heldChanges;
        this.name = name;
        this.store = store;
        this.intervalMs = intervalMs;
        this.sourceChannels = sourceChannels;
        this.actorCount = actorCount;
        this.backfills = backfills;
        this.upstreams = upstreams;
        this.upstreamIds = upstreamIds;
        this.listener = listener;
        this.durableStatuses = statuses();
        this.rowsAtStart =
                durableStatuses.stream().mapToLong(BackfillInput.Status::rows).sum();
        this.progress = summarize();
        this.thread = new Thread(this::run, "backfill-" + name);
        this.thread.setDaemon(true);
        this.counter = new Thread(this::count, "backfill-count-" + name);
        this.counter.setDaemon(true);
    }

    public void start() {
        counter.start();
        thread.start();
    }

    private void count() {
        countingThread = BackgroundPriority.lowerCurrentThread();
        try {
            if (stopped) {
                // stop() may have looked before this thread was lowered
                countingThread.raise();
            }
            long rows = countSnapshotRows();
            if (rows >= 0) {
                expectedSnapshotRows = rows;
                publish();
            }
        } finally {
            countingThread.ended();
        }
    }

    /** The snapshot's rows summed over the upstreams' estimates; -1 once stopped or unknown. */
    private long countSnapshotRows() {
        long count = 0;
        for (UpstreamTable u : upstreams) {
            long rows = u.estimatedSnapshotRows();
            if (rows < 0 || stopped) {
                return -1;
            }
            count += rows;
        }
        return count;
    }

    /**
     * The progress as of the last durable checkpoint, with the rows read since then (and the rate
     * of reading) as the actors count them now. Any thread.
     */
    public BackfillProgress progress() {
        BackfillProgress durable = progress;
        long read = 0;
        for (BackfillInput b : backfills) {
            read += b.rowsRead();
        }
        return durable.withRowsRead(read, perSecond(Math.max(read, durable.rowsDone())));
    }

    /** The average rate since the job (re)started, of {@code rows} read by now. */
    private long perSecond(long rows) {
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        return seconds <= 0 ? 0 : Math.round((rows - rowsAtStart) / seconds);
    }

    /**
     * Stops checkpointing; returns once no checkpoint write is in flight, so nothing of this job
     * is written after it. Called with the job's actors being stopped, under the barrier lock;
     * never waits for that lock.
     */
    public void stop() {
        stopped = true;
        thread.interrupt();
        counter.interrupt();
        // writers wait for the barrier lock as long as this waits for these two
        countingThread.raise();
        checkpointingThread.raise();
        try {
            // the caller releases the snapshots next: the count must be done reading them
            counter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        JobCheckpoint cp = current;
        if (cp != null) {
            cp.abandon();
        }
        writeLock.lock();
        writeLock.unlock();
    }

    private void run() {
        // the checkpoints' sorting and writing are the backfill's, not the writers', work
        checkpointingThread = BackgroundPriority.lowerCurrentThread();
        if (stopped) {
            checkpointingThread.raise();
        }
        for (BackfillInput backfill : backfills) {
            backfill.wakeOnRateChange(Thread.currentThread());
        }
        try {
            long seq = 0;
            while (!stopped) {
                awaitCheckpointTime();
                if (!checkpoint(++seq)) {
                    return;
                }
                // no actor passes another barrier before the next checkpoint: these are durable
                durableStatuses = statuses();
                publish();
                if (progress.caughtUp() && listener.caughtUp()) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            // stopped
        } catch (RuntimeException | Error e) {
            if (!stopped) {
                LOG.error("backfill of {} failed", name, e);
                listener.failed(e);
            }
        } finally {
            checkpointingThread.ended();
        }
    }

    /**
     * Waits for the checkpoint interval, or less once every source has caught up (a small view
     * then goes live without waiting a whole interval) or the actors hold {@link #CHECKPOINT_ROWS}
     * changes. The interval is the barrier interval, stretched to {@link #CHECKPOINT_COST_FACTOR}
     * times the last checkpoint's duration (at most {@link #MAX_INTERVAL_MS}): the rows between
     * checkpoints are the backfill's work, the checkpoints its overhead. A GROUP BY whose groups
     * every interval touches again paid each checkpoint a rewrite of all of them (JFR of {@code
     * bench backfill}'s GROUP BY: a quarter of the job threads' samples in the checkpoints), while
     * memory is bounded by the held changes, not by time. A paused job (rate 0: ALTER, or a view
     * whose snapshot a worker builds) reads nothing, so neither condition can change before its
     * rate does, which wakes this thread: it waits without polling.
     */
    private void awaitCheckpointTime() throws InterruptedException {
        long wait = Math.max(intervalMs, Math.min(MAX_INTERVAL_MS, lastCheckpointMs * CHECKPOINT_COST_FACTOR));
        long deadline = System.currentTimeMillis() + wait;
        while (System.currentTimeMillis() < deadline) {
            if (backfills.stream().allMatch(BackfillInput::caughtUpNow)) {
                return;
            }
            if (heldChanges.getAsLong() >= CHECKPOINT_ROWS) {
                return;
            }
            long left = Math.max(1, deadline - System.currentTimeMillis());
            boolean paused = !backfills.isEmpty() && backfills.stream().allMatch(BackfillInput::paused);
            LockSupport.parkNanos(
                    this, TimeUnit.MILLISECONDS.toNanos(paused ? left : Math.min(CAUGHT_UP_POLL_MS, left)));
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    /**
     * One checkpoint; false when the job was stopped meanwhile. However it ends, the checkpoint
     * is durable or abandoned when this returns or throws, so no actor waits for it for longer
     * than this call takes: at most {@link #CHECKPOINT_TIMEOUT_MS} for the actors to pass it plus
     * one write.
     */
    private boolean checkpoint(long seq) throws InterruptedException {
        JobCheckpoint cp = new JobCheckpoint(actorCount);
        current = cp;
        long started = System.nanoTime();
        try {
            boolean written = write(seq, cp);
            lastCheckpointMs = (System.nanoTime() - started) / 1_000_000;
            return written;
        } finally {
            cp.abandonUnlessDurable();
        }
    }

    private boolean write(long seq, JobCheckpoint cp) throws InterruptedException {
        Barrier barrier = new Barrier(seq, cp);
        for (Channel c : sourceChannels) {
            c.send(barrier);
        }
        List<StateWrites> writes = cp.awaitAll(CHECKPOINT_TIMEOUT_MS);
        if (writes == null) {
            throw new IllegalStateException("the job's actors did not reach checkpoint " + seq + " within "
                    + CHECKPOINT_TIMEOUT_MS / 1000 + " s");
        }
        // the actors' files of snapshot rows (a SELECT * view's), applied before their other writes
        List<SortedFile> files = new ArrayList<>();
        for (StateWrites w : writes) {
            files.addAll(((EpochWrites) w).files());
        }
        writeLock.lock();
        try {
            if (stopped) {
                return false;
            }
            try (WriteBuffer buffer = store.newWriteBuffer()) {
                StateWrites sink = new DataWrites(buffer);
                for (StateWrites w : writes) {
                    ((EpochWrites) w).replay(sink);
                }
                store.write(buffer, files);
            }
            cp.markDurable();
        } finally {
            writeLock.unlock();
            // ingested (their names are stale now) or abandoned with the checkpoint: deleted either way
            files.forEach(SortedFile::close);
        }
        return true;
    }

    private List<BackfillInput.Status> statuses() {
        return backfills.stream().map(BackfillInput::status).toList();
    }

    /**
     * Publishes the progress as of the last durable checkpoint. Called by the coordinator thread
     * after each checkpoint and by the counting thread once; synchronized, so the counter cannot
     * publish over a newer checkpoint's progress.
     */
    private synchronized void publish() {
        progress = summarize();
    }

    /** The progress as of the last durable checkpoint, with the snapshot's row count once counted. */
    private BackfillProgress summarize() {
        long expectedSnapshotRows = this.expectedSnapshotRows;
        long rows = 0;
        long logRows = 0;
        boolean caughtUp = true;
        Map<Integer, Long> consumed = new HashMap<>();
        List<BackfillProgress.Vnode> vnodes = new ArrayList<>();
        List<BackfillInput.Status> statuses = durableStatuses;
        for (int i = 0; i < backfills.size(); i++) {
            BackfillInput b = backfills.get(i);
            BackfillInput.Status s = statuses.get(i);
            rows += s.rows();
            logRows += s.logRows();
            caughtUp &= s.caughtUp();
            consumed.merge(upstreamIds.get(b.sourceOrdinal()), s.consumedThrough(), Math::min);
            vnodes.addAll(s.vnodes());
        }
        long expected = expectedSnapshotRows < 0 ? -1 : expectedSnapshotRows + logRows;
        return new BackfillProgress(rows, rows, expected, caughtUp, perSecond(rows), consumed, vnodes);
    }
}
