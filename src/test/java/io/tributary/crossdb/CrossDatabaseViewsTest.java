package io.tributary.crossdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.meta.Cluster;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.server.session.QueryLimits;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
 */
class CrossDatabaseViewsTest {
    private static final String[] VIEWS = {
        "agg", "SELECT k, count(*) AS n, sum(v) AS s FROM %a%t GROUP BY k",
        "joined", "SELECT t.id, t.v, d.name FROM %a%t AS t JOIN d ON t.k = d.k",
        "lefty", "SELECT d.k, d.name, t.id FROM d LEFT JOIN %a%t AS t ON t.k = d.k",
        "onjoined", "SELECT name, count(*) AS n, max(v) AS m FROM joined GROUP BY name",
        "filtered", "SELECT id, v * 2 AS w FROM %a%t WHERE v > 50",
    };

    @TempDir
    Path dataDir;

    private Cluster cluster;
    private PgServer server;

    private void start() {
        cluster = Cluster.open(dataDir, 20, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(cluster, QueryLimits.defaults()), null);
        server.start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
            cluster.close();
            server = null;
        }
    }

    private Connection connect(String database) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("connectTimeout", "5");
        props.setProperty("socketTimeout", "60");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/" + database, props);
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
                // half of the views are created on filled tables (the backfill reads a's snapshot)
                dml(random, a, b, pg, 60);
                for (int i = 0; i < VIEWS.length; i += 2) {
                    exec(b, "CREATE MATERIALIZED VIEW " + VIEWS[i] + " AS " + VIEWS[i + 1].replace("%a%", "a.public."));
                    exec(pg, "CREATE VIEW " + VIEWS[i] + " AS " + VIEWS[i + 1].replace("%a%", "public."));
                }
                for (int round = 0; round < 4; round++) {
                    dml(random, a, b, pg, 40);
                    compare(b, pg, "seed " + seed + " round " + round);
                }
                List<String> lag = new ArrayList<>(rows(
                                b,
                                "SELECT view_name, upstream_database, upstream_table, lag_epochs >= 0, lag_ms >= 0"
                                        + " FROM tributary_catalog.cross_database_inputs")
                        .keySet());
                assertEquals(List.of("agg|a|t|t|t", "filtered|a|t|t|t", "joined|a|t|t|t", "lefty|a|t|t|t"), lag);

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
                compare(b, pg, "seed " + seed + " after restart");
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

    private static void compare(Connection b, Connection pg, String where) throws Exception {
        long t0 = System.nanoTime();
        awaitCaughtUp(b);
        System.out.println("crossdb: caught up in " + (System.nanoTime() - t0) / 1_000_000 + " ms at " + where);
        for (int i = 0; i < VIEWS.length; i += 2) {
            String q = "SELECT * FROM " + VIEWS[i];
            if (!rows(pg, q).equals(rows(b, q))) {
                System.out.println("crossdb: MISMATCH " + VIEWS[i] + " " + rows(pg, q) + " vs " + rows(b, q));
                System.out.println("crossdb: " + rows(b, "SELECT * FROM tributary_catalog.cross_database_inputs"));
                Thread.sleep(3000);
                System.out.println("crossdb: later equal? " + rows(pg, q).equals(rows(b, q)));
            }
            assertEquals(rows(pg, q), rows(b, q), VIEWS[i] + " differs from PostgreSQL at " + where);
        }
    }

    /** Random INSERT, UPDATE and DELETE on a's t and b's d, the same on PostgreSQL. */
    private static void dml(Random random, Connection a, Connection b, Connection pg, int statements)
            throws SQLException {
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
