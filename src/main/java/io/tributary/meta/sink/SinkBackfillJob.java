package io.tributary.meta.sink;

import io.tributary.catalog.SinkDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.meta.jobs.JobPayload;
import io.tributary.meta.jobs.RemoteJob;

/**
 * The payload of a remote sink backfill ({@link RemoteJob#SINK_BACKFILL}), format {@link
 * RemoteJob#FORMAT_VERSION}: the sink's record as of its snapshot, the relation's definition (for
 * the target's columns) and the snapshot's exported id. Workers find the server that serves it in
 * the jobs database ({@code tributary_jobs_format.server_address}).
 * JSON, like the catalog records it carries. Immutable.
 *
 * @param database the database the sink is in: the worker reads the snapshot in a session of it
 * @param snapshotId the id {@link SinkManager#snapshotChunk} accepts: {@code sink:<id>:<generation>:<epoch>}
 */
public record SinkBackfillJob(int formatVersion, String database, String snapshotId, SinkDef sink, TableDef relation) {

    /**
     * The id, within its database, of the job copying the record's generation of the sink: the
     * catalog names it again after a restart ({@link io.tributary.meta.jobs.JobPlacement#jobId} makes
     * it unique across databases).
     */
    static String localJobId(SinkDef def) {
        return "sink-" + def.id() + "-g" + def.generation();
    }

    /** The snapshot id of the record's pinned snapshot. */
    static String snapshotId(SinkDef def) {
        return "sink:" + def.id() + ":" + def.generation() + ":" + def.snapshotEpoch();
    }

    public byte[] encode() {
        return JobPayload.encode(this);
    }

    /**
     * Reads a payload.
     *
     * @throws TributaryException 0A000 when it is of another format version than this build's
     */
    public static SinkBackfillJob decode(byte[] payload) {
        return JobPayload.decode(payload, SinkBackfillJob.class, SinkBackfillJob::formatVersion);
    }
}
