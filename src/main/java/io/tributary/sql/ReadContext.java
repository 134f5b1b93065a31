package io.tributary.sql;

import io.tributary.batch.Snapshot;

/**
 * What a running query reads from: the statement's snapshots and its cancel flag. Implemented by
 * the session, which opens one snapshot per statement and per database read; called on the
 * session's thread.
 */
public interface ReadContext {
    /** The snapshot of the statement being executed. */
    Snapshot snapshot();

    /**
     * The running statement's snapshot of {@code database}, another database of the cluster: the
     * latest epoch committed there when the statement first reads it, kept until the statement
     * ends, so every scan of that database within one statement reads the same epoch.
     *
     * @throws io.tributary.common.TributaryException 3D000 when the database no longer exists
     */
    Snapshot snapshot(String database);

    /** The running statement's cancel flag, timeout and memory budget. */
    StatementControl control();
}
