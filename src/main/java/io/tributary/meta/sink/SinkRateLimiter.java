package io.tributary.meta.sink;

import io.tributary.catalog.SourceDef;
import java.util.function.BooleanSupplier;

/**
 * The rows per second a sink may write over its head and its backfill together ({@code
 * SINK_RATE_LIMIT}): a token bucket that lets a batch through at once and makes the next one wait
 * for the debt. A rate of 0 pauses both until the rate changes. Thread-safe.
 */
final class SinkRateLimiter {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private long rate;
    private double tokens;
    private long refilledAt = System.nanoTime();

    /** @param rowsPerSecond {@link SourceDef#UNLIMITED}, 0 (paused) or a positive rate */
    SinkRateLimiter(long rowsPerSecond) {
        this.rate = rowsPerSecond;
    }

    synchronized void setRate(long rowsPerSecond) {
        refill();
        rate = rowsPerSecond;
        tokens = Math.min(tokens, Math.max(1, rate));
        notifyAll();
    }

    synchronized long rate() {
        return rate;
    }

    synchronized boolean paused() {
        return rate == 0;
    }

    /**
     * Waits until {@code rows} may be written: while paused, then for the bucket's debt; gives up
     * when {@code stopped} turns true (checked after each {@link #wake}).
     *
     * @return false when it gave up because the caller is stopping
     */
    synchronized boolean acquire(long rows, BooleanSupplier stopped) throws InterruptedException {
        while (rate == 0) {
            if (stopped.getAsBoolean()) {
                return false;
            }
            wait();
        }
        if (rate == SourceDef.UNLIMITED) {
            return true;
        }
        refill();
        tokens -= rows;
        while (tokens < 0 && rate > 0) {
            if (stopped.getAsBoolean()) {
                return false;
            }
            long waitMillis = Math.max(1, (long) (-tokens * 1000 / rate));
            wait(waitMillis);
            refill();
            if (rate == SourceDef.UNLIMITED) {
                return true;
            }
        }
        return !stopped.getAsBoolean();
    }

    /** Wakes every waiting {@link #acquire}, so a caller that is stopping sees it; any thread. */
    synchronized void wake() {
        notifyAll();
    }

    private void refill() {
        long now = System.nanoTime();
        if (rate > 0) {
            tokens = Math.min(Math.max(1, rate), tokens + (double) (now - refilledAt) * rate / NANOS_PER_SECOND);
        }
        refilledAt = now;
    }
}
