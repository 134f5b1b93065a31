package io.tributary.catalog;

import java.util.List;

/**
 * A sink in the catalog: a relation whose changes are delivered, exactly once, to a table of a
 * PostgreSQL database (docs/ARCHITECTURE.md, Sinks). Immutable; a changed sink is a new record
 * under the same id.
 *
 * <p>Epochs are the sink's versions: the target's {@code processor_status.last_success_version}
 * is the last epoch whose changes the target holds. {@code headStartEpoch} is the epoch the sink
 * was created at: the head delivers every epoch after it. When a snapshot is being copied,
 * {@code snapshotEpoch} is the epoch of the copy and {@code pin} the store's pin holding it;
 * {@code generation} counts the copies (0 at CREATE, +1 per RESYNC).
 *
 * @param id never reused, also the sink's pin and marker names
 * @param relationId the relation delivered
 * @param definition the CREATE SINK statement, with the password replaced
 * @param target where and how the rows go
 * @param rateLimit rows per second over head and backfill, {@link SourceDef#UNLIMITED} for none, 0 pauses
 * @param pin the pinned snapshot being copied, null when no copy was asked for or it is complete
 */
public record SinkDef(
        int id,
        String name,
        int relationId,
        String relationName,
        String definition,
        Target target,
        long rateLimit,
        long headStartEpoch,
        int generation,
        long snapshotEpoch,
        String pin) {

    /**
     * The target table and how rows are written. {@code primaryKey} names the target's key
     * columns for upsert (the relation's key), empty for append-only. {@code remoteBackfill}: the
     * backfill runs on a worker when the server has a jobs database; {@code fallbackToLocal}: it
     * may then run here when no worker can take it (records stored before these options read as
     * false, false: local). {@code forceAppendOnly} (append-only only, RisingWave's
     * {@code force_append_only}): an UPDATE is delivered as an insert of the new row and a DELETE is
     * dropped, instead of stopping the sink (older records read as false).
     */
    public record Target(
            String jdbcUrl,
            String user,
            String password,
            String schema,
            String table,
            boolean upsert,
            List<String> primaryKey,
            boolean snapshot,
            String backfillAlias,
            boolean remoteBackfill,
            boolean fallbackToLocal,
            boolean forceAppendOnly) {}

    public SinkDef withRateLimit(long rowsPerSecond) {
        return new SinkDef(
                id,
                name,
                relationId,
                relationName,
                definition,
                target,
                rowsPerSecond,
                headStartEpoch,
                generation,
                snapshotEpoch,
                pin);
    }

    /** The sink copying a new snapshot, of {@code epoch} pinned as {@code pinName}. */
    public SinkDef withSnapshot(int newGeneration, long epoch, String pinName) {
        return new SinkDef(
                id,
                name,
                relationId,
                relationName,
                definition,
                target,
                rateLimit,
                headStartEpoch,
                newGeneration,
                epoch,
                pinName);
    }
}
