package io.tributary.meta.sink;

/**
 * What one delivery thread of a sink (its head or its backfill) has done, for {@code
 * tributary_catalog.sink_progress}. Written by that thread (and by a backfill's range threads:
 * {@link #delivered} adds up under a lock), read by any.
 */
public final class SinkProgress {
    private volatile String phase;
    private volatile long epoch;
    private volatile long rows;
    private volatile String lastError;
    private volatile long errorAtMillis;
    private volatile int vnodesDone = -1;

    SinkProgress(String phase) {
        this.phase = phase;
    }

    void phase(String now) {
        phase = now;
    }

    /** The target committed through {@code deliveredEpoch}, {@code more} rows with it. */
    synchronized void delivered(long deliveredEpoch, long more) {
        epoch = deliveredEpoch;
        rows += more;
    }

    /** A backfill's target holds every row of {@code done} vnodes of its snapshot. */
    void vnodesDone(int done) {
        vnodesDone = done;
    }

    void failed(String error) {
        lastError = error;
        errorAtMillis = System.currentTimeMillis();
    }

    public String phase() {
        return phase;
    }

    /** The last epoch the target holds (for a backfill, its snapshot's epoch); 0 before the first delivery. */
    public long epoch() {
        return epoch;
    }

    public long rows() {
        return rows;
    }

    /** The last error, kept after recovery so it can be seen; null when there was none. */
    public String lastError() {
        return lastError;
    }

    /**
     * For a backfill: how many vnodes of its snapshot, of {@code VirtualNodes.COUNT}, the target
     * holds whole (it copies all vnodes merged in key order, so they finish together near the end);
     * -1 for a head.
     */
    public int vnodesDone() {
        return vnodesDone;
    }

    public long errorAtMillis() {
        return errorAtMillis;
    }
}
