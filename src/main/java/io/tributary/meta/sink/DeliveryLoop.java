package io.tributary.meta.sink;

import io.tributary.catalog.SinkDef;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sink's delivery thread with its own connection to the target: it runs {@link #deliver} and,
 * when the target fails (down, connection killed, a statement refused), records the error in its
 * progress, drops the connection and tries again with a backoff doubling from 100 ms to 10 s. A
 * failed transaction commits nothing, and every attempt starts from the position the target
 * holds, so retrying never loses or doubles a change. Started and stopped by {@link RunningSink}.
 *
 * <p>Stopping never interrupts the thread: it may be doing file I/O for the whole process (a
 * backfill's last step waits for an epoch commit, and the waiter runs the commit and its hooks,
 * such as unpinning a snapshot), and an interrupt would close the file channel under it. A stop
 * sets a flag, aborts the target connection, wakes the loop's waits ({@link #pause}, the rate
 * limiter) and joins.
 */
abstract class DeliveryLoop implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryLoop.class);
    private static final long MIN_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 10_000;

    protected final RunningSink sink;
    protected final SinkProgress progress;
    private final String name;
    private volatile boolean stopping;
    private volatile Connection connection;
    private Thread thread;
    /** What {@link #pause} waits on; {@link #stop} notifies it. */
    private final Object wakeup = new Object();

    DeliveryLoop(RunningSink sink, SinkProgress progress, String name) {
        this.sink = sink;
        this.progress = progress;
        this.name = name;
    }

    void start() {
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Stops the thread and waits for it (up to 10 s): a transaction in flight is rolled back by the
     * target. Any thread but this loop's own.
     */
    void stop() {
        stopping = true;
        Connection c = connection;
        if (c != null) {
            try {
                c.abort(Runnable::run);
            } catch (SQLException | RuntimeException e) {
                // closing anyway
            }
        }
        sink.limiter().wake();
        synchronized (wakeup) {
            wakeup.notifyAll();
        }
        if (thread != null) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    boolean stopping() {
        return stopping;
    }

    /** This loop's thread: waits {@code millis}, or less when {@link #stop} is called. */
    protected final void pause(long millis) throws InterruptedException {
        synchronized (wakeup) {
            if (!stopping) {
                wakeup.wait(millis);
            }
        }
    }

    /**
     * This loop's thread: waits up to {@code millis} unless {@code ready} holds, or less when
     * {@link #wake} or {@link #stop} is called. {@code ready} is checked under the lock {@link
     * #wake} takes, so a wake after the check is not lost.
     */
    protected final void pauseUnless(BooleanSupplier ready, long millis) throws InterruptedException {
        synchronized (wakeup) {
            if (!stopping && !ready.getAsBoolean()) {
                wakeup.wait(millis);
            }
        }
    }

    /** Ends a {@link #pauseUnless} or {@link #pause} early; any thread, must not block. */
    protected final void wake() {
        synchronized (wakeup) {
            wakeup.notifyAll();
        }
    }

    @Override
    public final void run() {
        long backoff = MIN_BACKOFF_MS;
        while (!stopping) {
            Connection c = null;
            try {
                SinkDef def = sink.def();
                c = TargetTable.connect(def.target());
                connection = c;
                sink.table().openSession(c);
                if (deliver(c, () -> progressMade())) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            } catch (Fatal e) {
                progress.failed(e.getMessage());
                progress.phase("failed");
                LOG.error("{}: {}; delivery stopped", name, e.getMessage());
                return;
            } catch (Exception e) {
                if (stopping) {
                    return;
                }
                String message = e.getMessage() == null ? e.toString() : e.getMessage();
                progress.failed(message);
                progress.phase("retrying");
                LOG.warn("{}: {}; retrying in {} ms", name, message, backoff);
            } finally {
                connection = null;
                close(c);
            }
            if (progressed) {
                // the target worked until this failure: a fresh failure, not a long outage
                backoff = MIN_BACKOFF_MS;
                progressed = false;
            }
            try {
                pause(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
        }
    }

    /** Whether a transaction committed since the last failure; this thread only. */
    private boolean progressed;

    private void progressMade() {
        progressed = true;
    }

    /**
     * Delivers over {@code c} (autocommit off, staging table made) until stopped or done.
     *
     * @param madeProgress to call after each committed transaction, so the next failure retries soon
     * @return true when this loop's work is done for good (a completed backfill)
     * @throws Fatal for an error retrying cannot cure
     */
    protected abstract boolean deliver(Connection c, Runnable madeProgress) throws Exception;

    /** An error retrying cannot cure: the loop stops with it in its progress. */
    static final class Fatal extends RuntimeException {
        Fatal(String message) {
            super(message);
        }
    }

    private static void close(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // the connection is gone already
            }
        }
    }
}
