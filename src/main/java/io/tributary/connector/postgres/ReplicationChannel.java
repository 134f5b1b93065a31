package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;

/**
 * A running logical replication stream from the source's slot. The reader thread reads from it
 * while checkpoint completions (on other threads) confirm LSNs on it, so every use of the stream is
 * synchronized. pgjdbc's automatic flush is off: it would confirm the server's keepalive LSNs on its
 * own, and PostgreSQL may recycle WAL only once Tributary committed what precedes it.
 */
final class ReplicationChannel implements AutoCloseable {
    private static final int STATUS_INTERVAL_SECONDS = 10;
    /** Reads never block long (readPending), so a read this slow means the server is gone. */
    private static final int SOCKET_TIMEOUT_SECONDS = 60;

    private final Connection connection;
    private final PGReplicationStream stream;
    private long confirmed;
    private boolean closed;

    private ReplicationChannel(Connection connection, PGReplicationStream stream) {
        this.connection = connection;
        this.stream = stream;
    }

    /**
     * Starts streaming the slot's changes of transactions that commit at or after {@code startLsn}.
     *
     * @return the channel, or null when the slot is still in use by another connection (e.g. the
     *     walsender of a connection that just closed has not exited yet); try again later
     * @throws ConnectorException when the slot is gone or the server cannot be reached
     */
    static ReplicationChannel start(CdcOptions options, CdcIdentity identity, long startLsn) {
        Connection connection = PgConnections.replication(options, SOCKET_TIMEOUT_SECONDS);
        try {
            PGReplicationStream stream = connection
                    .unwrap(PGConnection.class)
                    .getReplicationAPI()
                    .replicationStream()
                    .logical()
                    .withSlotName(identity.slot())
                    .withSlotOption("proto_version", 1)
                    .withSlotOption("publication_names", identity.publication())
                    .withStartPosition(LogSequenceNumber.valueOf(startLsn))
                    .withStatusInterval(STATUS_INTERVAL_SECONDS, TimeUnit.SECONDS)
                    .withAutomaticFlush(false)
                    .start();
            return new ReplicationChannel(connection, stream);
        } catch (SQLException e) {
            closeQuietly(connection);
            if (SqlState.OBJECT_IN_USE.equals(e.getSQLState())) {
                return null;
            }
            if (SqlState.UNDEFINED_OBJECT.equals(e.getSQLState())) {
                throw new ConnectorException(
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                        "postgres-cdc: replication slot \"" + identity.slot() + "\" no longer exists at "
                                + options.where()
                                + "; recreate the table to capture it again");
            }
            throw failed(options, e);
        }
    }

    /** The next message, or null when none has arrived; keepalives are answered inside. */
    synchronized ByteBuffer readPending() throws SQLException {
        return stream.readPending();
    }

    /** The LSN of the last message or keepalive received. */
    synchronized long lastReceiveLsn() {
        return stream.getLastReceiveLSN().asLong();
    }

    /**
     * Tells PostgreSQL that everything before {@code lsn} is durable downstream, so the slot's
     * {@code confirmed_flush_lsn} advances and WAL before it can be recycled. Lower LSNs than one
     * confirmed before are ignored.
     */
    synchronized void confirm(long lsn) throws SQLException {
        if (closed || lsn <= confirmed) {
            return;
        }
        LogSequenceNumber l = LogSequenceNumber.valueOf(lsn);
        stream.setFlushedLSN(l);
        stream.setAppliedLSN(l);
        stream.forceUpdateStatus();
        confirmed = lsn;
    }

    /** A failure while reading the snapshot or the stream, for the user: 08006 when the connection broke. */
    static ConnectorException failed(CdcOptions options, SQLException e) {
        String state = e.getSQLState() != null && e.getSQLState().startsWith("08")
                ? SqlState.CONNECTION_FAILURE
                : SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE;
        return new ConnectorException(
                state,
                "postgres-cdc: reading " + options.quotedTable() + " from " + options.where() + " failed: "
                        + e.getMessage(),
                e);
    }

    /** Stops streaming and closes the connection, so the slot is free for the next reader. */
    @Override
    public synchronized void close() {
        closed = true;
        try {
            stream.close();
        } catch (SQLException e) {
            // the connection is closed below either way
        }
        closeQuietly(connection);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            // nothing more to release
        }
    }
}
