package io.tributary.stream.backfill;

/**
 * The rows per second each parallel unit of a backfill may read: unlimited, a positive limit, or
 * 0 to pause. Changed by ALTER (or a remote job's placement) on a session or job thread, read by
 * the job's actors; takes effect at their next step. A change wakes the actors that wait on it
 * ({@link #wakeOnChange}), so a paused actor need not poll for its resumption.
 */
public final class BackfillRate {
    public static final long UNLIMITED = -1;

    private volatile long rowsPerSecond;

    /** The threads {@link #set} wakes: the actors reading with this rate. */
    private final java.util.List<Thread> waiters = new java.util.concurrent.CopyOnWriteArrayList<>();

    public BackfillRate(long rowsPerSecond) {
        set(rowsPerSecond);
    }

    /** @param rowsPerSecond {@link #UNLIMITED}, 0 (paused) or a positive limit */
    public void set(long rowsPerSecond) {
        if (rowsPerSecond < UNLIMITED) {
            throw new IllegalArgumentException("not a rate: " + rowsPerSecond);
        }
        this.rowsPerSecond = rowsPerSecond;
        for (Thread t : waiters) {
            java.util.concurrent.locks.LockSupport.unpark(t);
        }
    }

    public long get() {
        return rowsPerSecond;
    }

    /** Whether the rate is 0: nothing is read until {@link #set} changes it. */
    public boolean paused() {
        return rowsPerSecond == 0;
    }

    /**
     * Makes every later {@link #set} unpark {@code thread}; called once by each actor thread reading
     * with this rate, on that thread, before it first parks. A thread that ends stays listed (an
     * unpark of it does nothing) until the job and this rate are gone.
     */
    public void wakeOnChange(Thread thread) {
        if (!waiters.contains(thread)) {
            waiters.add(thread);
        }
    }

    /** A token bucket over this rate for one actor; one thread. */
    final class Bucket {
        private double tokens;
        private long last = System.nanoTime();

        /** How many rows may be read now, at most {@code wanted}; 0 when the rate allows none yet. */
        int take(int wanted) {
            long rate = rowsPerSecond;
            long now = System.nanoTime();
            double elapsed = (now - last) / 1e9;
            last = now;
            if (rate == UNLIMITED) {
                return wanted;
            }
            if (rate == 0) {
                tokens = 0;
                return 0;
            }
            // at most one second of burst, so a raised or resumed rate does not release a flood
            tokens = Math.min(Math.max(rate, 1), tokens + elapsed * rate);
            int granted = (int) Math.min(wanted, Math.floor(tokens));
            tokens -= granted;
            return granted;
        }

        /** Returns rows taken but not read. */
        void giveBack(int rows) {
            if (rowsPerSecond != UNLIMITED) {
                tokens += rows;
            }
        }
    }
}
