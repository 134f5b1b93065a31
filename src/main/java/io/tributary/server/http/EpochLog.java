package io.tributary.server.http;

import io.tributary.meta.epoch.BarrierManager;
import java.util.ArrayList;
import java.util.List;

/**
 * The last {@value #CAPACITY} durable epochs with when they committed and how long the commit
 * took, for the dashboard's commit latency chart. Fed by the barrier thread; read by HTTP requests.
 */
final class EpochLog implements BarrierManager.CommitListener {
    static final int CAPACITY = 600;

    /** One committed epoch: wall-clock milliseconds and the commit's duration in milliseconds. */
    record Commit(long epoch, long atMillis, double commitMillis) {}

    private final long[] epochs = new long[CAPACITY];
    private final long[] at = new long[CAPACITY];
    private final long[] nanos = new long[CAPACITY];
    private long count;

    /** Records the commit in a ring; no allocation on the barrier thread. */
    @Override
    public synchronized void committed(long epoch, long commitNanos, long sinceLastCommitNanos) {
        int i = (int) (count % CAPACITY);
        epochs[i] = epoch;
        at[i] = System.currentTimeMillis();
        nanos[i] = commitNanos;
        count++;
    }

    /** The commits kept, oldest first. */
    synchronized List<Commit> commits() {
        int n = (int) Math.min(count, CAPACITY);
        List<Commit> out = new ArrayList<>(n);
        for (long k = count - n; k < count; k++) {
            int i = (int) (k % CAPACITY);
            out.add(new Commit(epochs[i], at[i], nanos[i] / 1e6));
        }
        return out;
    }
}
