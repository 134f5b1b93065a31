package io.tributary.sql;

import io.tributary.batch.Snapshot;

/**
 * What a running query reads from: the statement's snapshot and its cancel flag. Implemented by
 * the session, which opens one snapshot per statement; called on the session's thread.
 */
public interface ReadContext {
    /** The snapshot of the statement being executed. */
    Snapshot snapshot();

    /** The running statement's cancel flag, timeout and memory budget. */
    StatementControl control();
}
