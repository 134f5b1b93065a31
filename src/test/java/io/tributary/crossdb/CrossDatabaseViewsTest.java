package io.tributary.crossdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.server.ServedCluster;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Materialized views in database {@code b} over tables of database {@code a}, over pgjdbc: joins with
 * {@code b}'s tables, aggregates and views over such views, compared after rounds of random DML on
 * both sides with the same queries (two-part names) over the same data in one embedded PostgreSQL
 * database. A cross-database view follows {@code a}'s log on its own, so each check waits until the
 * view has read {@code a}'s last commit (the lag table) before comparing. Also: the view survives a
 * restart, DROP of what it reads is 2BP01 (CASCADE drops it), and unknown databases are 3D000.
 * Two views read a table and a materialized view of {@code a}'s user schema {@code s} (in
 * PostgreSQL the same schema {@code s}).
 */
class CrossDatabaseViewsTest {
    private static final String[] VIEWS = {
        "agg", "SELECT k, count(*) AS n, sum(v) AS s FROM %a%t GROUP BY k",
        "joined", "SELECT t.id, t.v, d.name FROM %a%t AS t JOIN d ON t.k = d.k",
        "lefty", "SELECT d.k, d.name, t.id FROM d LEFT JOIN %a%t AS t ON t.k = d.k",
        "onjoined", "SELECT name, count(*) AS n, max(v) AS m FROM joined GROUP BY name",
        "filtered", "SELECT id, v * 2 AS w FROM %a%t WHERE v > 50",
        // over a materialized view of a, and a view over that view
        "onmv", "SELECT m.k, m.n, m.s, d.name FROM %a%am AS m JOIN d ON m.k = d.k",
        "onmvagg", "SELECT name, sum(n) AS total, count(*) AS groups FROM onmv GROUP BY name",
        // over a table and a materialized view of a's user schema s
        "onschema", "SELECT u.x, u.k, m.n, m.m FROM %s%u AS u JOIN %s%sm AS m ON u.k = m.k",
        "onschemaagg", "SELECT u.k, count(*) AS n FROM %s%u AS u JOIN %a%t AS t ON u.k = t.k GROUP BY u.k",
    };

    /** A materialized view of a's user schema s ({@code s.sm}). */
    private static final String SCHEMA_VIEW = "SELECT k, count(*) AS n, max(v) AS m FROM public.t GROUP BY k";

    /** A materialized view of database a that views in b read ({@code am}). */
    private static final String UPSTREAM_VIEW = "SELECT k, count(*) AS n, sum(v) AS s FROM t GROUP BY k";

    @TempDir
    Path dataDir;

    private ServedCluster served;

    private void start() {
        served = ServedCluster.open(dataDir);
    }

    @AfterEach
    void stop() {
        if (served != null) {
            served.close();
            served = null;
        }
    }

    private Connection connect(String database) throws SQLException {
        return served.connect(database, 60);
    }

    static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    static String sqlState(Connection c, String sql) {
        return assertThrows(SQLException.class, () -> exec(c, sql)).getSQLState();
    }

