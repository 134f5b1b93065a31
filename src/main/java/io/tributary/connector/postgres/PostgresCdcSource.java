package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.Source;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SplitReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A table's {@code postgres-cdc} source: one split, read by {@link PostgresCdcReader}. Holds, from
 * the first open until the first reader takes it, the transaction that imported the slot's
 * exported snapshot; a reader opened without it (after a restart) reads a new snapshot instead.
 * Thread-safe.
 */
final class PostgresCdcSource implements Source {
    private final CdcOptions options;
    private final SourceContext context;
    private final CdcIdentity identity;
    private final int chunkRows;
    /** The upstream description read at the first open, with the held snapshot; null after a restart. */
    private final PgUpstreamTableInfo upstream;

    private final AtomicReference<Connection> heldSnapshot;

    /**
     * @param upstream the upstream table as checked at the first open, or null
     * @param heldSnapshot a connection in a transaction that imported the exported snapshot, or null
     */
    PostgresCdcSource(
            CdcOptions options,
            SourceContext context,
            CdcIdentity identity,
            int chunkRows,
            PgUpstreamTableInfo upstream,
            Connection heldSnapshot) {
        this.options = options;
        this.context = context;
        this.identity = identity;
        this.chunkRows = chunkRows;
        this.upstream = upstream;
        this.heldSnapshot = new AtomicReference<>(heldSnapshot);
    }

    CdcOptions options() {
        return options;
    }

    CdcIdentity slotIdentity() {
        return identity;
    }

    @Override
    public byte[] identity() {
        return identity.encode();
    }

    /** One split, named after the slot. */
    @Override
    public List<String> splits() {
        return List.of(identity.slot());
    }

    @Override
    public SplitReader reader(String split, byte[] position) {
        if (!split.equals(identity.slot())) {
            throw new ConnectorException(SqlState.INTERNAL_ERROR, "postgres-cdc has no split \"" + split + "\"");
        }
        CdcPosition start = position == null ? new CdcPosition.Snapshot(null) : CdcPosition.decode(position);
        if (start instanceof CdcPosition.Streaming) {
            closeQuietly(heldSnapshot.getAndSet(null));
        }
        ChangeDecoder decoder = new ChangeDecoder(options, context.columns(), context.primaryKey());
        return new PostgresCdcReader(this, decoder, chunkRows, start);
    }

    /**
     * A reader of the snapshot after {@code lastKey}. The exported snapshot when it is still held;
     * else (after a restart) a new snapshot of the table as it is now. Resuming by key from a newer
     * snapshot is still exact for the table's final content: rows up to {@code lastKey} came from
     * the older snapshot, the rest from the newer, and streaming from the consistent point replays
     * every change committed since the older one; inserts and updates replace by key and deletes of
     * absent keys do nothing, so replaying changes the newer snapshot already holds is harmless.
     */
    SnapshotReader openSnapshot(List<String> lastKey) throws SQLException {
        Connection held = heldSnapshot.getAndSet(null);
        if (held != null) {
            return new SnapshotReader(held, options, upstream, context.columns(), lastKey);
        }
        Connection connection = PgConnections.plain(options);
        try {
            PgUpstreamTableInfo now = PgUpstreamTableInfo.load(connection, options);
            now.checkFeeds(context, options);
            SnapshotReader.beginTransaction(connection, null);
            return new SnapshotReader(connection, options, now, context.columns(), lastKey);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
    }

    /** Drops the slot and the publication upstream; failures are logged, not thrown. */
    @Override
    public void destroy() {
        closeQuietly(heldSnapshot.getAndSet(null));
        CdcSetup.dropQuietly(options, identity.slot(), identity.publication());
    }

    @Override
    public void close() {
        closeQuietly(heldSnapshot.getAndSet(null));
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            // closing ends the snapshot transaction; nothing more to release
        }
    }
}
