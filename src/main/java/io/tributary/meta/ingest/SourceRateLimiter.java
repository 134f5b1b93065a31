package io.tributary.meta.ingest;

import io.tributary.catalog.SourceDef;

/**
 * A token bucket shared by the split threads of one source, so {@code SOURCE_RATE_LIMIT} bounds
 * the rows per second over the whole table. The bucket holds at most a fifth of a second of rows
 * (at least one), which keeps bursts short after a pause. Thread-safe.
 */
final class SourceRateLimiter {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private long rate;
    private double tokens;
    private long refilledAt = System.nanoTime();

    /** @param rowsPerSecond {@link SourceDef#UNLIMITED}, 0 (paused) or a positive rate */
    SourceRateLimiter(long rowsPerSecond) {
        this.rate = rowsPerSecond;
    }

    /** Changes the rate; threads waiting in {@link #acquire} see it at once. Any thread. */
    synchronized void setRate(long rowsPerSecond) {
        refill();
        rate = rowsPerSecond;
        tokens = Math.min(tokens, burst());
        notifyAll();
    }

    /** Rows per second now: {@link SourceDef#UNLIMITED}, 0 (paused) or a positive rate. */
    synchronized long rate() {
        return rate;
    }

    /**
     * Takes up to {@code max} rows' worth of tokens, waiting at most {@code maxWaitMillis} for one.
     *
     * @return how many rows the caller may read now, 0 when none became available in time
     */
    synchronized int acquire(int max, long maxWaitMillis) throws InterruptedException {
        long deadline = System.nanoTime() + maxWaitMillis * 1_000_000L;
        while (true) {
            if (rate == SourceDef.UNLIMITED) {
                return max;
            }
            refill();
            if (tokens >= 1) {
                int granted = (int) Math.min(max, Math.floor(tokens));
                tokens -= granted;
                return granted;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return 0;
            }
            long untilOne = rate == 0 ? left : (long) Math.ceil((1 - tokens) * NANOS_PER_SECOND / rate);
            long waitNanos = Math.max(1, Math.min(left, untilOne));
            wait(waitNanos / 1_000_000L, (int) (waitNanos % 1_000_000L));
        }
    }

    /** Returns tokens granted by {@link #acquire} but not used (the reader returned fewer rows). */
    synchronized void giveBack(int unused) {
        if (rate > 0 && unused > 0) {
            tokens = Math.min(tokens + unused, burst());
        }
    }

    private void refill() {
        long now = System.nanoTime();
        if (rate > 0) {
            tokens = Math.min(burst(), tokens + (double) (now - refilledAt) * rate / NANOS_PER_SECOND);
        }
        refilledAt = now;
    }

    private double burst() {
        return Math.max(1, rate / 5.0);
    }
}
