package io.tributary.crossdb;

import static io.tributary.crossdb.CrossDatabaseViewsTest.exec;
import static io.tributary.crossdb.CrossDatabaseViewsTest.rows;
import static io.tributary.crossdb.CrossDatabaseViewsTest.sqlState;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.server.ServedCluster;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain queries in database {@code b} that read tables and materialized views of database {@code a}
 * with three-part names, over pgjdbc: scans, joins with {@code b}'s tables, aggregates and
 * subqueries, compared after rounds of random DML on both sides with the same queries (two-part
 * names) over the same data in one embedded PostgreSQL database. Each query runs right after the
 * DML, so what {@code a} committed before it is what it reads. Also: a prepared query sees DDL in
 * {@code a}, names are 3D000 or 42P01 as PostgreSQL's, a plain view of {@code a} reads as in
 * PostgreSQL, writes into {@code a} from {@code b} are 0A000.
 */
class CrossDatabaseSelectTest {
    private static final String[] QUERIES = {
        "SELECT * FROM %a%t",
        "SELECT t.id, t.v, d.name FROM %a%t AS t JOIN d ON t.k = d.k",
        "SELECT k, count(*), sum(v), max(v) FROM %a%t GROUP BY k",
        "SELECT d.name, count(t.id), sum(t.v) FROM d LEFT JOIN %a%t AS t ON t.k = d.k GROUP BY d.name",
        "SELECT * FROM d WHERE k IN (SELECT k FROM %a%t WHERE v > 50)",
        "SELECT x.id, y.id FROM %a%t AS x JOIN %a%t AS y ON x.k = y.k AND x.id < y.id",
        "SELECT v FROM %a%t WHERE id = 17",
        "SELECT m.k, m.n, d.name FROM %a%am AS m JOIN d ON m.k = d.k",
        "SELECT count(*) FROM %a%t UNION ALL SELECT count(*) FROM d",
    };

    @TempDir
    Path dataDir;

    private ServedCluster served;

    @AfterEach
    void stop() {
        if (served != null) {
            served.close();
        }
    }

