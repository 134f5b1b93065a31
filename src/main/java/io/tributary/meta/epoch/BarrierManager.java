package io.tributary.meta.epoch;

import io.tributary.common.BackgroundPriority;
import io.tributary.common.Epoch;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts time into epochs and commits each epoch's changes in one atomic, synced write.
 *
 * <p>Writers {@link #stage} their {@link EpochChange changes} into the open epoch's buffer and get back a ticket; the
 * barrier thread closes the epoch every {@code intervalMs}, and a writer that
 * {@link #awaitCommitted awaits} its ticket closes it at once on its own thread (group commit:
 * every statement staged before that barrier shares its single write). Staging and committing exclude each other, so a change is either
 * entirely in an epoch or entirely in a later one.
 */
public final class BarrierManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BarrierManager.class);

    private final StateStore store;
    private final long intervalMs;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition barrierRequested = lock.newCondition();
    private final Condition committed = lock.newCondition();
    private final Thread thread;

    private WriteBuffer open;
    /** The changes staged into the open epoch, in order; their hooks run when it commits or fails. */
    private final List<EpochChange> staged = new ArrayList<>();

    private static final long FAILURES_KEPT = 1024;
    /** How often, and how long, a committing waiter lets writers queued on the lock stage first. */
    private static final int MAX_LEADER_YIELDS = 4;

    private static final long LEADER_YIELD_MICROS = 200;
    /** Ticket of the open epoch; tickets count epochs since start and are never reused. */
    private long openTicket = 1;

    private long committedTicket = 0;
    /** Tickets whose commit failed, with the reason; kept so their waiters learn it however late they wake. */
    private final java.util.Map<Long, String> failures = new java.util.HashMap<>();

    private volatile boolean stopping;
    /** Takes part in every commit (the streaming engine); set once before {@link #start()}. */
    private EpochParticipant participant = EpochParticipant.NONE;
    /** Why the barrier thread died, if it did. */
    private String fatal;
    /** Told of every durable epoch; see {@link #addCommitListener}. */
    private final List<CommitListener> commitListeners = new CopyOnWriteArrayList<>();
    /** When the last epoch became durable ({@link System#nanoTime()}), 0 before the first. */
    private volatile long lastCommitNanos;

    /**
     * The open epoch's time: the previous epoch's ({@link Epoch#millis}), or the clock at {@link #start}
     * before any commit since. Written under the lock, read by any thread.
     */
    private volatile long openEpochMillis = System.currentTimeMillis();

    /** Wall time in millis, which each epoch number embeds; see {@link #useClock}. */
    private volatile java.util.function.LongSupplier clock = System::currentTimeMillis;

    public BarrierManager(StateStore store, long intervalMs) {
        this.store = store;
        this.intervalMs = intervalMs;
        this.open = store.newWriteBuffer();
        this.thread = new Thread(this::run, "barrier-manager");
        this.thread.setDaemon(true);
    }

    /**
     * Makes epochs embed {@code clock}'s time instead of the wall clock's. For a worker's scratch
     * database, whose epochs must carry the time of the server's snapshot so that {@code now()} in
     * the view it computes is the server's ({@code ScratchViewBuild}). Call before the first epoch.
     */
    public void useClock(java.util.function.LongSupplier clock) {
        this.clock = clock;
    }

    /**
     * Work that must finish inside each epoch's commit. Both methods run on the committing thread
     * with the barrier lock held.
     */
    public interface EpochParticipant {
        EpochParticipant NONE = new EpochParticipant() {
            @Override
            public void beforeCommit(long epoch, WriteBuffer buffer) {}

            @Override
            public void afterFailedCommit() {}
        };

        /** Adds the epoch's remaining writes to {@code buffer}; throwing fails the epoch. */
        void beforeCommit(long epoch, WriteBuffer buffer);

        /** The epoch was discarded: drop in-memory state derived from it (after the failure hooks ran). */
        void afterFailedCommit();
    }

    /**
     * Hears of every epoch that became durable, for monitoring. Called on the committing thread
     * with the barrier lock held, after the epoch's hooks ran: it must only record (no I/O, no
     * locks, no waiting), or every writer waits with it.
     */
    public interface CommitListener {
        /**
         * @param epoch the epoch now durable
         * @param commitNanos how long the commit took: the streaming engine's barrier plus the synced write
         * @param sinceLastCommitNanos the time since the previous durable epoch (the actual barrier
         *     interval), or -1 for the first epoch since start
         */
        void committed(long epoch, long commitNanos, long sinceLastCommitNanos);
    }

    /** Adds a listener of durable epochs; any thread, takes effect from the next commit. */
    public void addCommitListener(CommitListener listener) {
        commitListeners.add(listener);
    }

    /**
     * The lock every staging, commit and epoch boundary holds. Changes that enter the streaming jobs
     * other than by staging (rows a view reads from another database's log) hold it while they enter,
     * so they fall inside one open epoch, as a staged statement's rows do, and never between a
     * barrier and the boundary changes that follow its commit.
     */
    public java.util.concurrent.locks.Lock stagingLock() {
        return lock;
    }

    /**
     * The time of the open epoch, in Unix millis: the commit time of the epoch before it, which is
     * also the time temporal filters judge the open epoch's changes at. What {@code AS PROCTIME()}
     * columns store for the rows the open epoch ingests. Any thread; exact only under {@link
     * #stagingLock()}, where no barrier can pass.
     */
    public long openEpochMillis() {
        return openEpochMillis;
    }

    /** The configured epoch length, {@code --barrier-interval-ms}. */
    public long intervalMillis() {
        return intervalMs;
    }

    /**
     * How long ago the last epoch became durable, in nanoseconds; -1 before the first. With no
     * statement waiting this stays under the interval plus one commit; more means the barrier is late.
     */
    public long nanosSinceLastCommit() {
        long last = lastCommitNanos;
        return last == 0 ? -1 : System.nanoTime() - last;
    }

    /** Sets the commit participant; called once, before {@link #start()}. */
    public void setParticipant(EpochParticipant participant) {
        this.participant = participant;
    }

    /** Starts the barrier thread; called once, after recovery and before the first {@link #stage}. */
    public void start() {
        openEpochMillis = Math.max(Epoch.millis(store.committedEpoch()), clock.getAsLong());
        thread.start();
    }

    /**
     * Stages {@code change} into the open epoch while no barrier can pass. If its
     * {@link EpochChange#stage} throws, its writes are rolled back and the exception propagates;
     * otherwise exactly one of its hooks runs once the epoch's commit ended. Any thread.
     *
     * @return the ticket to pass to {@link #awaitCommitted}
     * @throws TributaryException 57P01 when the server is shutting down
     */
    public long stage(EpochChange change) {
        boolean raised = lockInForeground();
        try {
            if (stopping) {
                throw new TributaryException(SqlState.ADMIN_SHUTDOWN, "the server is shutting down");
            }
            open.setSavePoint();
            try {
                change.stage(open);
            } catch (RuntimeException | Error e) {
                open.rollbackToSavePoint();
                throw e;
            }
            open.releaseSavePoint();
            staged.add(change);
            return openTicket;
        } finally {
            unlockInForeground(raised);
        }
    }

    /**
     * Like {@link #stage}, but first commits the open epoch, so {@code change} is staged at an
     * epoch boundary: everything staged before is committed and nothing of the new epoch is staged
     * yet. DDL that starts or stops streaming jobs runs here.
     */
    public long stageAtBoundary(EpochChange change) {
        boolean raised = lockInForeground();
        try {
            if (stopping) {
                throw new TributaryException(SqlState.ADMIN_SHUTDOWN, "the server is shutting down");
            }
            commitOpenEpoch();
            return stage(change);
        } finally {
            unlockInForeground(raised);
        }
    }

    /**
     * Like {@link #stageAtBoundary}, then commits the epoch before anything else can stage into
     * it: for a change whose writes the statements after it could not read back from the open
     * epoch (a sorted file handed to the buffer, {@link WriteBuffer#putFile}). Whether the commit
     * succeeded is for {@link #awaitCommitted} to say, as for any ticket.
     */
    public long stageAlone(EpochChange change) {
        boolean raised = lockInForeground();
        try {
            long ticket = stageAtBoundary(change);
            commitOpenEpoch();
            return ticket;
        } finally {
            unlockInForeground(raised);
        }
    }

    /**
     * Blocks until the epoch of {@code ticket} is durable, committing it early if it is still open.
     *
     * @throws InterruptedException when the waiting thread is interrupted (statement cancel); the
     *     changes still commit with their epoch
     */
    public void awaitCommitted(long ticket) throws InterruptedException {
        int yields = 0;
        boolean raised = lockInForeground();
        try {
            while (true) {
                String failure = failures.get(ticket);
                if (failure != null) {
                    throw new TributaryException(SqlState.INTERNAL_ERROR, "commit failed: " + failure);
                }
                if (committedTicket >= ticket) {
                    return;
                }
                if (fatal != null || stopping && !thread.isAlive()) {
                    throw new TributaryException(
                            SqlState.ADMIN_SHUTDOWN,
                            "no epoch can commit: " + (fatal != null ? fatal : "the server is shutting down"));
                }
                if (!stopping && yields < MAX_LEADER_YIELDS && lock.hasQueuedThreads()) {
                    // others are about to stage: let them join this epoch before it closes
                    yields++;
                    committed.await(LEADER_YIELD_MICROS, TimeUnit.MICROSECONDS);
                    continue;
                }
                if (!stopping) {
                    // The waiter commits the open epoch itself: every statement staged so far rides
                    // along (group commit), and the hand-off to the barrier thread and back is saved.
                    commitOpenEpoch();
                    continue;
                }
                committed.await();
            }
        } finally {
            unlockInForeground(raised);
        }
    }

    /**
     * Takes the lock for staging or committing, with the calling thread at its normal priority
     * while it holds it: a background thread (a backfill's, a remote view's takeover) that stages a
     * change or commits an epoch holds what every writer waits for, and at background priority it
     * would run only in what the writers' threads leave of the core while they wait for it.
     *
     * @return whether the thread was raised, for {@link #unlockInForeground}
     */
    private boolean lockInForeground() {
        boolean raised = BackgroundPriority.ofCurrentThread().foreground();
        lock.lock();
        return raised;
    }

    /** Releases the lock taken by {@link #lockInForeground}, lowering the thread again if it raised it. */
    private void unlockInForeground(boolean raised) {
        lock.unlock();
        if (raised) {
            BackgroundPriority.ofCurrentThread().background();
        }
    }

    /** Forces a barrier and waits until everything staged so far is durable. */
    public void flush() throws InterruptedException {
        long ticket;
        lock.lock();
        try {
            ticket = openTicket;
        } finally {
            lock.unlock();
        }
        awaitCommitted(ticket);
    }

    /** The last committed epoch. Any thread. */
    public long committedEpoch() {
        return store.committedEpoch();
    }

    private void run() {
        try {
            loop();
        } catch (Throwable t) {
            // without this thread nothing commits: fail every waiter and refuse new work
            LOG.error("the barrier thread stopped; no further epochs will commit", t);
            lock.lock();
            try {
                stopping = true;
                fatal = String.valueOf(t);
                committed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private void loop() {
        while (true) {
            lock.lock();
            try {
                long deadline = System.nanoTime() + intervalMs * 1_000_000L;
                while (!stopping) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    barrierRequested.awaitNanos(left);
                }
                commitOpenEpoch();
                if (stopping) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Called with the lock held. A failed commit fails the waiters of its ticket only; failures are
     * remembered for the last {@link #FAILURES_KEPT} tickets, far longer than any waiter takes to
     * wake. Hooks of a durable epoch always run.
     */
    private void commitOpenEpoch() {
        WriteBuffer buffer = open;
        long ticket = openTicket;
        List<EpochChange> changes = new ArrayList<>(staged);
        staged.clear();
        open = store.newWriteBuffer();
        openTicket++;
        boolean durable = false;
        long epoch = 0;
        long started = System.nanoTime();
        try {
            epoch = Epoch.next(store.committedEpoch(), clock.getAsLong());
            participant.beforeCommit(epoch, buffer);
            store.commit(epoch, buffer);
            durable = true;
            openEpochMillis = Epoch.millis(epoch);
        } catch (RuntimeException e) {
            LOG.error("epoch commit failed; its changes are discarded", e);
            failures.put(ticket, String.valueOf(e.getMessage()));
            failures.keySet().removeIf(t -> t < ticket - FAILURES_KEPT);
        } finally {
            buffer.close();
        }
        for (EpochChange change : changes) {
            try {
                if (durable) {
                    change.committed();
                } else {
                    change.failed();
                }
            } catch (RuntimeException e) {
                LOG.error("an epoch " + (durable ? "commit" : "failure") + " hook failed", e);
            }
        }
        if (durable) {
            tellListeners(epoch, started);
        } else {
            try {
                participant.afterFailedCommit();
            } catch (RuntimeException e) {
                LOG.error("recovering from a failed epoch failed", e);
            }
        }
        committedTicket = ticket;
        committed.signalAll();
    }

    private void tellListeners(long epoch, long started) {
        long now = System.nanoTime();
        long previous = lastCommitNanos;
        lastCommitNanos = now;
        for (CommitListener listener : commitListeners) {
            try {
                listener.committed(epoch, now - started, previous == 0 ? -1 : now - previous);
            } catch (RuntimeException e) {
                LOG.error("a commit listener failed", e);
            }
        }
    }

    /** Commits what is staged and stops the barrier thread. */
    @Override
    public void close() {
        lock.lock();
        try {
            stopping = true;
            barrierRequested.signal();
        } finally {
            lock.unlock();
        }
        try {
            // no timeout: closing the store under a running synced write would be a native use-after-free
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lock.lock();
        try {
            open.close();
        } finally {
            lock.unlock();
        }
    }
}
