package io.tributary.meta.sink;

/**
 * What one delivery thread of a sink (its head or its backfill) has done, for {@code
 * tributary_catalog.sink_progress}. Written by that thread, read by any.
 */
public final class SinkProgress {
    private volatile String phase;
    private volatile long epoch;
    private volatile long rows;
    private volatile String lastError;
    private volatile long errorAtMillis;

    SinkProgress(String phase) {
        this.phase = phase;
    }

    void phase(String now) {
        phase = now;
    }

    /** The target committed through {@code deliveredEpoch}, {@code more} rows with it. */
    void delivered(long deliveredEpoch, long more) {
        epoch = deliveredEpoch;
        rows += more;
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

    public long errorAtMillis() {
        return errorAtMillis;
    }
}
