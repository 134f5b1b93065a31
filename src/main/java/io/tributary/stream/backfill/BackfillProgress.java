package io.tributary.stream.backfill;

import java.util.List;
import java.util.Map;

/**
 * How far a view's backfill is, as of its last checkpoint. Immutable.
 *
 * @param rowsDone snapshot rows and change-log changes read so far (survives restarts)
 * @param rowsRead the same, counting also what was read since the last checkpoint: at least
 *     {@code rowsDone}; a restart goes back to {@code rowsDone} and reads the rest again. A
 *     checkpoint can be tens of seconds away (they are spaced by their own cost), so this is the
 *     figure that moves while the job works
 * @param rowsExpected the upstreams' rows at the snapshot epoch plus the changes read from their
 *     logs, or -1 while the snapshot is still being counted
 * @param caughtUp every source has read its upstreams through the last committed epoch it saw
 * @param rowsPerSecond the average read rate since the job (re)started, of rows read
 * @param consumedThrough per upstream relation id, the epoch through which every vnode has read
 *     it: its change log up to there is no longer needed by this job
 * @param vnodes per source and vnode, where the backfill stands
 */
public record BackfillProgress(
        long rowsDone,
        long rowsRead,
        long rowsExpected,
        boolean caughtUp,
        long rowsPerSecond,
        Map<Integer, Long> consumedThrough,
        List<Vnode> vnodes) {

    /**
     * This progress with {@code read} rows read (at least {@link #rowsDone}) and the rate that
     * gives.
     */
    public BackfillProgress withRowsRead(long read, long perSecond) {
        return new BackfillProgress(
                rowsDone, Math.max(rowsDone, read), rowsExpected, caughtUp, perSecond, consumedThrough, vnodes);
    }

    /** One vnode of one source: phase {@code snapshot} or {@code log}, the epoch read through, rows read. */
    public record Vnode(int source, int vnode, String phase, long epoch, long rows) {}
}
