package io.tributary.stream.backfill;

/**
 * The rows per second each parallel unit of a backfill may read: unlimited, a positive limit, or
 * 0 to pause. Changed by ALTER on a session thread, read by the job's actors; takes effect at
 * their next step.
 */
public final class BackfillRate {
    public static final long UNLIMITED = -1;

    private volatile long rowsPerSecond;

    public BackfillRate(long rowsPerSecond) {
        set(rowsPerSecond);
    }

    /** @param rowsPerSecond {@link #UNLIMITED}, 0 (paused) or a positive limit */
    public void set(long rowsPerSecond) {
        if (rowsPerSecond < UNLIMITED) {
            throw new IllegalArgumentException("not a rate: " + rowsPerSecond);
        }
        this.rowsPerSecond = rowsPerSecond;
    }

    public long get() {
        return rowsPerSecond;
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
