package io.tributary.connector.postgres;

import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The upstream PostgreSQL of the postgres-cdc tests (public for the CDC crash test): one embedded
 * server with logical decoding, started by the first test that needs it and stopped when the test
 * JVM exits. Tests use their own tables and table ids, so slots and publications never collide.
 */
public final class UpstreamPostgres {
    private static EmbeddedPostgres server;

    private UpstreamPostgres() {}

    public static synchronized EmbeddedPostgres server() throws IOException {
        if (server == null) {
            server = EmbeddedPostgres.builder()
                    .setServerConfig("wal_level", "logical")
                    .setServerConfig("max_replication_slots", "20")
                    .setServerConfig("max_wal_senders", "20")
                    // keepalives every 2.5 s, so the confirm test sees status replies while it waits
                    .setServerConfig("wal_sender_timeout", "5s")
                    .start();
            EmbeddedPostgres started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException e) {
                    // the JVM is exiting; the data directory is temporary
                }
            }));
        }
        return server;
    }

    public static Connection connect() throws SQLException, IOException {
        Connection c = server().getPostgresDatabase().getConnection();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            // a statement waiting on a lock the source holds fails the test instead of hanging it
            s.execute("SET lock_timeout = '10s'");
        }
        return c;
    }

    public static void execute(String... statements) throws SQLException, IOException {
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** The value of a one-row, one-column query, as text. */
    public static String queryOne(String sql) throws SQLException, IOException {
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    static Map<String, String> options(String table) throws IOException {
        Map<String, String> options = new HashMap<>();
        options.put("hostname", "localhost");
        options.put("port", Integer.toString(server().getPort()));
        options.put("username", "postgres");
        options.put("database.name", "postgres");
        options.put("table.name", table);
        return options;
    }

    static SourceContext context(
            int tableId, List<SourceColumn> columns, int[] primaryKey, Map<String, String> options, byte[] identity) {
        return new SourceContext(tableId, "t" + tableId, columns, primaryKey, options, null, identity);
    }

    /** Drops what a test's source created, when the test did not destroy it itself. */
    static void dropSlotAndPublication(String table, int tableId) throws IOException {
        CdcSetup.dropQuietly(CdcOptions.parse(options(table)), "tributary_" + tableId, "tributary_" + tableId + "_pub");
    }
}