    /** The rows of a query as a sorted multiset of their text forms. */
    static Map<String, Integer> rows(Connection c, String sql) throws SQLException {
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

    /** Waits until every cross-database input of {@code b} has read what {@code a} had committed when called. */
    static void awaitCaughtUp(Connection b) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        long target = 0;
        try (Statement st = b.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT max(upstream_epoch) FROM tributary_catalog.cross_database_inputs")) {
            rs.next();
            target = rs.getLong(1);
        }
        while (true) {
            List<String> behind = new ArrayList<>();
            try (Statement st = b.createStatement();
                    ResultSet rs = st.executeQuery("SELECT view_name, consumed_epoch, upstream_epoch"
                            + " FROM tributary_catalog.cross_database_inputs")) {
                while (rs.next()) {
                    if (rs.getLong(2) < target) {
                        behind.add(rs.getString(1));
                    }
                }
            }
            if (behind.isEmpty()) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("cross-database inputs still behind: " + behind);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void viewsAcrossDatabasesMatchPostgres() throws Exception {
        start();
        long seed = Long.getLong("crossdb.seed", 20261201L);
        Random random = new Random(seed);
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
                Connection pg = postgres.getPostgresDatabase().getConnection()) {
            try (Connection dev = connect("dev")) {
                exec(dev, "CREATE DATABASE a");
                exec(dev, "CREATE DATABASE b");
            }
            try (Connection a = connect("a");
                    Connection b = connect("b")) {
                for (Connection c : List.of(a, pg)) {
                    exec(c, "CREATE TABLE t (id INT PRIMARY KEY, k INT, v INT)");
                }
                for (Connection c : List.of(b, pg)) {
                    exec(c, "CREATE TABLE d (k INT PRIMARY KEY, name TEXT)");
                }
                exec(a, "CREATE MATERIALIZED VIEW am AS " + UPSTREAM_VIEW);
                exec(pg, "CREATE VIEW am AS " + UPSTREAM_VIEW);
                for (Connection c : List.of(a, pg)) {
                    exec(c, "CREATE SCHEMA s");
                    exec(c, "CREATE TABLE s.u (x INT PRIMARY KEY, k INT)");
                }
                exec(a, "CREATE MATERIALIZED VIEW s.sm AS " + SCHEMA_VIEW);
                exec(pg, "CREATE VIEW s.sm AS " + SCHEMA_VIEW);
                schemaDml(random, a, pg, 10);
                // half of the views are created on filled tables (the backfill reads a's snapshot)
                dml(random, a, b, pg, 60);
                for (int i = 0; i < VIEWS.length; i += 2) {
                    exec(
                            b,
                            "CREATE MATERIALIZED VIEW " + VIEWS[i] + " AS "
                                    + VIEWS[i + 1].replace("%a%", "a.public.").replace("%s%", "a.s."));
                    exec(
                            pg,
                            "CREATE VIEW " + VIEWS[i] + " AS "
                                    + VIEWS[i + 1].replace("%a%", "public.").replace("%s%", "s."));
                }
                for (int round = 0; round < 4; round++) {
                    dml(random, a, b, pg, 40);
                    schemaDml(random, a, pg, 8);
                    compare(b, pg, "seed " + seed + " round " + round);
                }
                List<String> lag = new ArrayList<>(rows(
                                b,
                                "SELECT view_name, upstream_database, upstream_table, lag_epochs >= 0, lag_ms >= 0"
                                        + " FROM tributary_catalog.cross_database_inputs")
                        .keySet());
                assertEquals(
                        List.of(
                                "agg|a|t|t|t",
                                "filtered|a|t|t|t",
                                "joined|a|t|t|t",
                                "lefty|a|t|t|t",
                                "onmv|a|am|t|t",
                                "onschemaagg|a|s.u|t|t",
                                "onschemaagg|a|t|t|t",
                                "onschema|a|s.sm|t|t",
                                "onschema|a|s.u|t|t"),
                        lag);
                // caught up, with a committing idle epochs meanwhile: no epoch that changed a table is unread
                Thread.sleep(300);
                assertEquals(
                        Map.of("0", 1), rows(b, "SELECT max(lag_epochs) FROM tributary_catalog.cross_database_inputs"));
                assertEquals("2BP01", sqlState(a, "DROP MATERIALIZED VIEW am"));

                assertEquals("2BP01", sqlState(a, "DROP TABLE t"));
                assertEquals("3D000", sqlState(b, "CREATE MATERIALIZED VIEW x AS SELECT * FROM nope.public.t"));
                assertEquals("42P01", sqlState(b, "CREATE MATERIALIZED VIEW x AS SELECT * FROM a.public.nope"));
                assertEquals("0A000", sqlState(b, "INSERT INTO a.public.t VALUES (1000, 1, 1)"));
            }
            try (Connection dev = connect("dev")) {
                assertEquals("2BP01", sqlState(dev, "DROP DATABASE a"));
            }

            // a restart resumes each view from the positions committed in b
            stop();
            start();
            try (Connection a = connect("a");
                    Connection b = connect("b")) {
                dml(random, a, b, pg, 40);
                schemaDml(random, a, pg, 8);
                compare(b, pg, "seed " + seed + " after restart");
                assertEquals("2BP01", sqlState(a, "DROP TABLE s.u"));
                exec(a, "DROP TABLE t CASCADE");
                assertEquals(
                        List.of(),
                        new ArrayList<>(rows(
                                        b,
                                        "SELECT relname FROM pg_catalog.pg_class WHERE relkind = 'm' AND relname <> 'nothing'")
                                .keySet()));
            }
            try (Connection dev = connect("dev")) {
                exec(dev, "DROP DATABASE a");
            }
        }
    }

    /**
     * The isolation property for a cross-database view: while database a's commits fail every 100 ms
     * (each failure discarding a's epoch and rebuilding a's jobs), database b, whose view reads a's
     * table, keeps committing its own writes, and once a is back the view catches up with a's table.
     */
    @Test
    void readerKeepsCommittingWhileUpstreamRecovers() throws Exception {
        java.util.concurrent.atomic.AtomicInteger failNext = new java.util.concurrent.atomic.AtomicInteger();
        served = new ServedCluster(io.tributary.meta.ClusterFixture.withFailingCommits(dataDir, 20, "a", failNext));
        try (Connection dev = connect("dev")) {
            exec(dev, "CREATE DATABASE a");
            exec(dev, "CREATE DATABASE b");
        }
        try (Connection a = connect("a");
                Connection b = connect("b")) {
            exec(a, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            exec(a, "INSERT INTO t SELECT x, x % 7 FROM generate_series(1, 2000) AS s(x)");
            exec(b, "CREATE TABLE w (id INT PRIMARY KEY)");
            exec(b, "CREATE MATERIALIZED VIEW q AS SELECT v, count(*) AS c, sum(id) AS s FROM a.public.t GROUP BY v");
            java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            long[] counts = new long[2];
            Thread writer = new Thread(() -> {
                try (java.sql.PreparedStatement ps = b.prepareStatement("INSERT INTO w VALUES (?)")) {
                    for (int i = 1; !done.get(); i++) {
                        ps.setInt(1, i);
                        boolean during = failing.get();
                        ps.executeUpdate();
                        counts[during && failing.get() ? 1 : 0]++;
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            writer.start();
            Thread.sleep(1000);
            failing.set(true);
            long started = System.nanoTime();
            while (System.nanoTime() - started < 1_500_000_000L) {
                failNext.incrementAndGet();
                Thread.sleep(100);
            }
            while (failNext.get() > 0) {
                Thread.sleep(10);
            }
            failing.set(false);
            long failingMillis = (System.nanoTime() - started) / 1_000_000;
            done.set(true);
            writer.join(30_000);
            System.out.printf(
                    "crossdb isolation: b committed %d statements in ~1000 ms before, %d in %d ms while a failed%n",
                    counts[0], counts[1], failingMillis);
            assertTrue(counts[1] > 0, "b committed nothing while a recovered");
            assertTrue(
                    counts[1] * 1000.0 / failingMillis >= counts[0] / 10.0,
                    "b slowed down: " + counts[0] + " vs " + counts[1]);
            assertEquals(Map.of(String.valueOf(counts[0] + counts[1]), 1), rows(b, "SELECT count(*) FROM w"));
            exec(a, "UPDATE t SET v = v + 1 WHERE id % 3 = 0");
            exec(a, "DELETE FROM t WHERE id % 5 = 0");
            awaitCaughtUp(b);
            assertEquals(rows(a, "SELECT v, count(*), sum(id) FROM t GROUP BY v"), rows(b, "SELECT v, c, s FROM q"));
        }
    }

    /**
     * A cross-database view backfilling in the background shows in SHOW JOBS and can be cancelled;
     * the cancel releases it in the upstream database, whose table can then be dropped plainly.
     */
    @Test
    void cancellingABackgroundCrossDatabaseViewReleasesTheUpstream() throws Exception {
        start();
        try (Connection dev = connect("dev")) {
            exec(dev, "CREATE DATABASE a");
            exec(dev, "CREATE DATABASE b");
        }
        try (Connection a = connect("a");
                Connection b = connect("b")) {
            exec(a, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            exec(a, "INSERT INTO t SELECT x, x % 7 FROM generate_series(1, 20000) AS s(x)");
            exec(b, "SET background_ddl = true");
            exec(b, "SET backfill_rate_limit = 500");
            exec(b, "CREATE MATERIALIZED VIEW slow AS SELECT v, count(*) AS c FROM a.public.t GROUP BY v");
            assertEquals("55000", sqlState(b, "SELECT * FROM slow"));
            List<String> jobs = new ArrayList<>(rows(b, "SHOW JOBS").keySet());
            assertEquals(1, jobs.size(), "jobs: " + jobs);
            assertEquals("2BP01", sqlState(a, "DROP TABLE t"));
            String id = jobs.get(0).substring(0, jobs.get(0).indexOf('|'));
            exec(b, "CANCEL JOBS " + id);
            assertEquals(Map.of(), rows(b, "SELECT * FROM tributary_catalog.cross_database_inputs"));
            assertEquals("42P01", sqlState(b, "SELECT * FROM slow"));
            exec(a, "DROP TABLE t");
        }
    }

    private static void compare(Connection b, Connection pg, String where) throws Exception {
        long t0 = System.nanoTime();
        awaitCaughtUp(b);
        System.out.println("crossdb: caught up in " + (System.nanoTime() - t0) / 1_000_000 + " ms at " + where);
        for (int i = 0; i < VIEWS.length; i += 2) {
            String q = "SELECT * FROM " + VIEWS[i];
            assertEquals(rows(pg, q), rows(b, q), VIEWS[i] + " differs from PostgreSQL at " + where);
        }
    }

    /** Random INSERT, UPDATE and DELETE on a's {@code s.u}, the same on PostgreSQL. */
    private static void schemaDml(Random random, Connection a, Connection pg, int statements) throws SQLException {
        for (int i = 0; i < statements; i++) {
            int x = random.nextInt(40);
            String sql = switch (random.nextInt(4)) {
                case 0, 1 ->
                    "INSERT INTO s.u VALUES (" + x + ", " + random.nextInt(12) + ") ON CONFLICT (x) DO NOTHING";
                case 2 -> "UPDATE s.u SET k = " + random.nextInt(12) + " WHERE x % 5 = " + random.nextInt(5);
                default -> "DELETE FROM s.u WHERE x % 7 = " + random.nextInt(7);
            };
            exec(a, sql);
            exec(pg, sql);
        }
    }

    /** Random INSERT, UPDATE and DELETE on a's t and b's d, the same on PostgreSQL. */
    static void dml(Random random, Connection a, Connection b, Connection pg, int statements) throws SQLException {
        for (int i = 0; i < statements; i++) {
            boolean onT = random.nextInt(3) > 0;
            Connection c = onT ? a : b;
            String sql;
            int id = random.nextInt(onT ? 80 : 12);
            switch (random.nextInt(4)) {
                case 0, 1 ->
                    sql = onT
                            ? "INSERT INTO t VALUES (" + id + ", " + random.nextInt(12) + ", " + random.nextInt(100)
                                    + ") ON CONFLICT (id) DO NOTHING"
                            : "INSERT INTO d VALUES (" + id + ", 'n" + random.nextInt(5)
                                    + "') ON CONFLICT (k) DO NOTHING";
                case 2 ->
                    sql = onT
                            ? "UPDATE t SET v = v + " + random.nextInt(30) + ", k = " + random.nextInt(12)
                                    + " WHERE id % 7 = " + random.nextInt(7)
                            : "UPDATE d SET name = 'u" + random.nextInt(5) + "' WHERE k = " + id;
                default ->
                    sql = onT ? "DELETE FROM t WHERE id % 11 = " + random.nextInt(11) : "DELETE FROM d WHERE k = " + id;
            }
            exec(c, sql);
            exec(pg, sql);
        }
    }
}
