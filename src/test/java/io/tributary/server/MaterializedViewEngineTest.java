package io.tributary.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Materialized views on the real engine over pgjdbc: views equal their query after every
 * statement, survive a restart (jobs resume from committed state), keep up with concurrent
 * writers while being created, and honour DROP's dependency rules.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MaterializedViewEngineTest {
    private Path dataDir;
    private Database db;
    private PgServer server;

    @BeforeEach
    void start() throws IOException {
        dataDir = Files.createTempDirectory("mv-engine-");
        open();
    }

    private void open() {
        db = Database.open(dataDir, 20, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
    }

    private void close() {
        server.close();
        db.close();
    }

    @AfterEach
    void stop() throws IOException {
        close();
        try (Stream<Path> paths = Files.walk(dataDir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev?user=root");
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** The rows of a query as sorted strings. */
    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        out.sort(null);
        return out;
    }

    /** Fails with the rows only one side has, which stays readable for large results. */
    private static void assertSameRows(List<String> expected, List<String> actual, String what) {
        List<String> missing = new ArrayList<>(expected);
        actual.forEach(missing::remove);
        List<String> extra = new ArrayList<>(actual);
        expected.forEach(extra::remove);
        if (!missing.isEmpty() || !extra.isEmpty()) {
            throw new AssertionError(what + ": missing " + missing.subList(0, Math.min(20, missing.size()))
                    + " (" + missing.size() + "), extra " + extra.subList(0, Math.min(20, extra.size()))
                    + " (" + extra.size() + ")");
        }
    }

    private static final String AGG =
            "SELECT k, count(*) AS n, sum(v) AS s, min(v) AS lo, max(v) AS hi FROM t GROUP BY k";
    private static final String JOIN = "SELECT t.id, t.v, d.name FROM t LEFT JOIN d ON t.k = d.k";

    private void assertViewsMatch(Connection c) throws SQLException {
        assertSameRows(rows(c, AGG), rows(c, "SELECT * FROM agg"), "agg");
        assertSameRows(rows(c, JOIN), rows(c, "SELECT * FROM j"), "join");
        assertSameRows(rows(c, "SELECT k, n FROM agg WHERE n > 1"), rows(c, "SELECT * FROM vv"), "view on view");
    }

    private void createSchema(Connection c) throws SQLException {
        exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, k INT, v INT)");
        exec(c, "CREATE TABLE d (k INT PRIMARY KEY, name TEXT)");
        exec(c, "INSERT INTO t SELECT x, x % 7, x FROM generate_series(1, 500) AS s(x)");
        exec(c, "INSERT INTO d VALUES (1, 'one'), (2, 'two'), (3, 'three')");
        exec(c, "CREATE MATERIALIZED VIEW agg AS " + AGG);
        exec(c, "CREATE MATERIALIZED VIEW j AS " + JOIN);
        exec(c, "CREATE MATERIALIZED VIEW vv AS SELECT k, n FROM agg WHERE n > 1");
    }

    @Test
    void viewsFollowEveryStatementAndSurviveRestart() throws Exception {
        try (Connection c = connect()) {
            createSchema(c);
            assertViewsMatch(c);
            exec(c, "UPDATE t SET v = v * 2 WHERE id % 3 = 0");
            exec(c, "DELETE FROM t WHERE k = 6");
            exec(c, "UPDATE d SET name = 'uno' WHERE k = 1");
            exec(c, "INSERT INTO d VALUES (6, 'six'), (0, 'zero')");
            exec(c, "DELETE FROM t WHERE id IN (SELECT id FROM t WHERE k = 2 ORDER BY v DESC LIMIT 5)");
            assertViewsMatch(c);
        }
        close();
        open();
        try (Connection c = connect()) {
            assertViewsMatch(c);
            exec(c, "INSERT INTO t SELECT x, x % 11, -x FROM generate_series(501, 700) AS s(x)");
            exec(c, "DELETE FROM d WHERE k = 2");
            assertViewsMatch(c);
        }
    }

    @Test
    void writersKeepWritingWhileViewsAreCreated() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, k INT, v INT)");
            exec(c, "CREATE TABLE d (k INT PRIMARY KEY, name TEXT)");
            exec(c, "INSERT INTO t SELECT x, x % 7, x FROM generate_series(1, 20000) AS s(x)");
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int base = 100_000 * (w + 1);
                writers.add(pool.submit(() -> {
                    try (Connection c = connect()) {
                        for (int i = 0; i < 150; i++) {
                            exec(c, "INSERT INTO t VALUES (" + (base + i) + ", " + (i % 5) + ", " + i + ")");
                            if (i % 10 == 0) {
                                exec(c, "DELETE FROM t WHERE id = " + (base + i - 5));
                            }
                        }
                    }
                    return null;
                }));
            }
            try (Connection c = connect()) {
                exec(c, "CREATE MATERIALIZED VIEW agg AS " + AGG);
                exec(c, "CREATE MATERIALIZED VIEW j AS " + JOIN);
                exec(c, "CREATE MATERIALIZED VIEW vv AS SELECT k, n FROM agg WHERE n > 1");
            }
            for (Future<?> f : writers) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = connect()) {
            assertViewsMatch(c);
        }
    }

    @Test
    void parallelismOneAndThreeGiveTheSameViews() throws Exception {
        try (Connection c = connect()) {
            exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, k INT, v INT)");
            exec(c, "CREATE TABLE d (k INT PRIMARY KEY, name TEXT)");
            exec(c, "INSERT INTO t SELECT x, x % 13, x % 101 FROM generate_series(1, 3000) AS s(x)");
            exec(c, "INSERT INTO d SELECT x, 'n' || x FROM generate_series(0, 9) AS s(x)");
            exec(c, "SET streaming_parallelism = 1");
            exec(c, "CREATE MATERIALIZED VIEW a1 AS " + AGG);
            exec(c, "CREATE MATERIALIZED VIEW j1 AS " + JOIN);
            exec(c, "SET streaming_parallelism = 3");
            exec(c, "CREATE MATERIALIZED VIEW a3 AS " + AGG);
            exec(c, "CREATE MATERIALIZED VIEW j3 AS " + JOIN);
            exec(c, "UPDATE t SET k = k + 1 WHERE id % 4 = 0");
            exec(c, "DELETE FROM d WHERE k % 3 = 0");
            assertSameRows(rows(c, AGG), rows(c, "SELECT * FROM a1"), "a1");
            assertSameRows(rows(c, AGG), rows(c, "SELECT * FROM a3"), "a3");
            assertSameRows(rows(c, JOIN), rows(c, "SELECT * FROM j1"), "j1");
            assertSameRows(rows(c, JOIN), rows(c, "SELECT * FROM j3"), "j3");
        }
    }

    @Test
    void rescalingMovesVnodesWithoutLosingOrDoublingRows() throws Exception {
        try (Connection c = connect()) {
            exec(c, "SET streaming_parallelism = 1");
            createSchema(c);
            exec(c, "ALTER MATERIALIZED VIEW agg SET PARALLELISM = 3");
            exec(c, "UPDATE t SET k = k + 2 WHERE id % 5 = 0");
            exec(c, "ALTER MATERIALIZED VIEW j SET PARALLELISM TO 2");
            exec(c, "DELETE FROM t WHERE id % 11 = 0");
            exec(c, "INSERT INTO d VALUES (4, 'four'), (5, 'five')");
            assertViewsMatch(c);
            SQLException e =
                    assertThrows(SQLException.class, () -> exec(c, "ALTER MATERIALIZED VIEW t SET PARALLELISM = 2"));
            assertEquals("42809", e.getSQLState());
            e = assertThrows(SQLException.class, () -> exec(c, "ALTER MATERIALIZED VIEW agg SET PARALLELISM = 0"));
            assertEquals("22023", e.getSQLState());
        }
        close();
        open();
        try (Connection c = connect()) {
            exec(c, "INSERT INTO t SELECT x, x % 9, x FROM generate_series(1000, 1300) AS s(x)");
            assertViewsMatch(c);
            exec(c, "ALTER MATERIALIZED VIEW agg SET PARALLELISM = 1");
            exec(c, "DELETE FROM t WHERE k = 3");
            assertViewsMatch(c);
        }
    }

    @Test
    void dropFollowsDependencies() throws Exception {
        try (Connection c = connect()) {
            createSchema(c);
            SQLException e = assertThrows(SQLException.class, () -> exec(c, "DROP TABLE t"));
            assertEquals("2BP01", e.getSQLState());
            e = assertThrows(SQLException.class, () -> exec(c, "DROP MATERIALIZED VIEW agg"));
            assertEquals("2BP01", e.getSQLState());
            e = assertThrows(SQLException.class, () -> exec(c, "DROP TABLE agg"));
            assertEquals("42809", e.getSQLState());
            e = assertThrows(SQLException.class, () -> exec(c, "INSERT INTO agg VALUES (1, 1, 1, 1, 1)"));
            assertEquals("42809", e.getSQLState());
            exec(c, "DROP MATERIALIZED VIEW agg CASCADE");
            assertEquals(List.of("j"), rows(c, "SHOW MATERIALIZED VIEWS"));
            exec(c, "DROP TABLE t CASCADE");
            assertEquals(List.of(), rows(c, "SHOW MATERIALIZED VIEWS"));
            assertEquals(List.of("d"), rows(c, "SHOW TABLES"));
            exec(c, "INSERT INTO d VALUES (9, 'nine')");
        }
    }
}
