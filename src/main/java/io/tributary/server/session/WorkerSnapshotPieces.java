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
    /** Whether this session's thread has served a worker a snapshot piece (and so runs as background). */
    private boolean servesWorker;

    WorkerSnapshotPieces(Database db, SessionVariables variables) {
        this.db = db;
        this.variables = variables;
    }

    /**
     * A worker reads a piece of an exported snapshot (see {@code SinkManager.snapshotChunk}). The
     * session's thread becomes background work at the first piece: such a connection serves only a
     * worker, and the export must not take the core from the server's writers.
     */
    StatementResult copy(io.tributary.sql.UtilityStatement.CopySnapshot c) {
        if (!servesWorker) {
            servesWorker = true;
            BackgroundPriority.lowerCurrentThread();
        }
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
