package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cross-database views under {@code kill -9}: views in database b over tables of database a (an
 * aggregate over a table of a's user schema {@code s}, and a join of a's {@code public.t} with b's
 * own table) are killed once while they backfill (rate-limited in the
 * background) and once while they follow a's change log, with a writer changing a's table throughout.
 * After each restart the views resume from the positions b committed and, once caught up, equal
 * their queries over what a and b hold: nothing read twice, nothing skipped.
 */
class CrossDatabaseCrashTest {
    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    private static Connection connect(ServerProcess server, String database) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl().replace("/dev?", "/" + database + "?"));
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static Map<String, Integer> rows(Connection c, String sql) throws SQLException {
        Map<String, Integer> out = new TreeMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    sb.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.merge(sb.toString(), 1, Integer::sum);
            }
        }
        return out;
    }

    /** Writes into a's tables ({@code public.t} and {@code s.t}, at random) until stopped or the server dies. */
    private static Thread writer(ServerProcess server, AtomicBoolean stop, long seed) {
        Thread t = new Thread(() -> {
            Random random = new Random(seed);
            try (Connection a = connect(server, "a")) {
                while (!stop.get()) {
                    int id = random.nextInt(30_000);
                    String table = random.nextBoolean() ? "t" : "s.t";
                    switch (random.nextInt(3)) {
                        case 0 ->
                            exec(
                                    a,
                                    "INSERT INTO " + table + " VALUES (" + id + ", " + random.nextInt(20) + ", "
                                            + random.nextInt(100) + ") ON CONFLICT (id) DO NOTHING");
                        case 1 ->
                            exec(
                                    a,
                                    "UPDATE " + table + " SET v = v + 1, k = (k + 1) % 20 WHERE id BETWEEN " + id
                                            + " AND " + (id + 40));
                        default -> exec(a, "DELETE FROM " + table + " WHERE id BETWEEN " + id + " AND " + (id + 10));
                    }
                }
            } catch (SQLException e) {
                // the kill
            }
        });
        t.start();
        return t;
    }

    @Test
    void crossDatabaseViewsResumeExactlyAfterKill9() throws Exception {
        Path dataDir = tempDir.resolve("crossdb");
        ServerProcess server = servers.start(dataDir, 20);
        try (Connection dev = connect(server, "dev")) {
            exec(dev, "CREATE DATABASE a");
            exec(dev, "CREATE DATABASE b");
        }
        try (Connection a = connect(server, "a");
                Connection b = connect(server, "b")) {
            exec(a, "CREATE TABLE t (id INT PRIMARY KEY, k INT, v INT)");
            exec(a, "INSERT INTO t SELECT x, x % 20, x % 100 FROM generate_series(1, 30000) AS s(x)");
            // agg reads a table of a's user schema s
            exec(a, "CREATE SCHEMA s");
            exec(a, "CREATE TABLE s.t (id INT PRIMARY KEY, k INT, v INT)");
            exec(a, "INSERT INTO s.t SELECT x, x % 20, x % 100 FROM generate_series(1, 30000) AS s(x)");
            exec(b, "CREATE TABLE d (k INT PRIMARY KEY, name TEXT)");
            exec(b, "INSERT INTO d SELECT x, 'n' || (x % 3) FROM generate_series(0, 15) AS s(x)");
            exec(b, "SET background_ddl = true");
            exec(b, "SET backfill_rate_limit = 3000");
            exec(b, "CREATE MATERIALIZED VIEW agg AS SELECT k, count(*) AS n, sum(v) AS s FROM a.s.t GROUP BY k");
            exec(
                    b,
                    "CREATE MATERIALIZED VIEW joined AS SELECT t.id, t.v, d.name FROM a.public.t AS t JOIN d ON t.k = d.k");
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread w = writer(server, stop, 1);
        Thread.sleep(2500);
        try (Connection b = connect(server, "b")) {
            assertTrue(rows(b, "SHOW JOBS").size() == 2, "both views should still be backfilling at the first kill");
        }
        server.kill9();
        w.join(30_000);

        server = servers.start(dataDir, 20);
        try (Connection b = connect(server, "b")) {
            for (String view : List.of("agg", "joined")) {
                try {
                    exec(b, "ALTER MATERIALIZED VIEW " + view + " SET BACKFILL_RATE_LIMIT = DEFAULT");
                } catch (SQLException e) {
                    // on a loaded machine the resumed backfill may finish before the client reconnects
                    assertEquals("55000", e.getSQLState(), e.getMessage());
                }
            }
            exec(b, "WAIT");
        }
        check(server, "after the kill during the backfill");

        stop.set(false);
        w = writer(server, stop, 2);
        Thread.sleep(2000);
        server.kill9();
        w.join(30_000);

        server = servers.start(dataDir, 20);
        check(server, "after the kill while following a's log");
    }

    /**
     * The orphaned reader record: with 5 s epochs, b's DROP of its cross-database view commits in b,
     * while a forgets the reader only in its next epoch. A {@code kill -9} right after the DROP leaves
     * a's record (which would keep t's log, and make DROP TABLE t fail with 2BP01, forever); the
     * restart's sweep forgets it, so t can be dropped and its log is no longer kept.
     */
    @Test
    void aReaderRecordOrphanedByAKillIsSwept() throws Exception {
        Path dataDir = tempDir.resolve("orphan");
        ServerProcess server = servers.start(dataDir, 5000);
        try (Connection dev = connect(server, "dev")) {
            exec(dev, "CREATE DATABASE a");
            exec(dev, "CREATE DATABASE b");
        }
        try (Connection a = connect(server, "a");
                Connection b = connect(server, "b")) {
            exec(a, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            exec(a, "INSERT INTO t SELECT x, x FROM generate_series(1, 100) AS s(x)");
            exec(b, "CREATE MATERIALIZED VIEW gone AS SELECT count(*) AS n FROM a.public.t");
            exec(b, "DROP MATERIALIZED VIEW gone");
            server.kill9();
        }
        server = servers.start(dataDir, 5000);
        try (Connection a = connect(server, "a")) {
            // the sweep runs before the cluster serves; DROP would be 2BP01 naming b.public.gone otherwise
            exec(a, "DROP TABLE t");
        }
        assertTrue(
                server.output().contains("forgetting the reader record of b.public.gone"),
                "the restart should have found a's record of the dropped view; output:\n" + server.output());
    }

    /** Waits until b's views have read what a committed, then compares them with their queries. */
    private static void check(ServerProcess server, String when) throws Exception {
        try (Connection a = connect(server, "a");
                Connection b = connect(server, "b")) {
            long target = 0;
            for (Map.Entry<String, Integer> e : rows(
                            b, "SELECT upstream_epoch FROM tributary_catalog.cross_database_inputs")
                    .entrySet()) {
                target = Math.max(target, Long.parseLong(e.getKey()));
            }
            long deadline = System.currentTimeMillis() + 60_000;
            while (!rows(b, "SELECT min(consumed_epoch) >= " + target + " FROM tributary_catalog.cross_database_inputs")
                    .containsKey("t")) {
                assertTrue(System.currentTimeMillis() < deadline, "the views did not catch up " + when);
                Thread.sleep(20);
            }
            assertEquals(
                    rows(a, "SELECT k, count(*), sum(v) FROM s.t GROUP BY k"),
                    rows(b, "SELECT k, n, s FROM agg"),
                    "agg " + when);
            Map<Integer, String> names = new HashMap<>();
            try (Statement st = b.createStatement();
                    ResultSet rs = st.executeQuery("SELECT k, name FROM d")) {
                while (rs.next()) {
                    names.put(rs.getInt(1), rs.getString(2));
                }
            }
            Map<String, Integer> expected = new TreeMap<>();
            try (Statement st = a.createStatement();
                    ResultSet rs = st.executeQuery("SELECT id, v, k FROM t")) {
                while (rs.next()) {
                    String name = names.get(rs.getInt(3));
                    if (name != null) {
                        expected.merge(rs.getInt(1) + "|" + rs.getInt(2) + "|" + name, 1, Integer::sum);
                    }
                }
            }
            assertEquals(expected, rows(b, "SELECT id, v, name FROM joined"), "joined " + when);
        }
    }
}
