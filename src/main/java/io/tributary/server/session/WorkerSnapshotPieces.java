package io.tributary.server.session;

import io.tributary.common.BackgroundPriority;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.Database;
import java.util.List;

/**
 * {@code COPY tributary_snapshot(...) TO STDOUT}: the pieces of an exported snapshot a worker reads
 * over a session's connection. Used by one session on the thread running its statement; not
 * thread-safe.
 */
final class WorkerSnapshotPieces {
    private final Database db;
    private final SessionVariables variables;
    /**
     * Whether this session's thread runs as background for good: where a thread cannot take its
     * priority back, from the first piece it serves.
     */
    private boolean backgroundForGood;

    WorkerSnapshotPieces(Database db, SessionVariables variables) {
        this.db = db;
        this.variables = variables;
    }

    /**
     * A worker reads a piece of an exported snapshot (see {@code SinkManager.snapshotChunk}), as
     * background work, which must not take the core from the server's writers. A binary piece is
     * read and encoded whole before it is sent, and the thread is raised again before it hands the
     * piece to the connection: a background thread handing bytes to Netty takes the event loop's
     * selector lock to wake it, the kernel preempts it there whenever a writer's thread wakes, and
     * the event loop, which serves the writers' connections too, then waited on that lock for up
     * to tens of milliseconds (session 40's profile of {@code bench remote}). A text piece's rows
     * are encoded as they are sent, so its thread stays background for good from then on, as it
     * does where a thread cannot take its priority back: such a connection serves only a worker.
     */
    StatementResult copy(io.tributary.sql.UtilityStatement.CopySnapshot c) {
        BackgroundPriority.LoweredThread lowered =
                c.binary() ? BackgroundPriority.lowerCurrentThreadRestorably() : BackgroundPriority.LoweredThread.NONE;
        if (!lowered.isLowered() && !backgroundForGood) {
            backgroundForGood = true;
            BackgroundPriority.lowerCurrentThread();
        }
        try {
            return piece(c);
        } finally {
            lowered.raise();
        }
    }

    private StatementResult piece(io.tributary.sql.UtilityStatement.CopySnapshot c) {
        byte[] after = null;
        if (!c.afterKeyHex().isEmpty()) {
            try {
                after = java.util.HexFormat.of().parseHex(c.afterKeyHex());
            } catch (IllegalArgumentException e) {
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "tributary_snapshot's key must be hexadecimal digits");
            }
        }
        if (c.binary()) {
            io.tributary.meta.sink.SnapshotBinaryPiece piece =
                    db.snapshotBinary(c.snapshotId(), c.vnode(), c.lastVnode(), after, c.limit());
            return new StatementResult.CopyOutBinary(piece.fields(), piece.body(), piece.rows());
        }
        if (c.lastVnode() != c.vnode()) {
            throw TributaryException.notSupported("tributary_snapshot over several vnodes in the text format");
        }
        io.tributary.meta.sink.SnapshotChunk chunk = db.snapshotChunk(c.snapshotId(), c.vnode(), after, c.limit());
        List<ColumnDesc> columns = new java.util.ArrayList<>();
        for (int i = 0; i < chunk.names().size(); i++) {
            columns.add(new ColumnDesc(chunk.names().get(i), chunk.types().get(i)));
        }
        return new StatementResult.CopyOut(
                columns, new ListCursor(chunk.rows()), new CopyOutEncoder(columns, c.format(), variables.timeZone()));
    }
}
