package io.tributary.stream.backfill;

import java.util.List;
import java.util.Map;

/**
 * How far a view's backfill is, as of its last checkpoint. Immutable.
 *
 * @param rowsDone snapshot rows and change-log changes read so far (survives restarts)
 * @param rowsExpected the upstreams' rows at the snapshot epoch plus the changes read from their
 *     logs, or -1 while the snapshot is still being counted
 * @param caughtUp every source has read its upstreams through the last committed epoch it saw
 * @param rowsPerSecond the average read rate since the job (re)started
 * @param consumedThrough per upstream relation id, the epoch through which every vnode has read
 *     it: its change log up to there is no longer needed by this job
 * @param vnodes per source and vnode, where the backfill stands
 */
public record BackfillProgress(
        long rowsDone,
        long rowsExpected,
        boolean caughtUp,
        long rowsPerSecond,
        Map<Integer, Long> consumedThrough,
        List<Vnode> vnodes) {

    /** One vnode of one source: phase {@code snapshot} or {@code log}, the epoch read through, rows read. */
    public record Vnode(int source, int vnode, String phase, long epoch, long rows) {}
}