    @Test
    void queriesAcrossDatabasesMatchPostgres() throws Exception {
        served = ServedCluster.open(dataDir);
        long seed = Long.getLong("crossdb.seed", 20261202L);
        Random random = new Random(seed);
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
                Connection pg = postgres.getPostgresDatabase().getConnection()) {
            try (Connection dev = served.connect("dev", 60)) {
                exec(dev, "CREATE DATABASE a");
                exec(dev, "CREATE DATABASE b");
            }
            try (Connection a = served.connect("a", 60);
                    Connection b = served.connect("b", 60)) {
                for (Connection c : List.of(a, pg)) {
                    exec(c, "CREATE TABLE t (id INT PRIMARY KEY, k INT, v INT)");
                }
                for (Connection c : List.of(b, pg)) {
                    exec(c, "CREATE TABLE d (k INT PRIMARY KEY, name TEXT)");
                }
                String upstream = "SELECT k, count(*) AS n FROM t GROUP BY k";
                exec(a, "CREATE MATERIALIZED VIEW am AS " + upstream);
                exec(pg, "CREATE VIEW am AS " + upstream);
                for (int round = 0; round < 5; round++) {
                    CrossDatabaseViewsTest.dml(random, a, b, pg, 30);
                    compare(b, pg, "seed " + seed + " round " + round);
                }
                // a write in a is read by b's next statement
                try (PreparedStatement count = b.prepareStatement("SELECT count(*) FROM a.public.t WHERE id >= 1000")) {
                    for (int i = 0; i < 5; i++) {
                        exec(a, "INSERT INTO t VALUES (" + (1000 + i) + ", 1, 1)");
                        assertEquals(i + 1, single(count));
                    }
                }
                // reading a while writing b
                exec(b, "INSERT INTO d SELECT id, 'from a' FROM a.public.t WHERE id >= 1000");
                exec(
                        pg,
                        "INSERT INTO d VALUES (1000, 'from a'), (1001, 'from a'), (1002, 'from a'),"
                                + " (1003, 'from a'), (1004, 'from a')");
                exec(pg, "INSERT INTO t VALUES (1000, 1, 1), (1001, 1, 1), (1002, 1, 1), (1003, 1, 1), (1004, 1, 1)");
                compare(b, pg, "after INSERT ... SELECT across databases");

                // a cached plan of b follows DDL in a
                String q = "SELECT * FROM a.public.r";
                exec(a, "CREATE TABLE r (x INT PRIMARY KEY)");
                exec(a, "INSERT INTO r VALUES (1)");
                assertEquals(Map.of("1", 1), rows(b, q));
                assertEquals(Map.of("1", 1), rows(b, q));
                exec(a, "DROP TABLE r");
                assertEquals("42P01", sqlState(b, q));
                exec(a, "CREATE TABLE r (x TEXT PRIMARY KEY, y INT)");
                exec(a, "INSERT INTO r VALUES ('two', 2)");
                assertEquals(Map.of("two|2", 1), rows(b, q));
                // a relation of a user schema of a
                exec(a, "CREATE SCHEMA s");
                exec(a, "CREATE TABLE s.u (x INT PRIMARY KEY)");
                exec(a, "INSERT INTO s.u VALUES (5)");
                assertEquals(Map.of("5", 1), rows(b, "SELECT x FROM a.s.u"));

                // names and errors as PostgreSQL gives them
                assertEquals("3D000", sqlState(b, "SELECT * FROM nope.public.t"));
                assertEquals("42P01", sqlState(b, "SELECT * FROM a.public.nope"));
                assertEquals("42P01", sqlState(b, "SELECT * FROM a.nope.t"));
                exec(a, "CREATE VIEW pv AS SELECT id FROM t");
                exec(pg, "CREATE VIEW pv AS SELECT id FROM t");
                assertEquals(rows(pg, "SELECT * FROM pv"), rows(b, "SELECT * FROM a.public.pv"));
                assertEquals("0A000", sqlState(b, "INSERT INTO a.public.t VALUES (2000, 1, 1)"));
                assertEquals("0A000", sqlState(b, "UPDATE a.public.t SET v = 0"));
                assertEquals("0A000", sqlState(b, "DELETE FROM a.public.t"));
                compare(b, pg, "after the refused writes");

                // a plain view of b over a's table
                exec(
                        b,
                        "CREATE VIEW bv AS SELECT t.k, count(*) AS n FROM a.public.t AS t JOIN d ON t.k = d.k GROUP BY t.k");
                exec(
                        pg,
                        "CREATE VIEW bv AS SELECT t.k, count(*) AS n FROM public.t AS t JOIN d ON t.k = d.k GROUP BY t.k");
                assertEquals(rows(pg, "SELECT * FROM bv"), rows(b, "SELECT * FROM bv"));

                // an open cursor of b holds a's snapshot: a cannot be dropped under it
                b.setAutoCommit(false);
                try (java.sql.Statement st = b.createStatement()) {
                    st.setFetchSize(5);
                    try (ResultSet rs = st.executeQuery("SELECT id FROM a.public.t")) {
                        rs.next();
                        try (Connection dev = served.connect("dev", 60)) {
                            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(
                                    SQLException.class, () -> exec(dev, "DROP DATABASE a"));
                            assertEquals("55006", e.getSQLState());
                            org.junit.jupiter.api.Assertions.assertTrue(
                                    e.getMessage().contains("2 other sessions"), e.getMessage());
                        }
                        int n = 1;
                        while (rs.next()) {
                            n++;
                        }
                        assertEquals(rows(pg, "SELECT count(*) FROM t"), Map.of(String.valueOf(n), 1));
                    }
                }
                b.commit();
                b.setAutoCommit(true);
            }
        }
    }

    private static long single(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void compare(Connection b, Connection pg, String where) throws SQLException {
        for (String query : QUERIES) {
            assertEquals(
                    rows(pg, query.replace("%a%", "public.")),
                    rows(b, query.replace("%a%", "a.public.")),
                    query + " differs from PostgreSQL at " + where);
        }
    }
}
