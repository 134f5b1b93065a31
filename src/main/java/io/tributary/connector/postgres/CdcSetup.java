package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.replication.LogSequenceNumber;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates, at a table's first open, what capture needs upstream, and drops it again: a
 * publication of the table, then a logical replication slot with pgoutput that exports a
 * snapshot, imported at once into a REPEATABLE READ transaction, so the snapshot read and the
 * stream meet exactly at the slot's consistent point. Stateless.
 */
final class CdcSetup {
    private static final Logger LOG = LoggerFactory.getLogger(CdcSetup.class);
    private static final long DROP_RETRY_MILLIS = 10_000;

    /**
     * @param snapshot a connection inside the transaction that imported the slot's snapshot
     */
    record Created(CdcIdentity identity, PgUpstreamTableInfo upstream, Connection snapshot) {}

    private CdcSetup() {}

    /**
     * Checks the server and the table, and creates the publication and the slot; on failure
     * nothing stays behind upstream.
     *
     * @throws ConnectorException 08001 when the server cannot be reached, 55000 when it is not set
     *     up for logical decoding, 42P01/42703/42804/42P16 when the table does not fit, 42710 when the
     *     slot or publication exists already
     */
    static Created create(CdcOptions options, SourceContext context) {
        String slot = options.slotName() != null ? options.slotName() : "tributary_" + context.tableId();
        String publication = slot + "_pub";
        Connection connection = PgConnections.plain(options);
        boolean published = false;
        boolean slotCreated = false;
        try {
            checkServer(connection, options);
            PgUpstreamTableInfo upstream = PgUpstreamTableInfo.load(connection, options);
            upstream.checkFeeds(context, options);
            try (Statement s = connection.createStatement()) {
                s.execute(
                        "CREATE PUBLICATION " + CdcOptions.quote(publication) + " FOR TABLE " + options.quotedTable());
            } catch (SQLException e) {
                throw setupFailed(options, "cannot create publication \"" + publication + "\"", e);
            }
            published = true;
            long consistentPoint;
            try (Connection replication = PgConnections.replication(options, 0)) {
                String snapshotName;
                try (Statement s = replication.createStatement();
                        ResultSet rs = s.executeQuery("CREATE_REPLICATION_SLOT " + CdcOptions.quote(slot)
                                + " LOGICAL pgoutput EXPORT_SNAPSHOT")) {
                    rs.next();
                    consistentPoint = LogSequenceNumber.valueOf(rs.getString("consistent_point"))
                            .asLong();
                    snapshotName = rs.getString("snapshot_name");
                } catch (SQLException e) {
                    throw setupFailed(options, "cannot create replication slot \"" + slot + "\"", e);
                }
                slotCreated = true;
                // the exported snapshot lives only while the replication connection stays idle
                SnapshotReader.beginTransaction(connection, snapshotName);
            }
            return new Created(new CdcIdentity(slot, publication, consistentPoint), upstream, connection);
        } catch (SQLException | RuntimeException e) {
            close(connection);
            if (published) {
                dropQuietly(options, slotCreated ? slot : null, publication);
            }
            if (e instanceof SQLException sql) {
                throw setupFailed(options, "cannot set up change data capture", sql);
            }
            throw (RuntimeException) e;
        }
    }

    private static void checkServer(Connection connection, CdcOptions options) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT current_setting('wal_level'), current_setting('server_encoding')")) {
            rs.next();
            if (!rs.getString(1).equals("logical")) {
                throw new ConnectorException(
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                        "postgres-cdc needs wal_level = logical at " + options.where() + " (it is "
                                + rs.getString(1) + "); set it in postgresql.conf and"
                                + " restart PostgreSQL");
            }
            if (!rs.getString(2).equals("UTF8")) {
                throw new ConnectorException(
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                        "postgres-cdc needs a UTF8" + " database; \"" + options.database() + "\" is "
                                + rs.getString(2));
            }
        }
    }

    /**
     * Drops the slot (when not null) and the publication, waiting a little for a slot still held by
     * a walsender that is exiting. Failures are logged: dropping is best effort.
     */
    static void dropQuietly(CdcOptions options, String slot, String publication) {
        try (Connection connection = PgConnections.plain(options)) {
            if (slot != null) {
                dropSlot(connection, slot);
            }
            try (Statement s = connection.createStatement()) {
                s.execute("DROP PUBLICATION IF EXISTS " + CdcOptions.quote(publication));
            }
        } catch (SQLException | ConnectorException e) {
            LOG.warn(
                    "postgres-cdc: could not drop replication slot {} / publication {} at {}: {}",
                    slot,
                    publication,
                    options.where(),
                    e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void dropSlot(Connection connection, String slot) throws SQLException, InterruptedException {
        long deadline = System.currentTimeMillis() + DROP_RETRY_MILLIS;
        while (true) {
            try (PreparedStatement s = connection.prepareStatement(
                    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ?")) {
                s.setString(1, slot);
                s.execute();
                return;
            } catch (SQLException e) {
                if (!SqlState.OBJECT_IN_USE.equals(e.getSQLState()) || System.currentTimeMillis() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static ConnectorException setupFailed(CdcOptions options, String what, SQLException e) {
        String state = e.getSQLState() == null
                ? SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE
                : e.getSQLState().startsWith("08") ? SqlState.CONNECTION_FAILURE : e.getSQLState();
        return new ConnectorException(
                state, "postgres-cdc: " + what + " at " + options.where() + ": " + e.getMessage(), e);
    }

    private static void close(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            // nothing more to release
        }
    }
}
