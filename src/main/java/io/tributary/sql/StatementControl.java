package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Whether the statement a session runs may go on, and how much memory its materializing operators
 * hold. One per session, reused by its statements.
 *
 * <p>Threading: {@link #cancel} and {@link #connectionLost} may be called from any thread (a
 * cancelling connection, the event loop, the timeout timer); everything else runs on the
 * session's thread. {@link #check} is on the hot path of every query loop: it reads one volatile
 * field.
 */
public final class StatementControl {
    /** Why a statement stops early; the message is PostgreSQL's. */
    public enum Reason {
        USER_REQUEST("canceling statement due to user request"),
        STATEMENT_TIMEOUT("canceling statement due to statement timeout"),
        CONNECTION_LOST("canceling statement because the connection to the client was lost");

        private final String message;

        Reason(String message) {
            this.message = message;
        }
    }

    /** One timer thread for the statement timeouts of every session; its tasks only set a flag. */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "statement-timeout");
        t.setDaemon(true);
        return t;
    });

    private final long memoryLimit;
    /** Guards {@link #busy}, {@link #timer} and {@link #timerGeneration} against racing stops. */
    private final Object lock = new Object();
    /**
     * How many pieces of work for the client are open (planning, executing, fetching rows, a COPY
     * in progress); the statement can be stopped while this is positive.
     */
    private int busy;
    /** Set when the running statement must stop; null while it may go on. */
    private volatile Reason stop;
    /** Once set, every later check fails: nobody is left to receive results. */
    private volatile boolean connectionLost;

    private ScheduledFuture<?> timer;
    /** Counts armed timers, so a timer firing after its statement ended cannot stop the next one. */
    private long timerGeneration;

    private long memoryHeld;

    /** @param memoryLimit bytes the materializing operators of one statement may hold */
    public StatementControl(long memoryLimit) {
        if (memoryLimit <= 0) {
            throw new IllegalArgumentException("memory limit must be positive: " + memoryLimit);
        }
        this.memoryLimit = memoryLimit;
    }

    /**
     * Marks the start of work for the client's current statement and, when no timer runs yet and
     * {@code timeoutMillis} is positive, starts the statement's timeout. Pieces of work nest: each
     * enter is matched by one {@link #exit}. Session thread.
     */
    public void enter(long timeoutMillis) {
        synchronized (lock) {
            busy++;
            if (timer == null && timeoutMillis > 0) {
                long generation = ++timerGeneration;
                timer = TIMER.schedule(() -> timedOut(generation), timeoutMillis, TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * Marks the end of a piece of work. With {@code ends} set (the statement, or a fetch of its
     * rows, is over) a stop that arrived too late to be seen is dropped, so it cannot hit the next
     * statement. Session thread.
     */
    public void exit(boolean ends) {
        synchronized (lock) {
            busy--;
            if (ends && !connectionLost) {
                stop = null;
            }
        }
    }

    /**
     * Ends the statement's timeout: the protocol is about to report that the session is idle, or
     * moves on to the next statement of a simple Query. When no cursor or COPY is left open, no
     * operator can hold memory any more, so the account restarts from zero (an operator that
     * failed may not have closed its input). Session thread.
     */
    public void endStatement() {
        synchronized (lock) {
            if (busy == 0) {
                memoryHeld = 0;
            }
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
            timerGeneration++;
            if (!connectionLost) {
                stop = null;
            }
        }
    }

    private void timedOut(long generation) {
        synchronized (lock) {
            if (generation == timerGeneration && busy > 0) {
                stop = Reason.STATEMENT_TIMEOUT;
            }
        }
    }

    /** Stops the running statement; ignored while the session is idle, as in PostgreSQL. Any thread. */
    public void cancel(Reason reason) {
        synchronized (lock) {
            if (busy > 0) {
                stop = reason;
            }
        }
    }

    /** The client is gone: the running statement and every later one stop at their next check. Any thread. */
    public void connectionLost() {
        synchronized (lock) {
            connectionLost = true;
            stop = Reason.CONNECTION_LOST;
        }
    }

    /** True once {@link #connectionLost()} was called. */
    public boolean isConnectionLost() {
        return connectionLost;
    }

    /**
     * Throws 57014 when the running statement must stop. Cheap enough for every row of every
     * operator.
     */
    public void check() {
        Reason r = stop;
        if (r != null) {
            throw stopped(r);
        }
    }

    private TributaryException stopped(Reason r) {
        synchronized (lock) {
            if (!connectionLost) {
                stop = null;
            }
        }
        return new TributaryException(SqlState.QUERY_CANCELED, r.message);
    }

    /**
     * Accounts {@code bytes} more held by a materializing operator of the running statement.
     *
     * @throws TributaryException 53200 when the statement would then hold more than its budget
     */
    public void reserve(long bytes) {
        long held = memoryHeld + bytes;
        if (held > memoryLimit) {
            throw new TributaryException(
                    SqlState.OUT_OF_MEMORY,
                    "out of memory",
                    0,
                    "The query needs more than the " + (memoryLimit >> 20)
                            + " MB a query may hold for sorting, hashing and grouping.",
                    "Raise the server's --query-memory, or make the query read fewer rows.",
                    null);
        }
        memoryHeld = held;
    }

    /** Gives back bytes accounted with {@link #reserve}. */
    public void release(long bytes) {
        memoryHeld -= bytes;
    }

    /** Bytes the running statement's materializing operators hold now, as accounted. */
    public long memoryHeld() {
        return memoryHeld;
    }
}
