package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A materialized view in a user schema, created by an unqualified name under {@code search_path},
 * killed with {@code kill -9} while its backfill runs (slowed by a rate limit) and a client writes
 * to its table. After the restart its job resumes under its qualified name, every acknowledged row
 * is in the table once, and the view equals its query, also after more writes and with a search
 * path that no longer reaches its schema.
 */
class SchemaViewsCrashTest {
    private static final String QUERY = "SELECT g, count(*) AS n, sum(v) AS s FROM sv.t GROUP BY g ORDER BY g";

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void viewInUserSchemaSurvivesKill9DuringBackfill() throws Exception {
        Path dataDir = tempDir.resolve("schema-views");
        ServerProcess server = servers.start(dataDir, 20);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA sv");
            st.execute("CREATE TABLE sv.t (k INT PRIMARY KEY, g INT, v INT)");
            st.execute("INSERT INTO sv.t SELECT i, i % 7, i FROM generate_series(1, 20000) AS s(i)");
            st.execute("SET search_path = sv");
            st.execute("SET background_ddl = true");
            st.execute("SET backfill_rate_limit = 2000");
            // binds t to sv.t now, as PostgreSQL does
            st.execute("CREATE MATERIALIZED VIEW mv AS SELECT g, count(*) AS n, sum(v) AS s FROM t GROUP BY g");
            try (ResultSet rs = st.executeQuery("SELECT view_name FROM tributary_catalog.ddl_progress")) {
                assertTrue(rs.next(), "the backfill runs");
                assertEquals("sv.mv", rs.getString(1));
            }
        }
        Set<Integer> acked = ConcurrentHashMap.newKeySet();
        AtomicInteger inFlight = new AtomicInteger(-1);
        ServerProcess running = server;
        Thread client = new Thread(() -> {
            try (Connection c = DriverManager.getConnection(running.jdbcUrl());
                    Statement st = c.createStatement()) {
                for (int i = 100_000; ; i++) {
                    inFlight.set(i);
                    st.execute("INSERT INTO sv.t VALUES (" + i + ", " + (i % 5) + ", 1)");
                    acked.add(i);
                    inFlight.set(-1);
                }
            } catch (SQLException e) {
                // the kill
            }
        });
        client.start();
        while (acked.size() < 50 && client.isAlive()) {
            Thread.sleep(10);
        }
        server.kill9();
        client.join(30_000);

        server = servers.start(dataDir, 20);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            Set<Integer> written = new TreeSet<>();
            try (ResultSet rs = st.executeQuery("SELECT k FROM sv.t WHERE k >= 100000")) {
                while (rs.next()) {
                    written.add(rs.getInt(1));
                }
            }
            written.remove(inFlight.get());
            assertEquals(new TreeSet<>(acked), written, "acknowledged rows after the restart");
            try (ResultSet rs = st.executeQuery("SELECT view_name FROM tributary_catalog.ddl_progress")) {
                while (rs.next()) {
                    assertEquals("sv.mv", rs.getString(1), "the resumed backfill's name");
                }
            }
            st.execute("WAIT");
            for (int i = 0; i < 20; i++) {
                st.execute("INSERT INTO sv.t VALUES (" + (200_000 + i) + ", 9, 2)");
            }
            st.execute("DELETE FROM sv.t WHERE k <= 10");
            // a public table of the same name must not change what the view reads
            st.execute("CREATE TABLE t (k INT PRIMARY KEY, g INT, v INT)");
            st.execute("INSERT INTO t VALUES (1, 1, 1)");
            awaitEqual(st, "SELECT g, n, s FROM sv.mv ORDER BY g", QUERY);
        }
    }

    /** Waits (up to a minute) until both queries give the same rows; fails with both otherwise. */
    private static void awaitEqual(Statement st, String view, String query) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        List<String> expected;
        List<String> actual;
        do {
            expected = rows(st, query);
            actual = rows(st, view);
            if (expected.equals(actual)) {
                return;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        assertEquals(expected, actual, "the view after the restart equals its query");
    }

    private static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
            }
        }
        return out;
    }
}
