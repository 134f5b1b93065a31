package io.tributary.meta.ddl;

import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.meta.jobs.JobPayload;
import io.tributary.meta.jobs.RemoteJob;
import java.util.List;

/**
 * The payload of a view's remote snapshot phase ({@link RemoteJob#VIEW_SNAPSHOT}), format {@link
 * RemoteJob#FORMAT_VERSION}: the view's record (its query, and the ids of its table and operator
 * state tables in this server), the records of the relations it reads, and the epoch of the pinned
 * snapshot. The worker rebuilds the view from these in a scratch database (same planner, same
 * operators), reads each relation's snapshot with {@code COPY tributary_snapshot('view:<view>:<relation>:<epoch>',
 * ...)}, and hands back the view's state under this server's table ids. JSON, like the catalog
 * records it carries. Immutable.
 *
 * @param database the database the view is in: the worker reads the snapshot in a session of it
 * @param view the view as this server stores it
 * @param upstreams the relations the view reads, in the order of {@code view.dependsOn()}
 * @param rateLimit the view's backfill rate limit when the job was queued (rows/s per parallel
 *     unit); the worker's build keeps to a positive one, and reads unthrottled otherwise (a
 *     payload of a build that predates the field reads as 0)
 */
public record ViewSnapshotJob(
        int formatVersion,
        String database,
        long snapshotEpoch,
        TableDef view,
        List<TableDef> upstreams,
        long rateLimit) {
    private static final String SNAPSHOT_PREFIX = "view:";

    /**
     * The table id a checkpoint's vnode positions are staged under (keys {@code [table][vnode]
     * [source ordinal]} as in a backfill's progress table, values at this job's snapshot epoch):
     * the progress table is the server's own, not in the payload, and the server moves them there.
     */
    public static final int POSITIONS_TABLE = -1;

    /** The id, within its database, of the job computing view {@code viewId}'s snapshot phase. */
    static String localJobId(int viewId) {
        return "view-" + viewId;
    }

    /** The exported-snapshot id of relation {@code relationId} as this job's snapshot holds it. */
    public String snapshotId(int relationId) {
        return SNAPSHOT_PREFIX + view.id() + ":" + relationId + ":" + snapshotEpoch;
    }

    /** Whether {@code snapshotId} names a view job's snapshot (else it is a sink's). */
    public static boolean isViewSnapshot(String snapshotId) {
        return snapshotId.startsWith(SNAPSHOT_PREFIX);
    }

    /**
     * The table ids whose rows make up the view's state in this server: the view's own table, then
     * its operator state tables in plan order. A worker's scratch view has the same number, in the same order.
     */
    public int[] stateTables() {
        int[] state = view.stateTableIds();
        int[] out = new int[state.length + 1];
        out[0] = view.id();
        System.arraycopy(state, 0, out, 1, state.length);
        return out;
    }

    public byte[] encode() {
        return JobPayload.encode(this);
    }

    /**
     * Reads a payload.
     *
     * @throws TributaryException 0A000 when it is of another format version than this build's
     */
    public static ViewSnapshotJob decode(byte[] payload) {
        return JobPayload.decode(payload, ViewSnapshotJob.class, ViewSnapshotJob::formatVersion);
    }
}
