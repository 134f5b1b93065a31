package io.tributary.crossdb;

import static io.tributary.crossdb.CrossDatabaseViewsTest.awaitCaughtUp;
import static io.tributary.crossdb.CrossDatabaseViewsTest.exec;
import static io.tributary.crossdb.CrossDatabaseViewsTest.rows;
import static io.tributary.crossdb.CrossDatabaseViewsTest.sqlState;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.server.ServedCluster;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain views of database {@code a} read from database {@code b} ({@code a.public.av}): in queries
 * and in a materialized view of {@code b} joining {@code b}'s table, the view's body bound in
 * {@code a} even though {@code b} has a table {@code t} too. Compared after rounds of random DML on
 * both sides with the same queries over the same data in one embedded PostgreSQL database (where
 * {@code b}'s own {@code t} does not exist, so reading it would differ). Then DROP of the view or
 * its base table in {@code a} while {@code b}'s materialized view reads it: 2BP01, and CASCADE
 * drops the reader.
 */
class CrossDatabasePlainViewTest {
    private static final String AV = "SELECT k, count(*) AS n, sum(v) AS s FROM t GROUP BY k";
    private static final String AV2 = "SELECT k, s FROM av WHERE n > 1";
    private static final String SV = "SELECT id, v FROM t WHERE v > 50";
    /** Queries of b, {@code %a%} standing for {@code a.} in Tributary and nothing in PostgreSQL. */
    private static final String[] QUERIES = {
        "SELECT * FROM %a%public.av",
        "SELECT x.k, x.s, d.name FROM %a%public.av AS x JOIN d ON x.k = d.k",
        "SELECT * FROM %a%public.av2",
        "SELECT count(*), sum(v) FROM %a%s.sv",
        "SELECT d.name, count(*) FROM %a%s.sv AS sv JOIN %a%public.t AS t ON sv.id = t.id JOIN d ON t.k = d.k"
                + " GROUP BY d.name",
    };

    private static final String BM = "SELECT x.k, x.s, d.name FROM %a%public.av AS x JOIN d ON x.k = d.k";

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
    void plainViewsOfAnotherDatabaseMatchPostgres() throws Exception {
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
                    exec(c, "CREATE SCHEMA s");
                    exec(c, "CREATE VIEW av AS " + AV);
                    exec(c, "CREATE VIEW av2 AS " + AV2);
                    exec(c, "CREATE VIEW s.sv AS " + SV);
                }
                for (Connection c : List.of(b, pg)) {
                    exec(c, "CREATE TABLE d (k INT PRIMARY KEY, name TEXT)");
                }
                // b's own t, which the bodies of a's views must never read
                exec(b, "CREATE TABLE t (id INT PRIMARY KEY, k INT, v INT)");
                exec(b, "INSERT INTO t SELECT g, g % 12, 99 FROM generate_series(1, 50) g");
                exec(b, "CREATE MATERIALIZED VIEW bm AS " + BM.replace("%a%", "a."));
                exec(pg, "CREATE VIEW bm AS " + BM.replace("%a%", ""));
                for (int round = 0; round < 4; round++) {
                    CrossDatabaseViewsTest.dml(random, a, b, pg, 30);
                    compare(b, pg, "seed " + seed + " round " + round);
                }

                // a relation of a's user schema that does not exist
                assertEquals("42P01", sqlState(b, "CREATE MATERIALIZED VIEW bu AS SELECT x FROM a.s.nope"));

                // the view or its base table cannot go while bm reads them, unless CASCADE
                assertEquals("2BP01", sqlState(a, "DROP VIEW av"));
                assertEquals("2BP01", sqlState(a, "DROP TABLE t"));
                compare(b, pg, "after the refused drops");
                exec(a, "DROP VIEW av CASCADE");
                assertEquals("42P01", sqlState(b, "SELECT * FROM bm"));
                assertEquals("42P01", sqlState(b, "SELECT * FROM a.public.av2"));
                assertEquals(Map.of("0", 1), rows(b, "SELECT count(*) FROM tributary_catalog.cross_database_inputs"));
            }
        }
    }

    private static void compare(Connection b, Connection pg, String where) throws Exception {
        awaitCaughtUp(b);
        assertEquals(rows(pg, "SELECT * FROM bm"), rows(b, "SELECT * FROM bm"), "bm differs at " + where);
        for (String q : QUERIES) {
            assertEquals(
                    rows(pg, q.replace("%a%", "")),
                    rows(b, q.replace("%a%", "a.")),
                    q + " differs from PostgreSQL at " + where);
        }
    }
}
