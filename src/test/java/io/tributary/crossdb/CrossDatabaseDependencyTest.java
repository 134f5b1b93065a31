package io.tributary.crossdb;

import static io.tributary.crossdb.CrossDatabaseViewsTest.awaitCaughtUp;
import static io.tributary.crossdb.CrossDatabaseViewsTest.exec;
import static io.tributary.crossdb.CrossDatabaseViewsTest.rows;
import static io.tributary.crossdb.CrossDatabaseViewsTest.sqlState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.server.ServedCluster;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * DROP in database {@code a} of a relation that views of database {@code b} read through chains of
 * plain views: in {@code b}'s database ({@code bv2 → bv1 → a.public.t}, and a materialized view
 * over {@code bv2}), in {@code a}'s ({@code cv → a.public.av2 → av1 → t2}), in both ({@code dv2 →
 * dv1 → a.public.av3 → t3}) and over a materialized view of {@code a}. Across a restart (the
 * dependencies are the durable definitions): DROP TABLE, DROP VIEW, DROP MATERIALIZED VIEW and
 * DROP DATABASE are refused with 2BP01 naming the reader in PostgreSQL's DETAIL, the readers still
 * answer; CASCADE drops the readers in {@code b} first.
 */
class CrossDatabaseDependencyTest {
    @TempDir
    Path dataDir;

    private ServedCluster served;

    @AfterEach
    void stop() {
        if (served != null) {
            served.close();
        }
    }

    /** The error {@code sql} fails with, as PostgreSQL's fields. */
    private static ServerErrorMessage refused(Connection c, String sql) {
        PSQLException e = assertThrows(PSQLException.class, () -> exec(c, sql));
        assertEquals("2BP01", e.getSQLState(), () -> sql + ": " + e.getMessage());
        return e.getServerErrorMessage();
    }

    private static void assertDetail(ServerErrorMessage m, String expected) {
        assertTrue(
                m.getDetail() != null && m.getDetail().contains(expected), () -> m.getDetail() + " lacks " + expected);
    }

    @Test
    void dropFollowsPlainViewChainsAcrossDatabases() throws Exception {
        served = ServedCluster.open(dataDir);
        try (Connection dev = served.connect("dev", 60)) {
            exec(dev, "CREATE DATABASE a");
            exec(dev, "CREATE DATABASE b");
        }
        try (Connection a = served.connect("a", 60);
                Connection b = served.connect("b", 60)) {
            for (String t : new String[] {"t", "t2", "t3"}) {
                exec(a, "CREATE TABLE " + t + " (id INT PRIMARY KEY, v INT)");
                exec(a, "INSERT INTO " + t + " SELECT g, g % 5 FROM generate_series(1, 40) g");
            }
            exec(a, "CREATE VIEW av1 AS SELECT id, v FROM t2 WHERE v > 0");
            exec(a, "CREATE VIEW av2 AS SELECT id FROM av1");
            exec(a, "CREATE VIEW av3 AS SELECT id, v FROM t3");
            exec(a, "CREATE MATERIALIZED VIEW amv AS SELECT v, count(*) AS n FROM t3 GROUP BY v");
            // the chain in the reader's database
            exec(b, "CREATE VIEW bv1 AS SELECT id, v FROM a.public.t");
            exec(b, "CREATE VIEW bv2 AS SELECT v FROM bv1 WHERE id > 10");
            exec(b, "CREATE MATERIALIZED VIEW bmv AS SELECT v, count(*) AS n FROM bv2 GROUP BY v");
            // the chain in the upstream's database
            exec(b, "CREATE VIEW cv AS SELECT count(*) AS n FROM a.public.av2");
            // both
            exec(b, "CREATE VIEW dv1 AS SELECT id FROM a.public.av3 WHERE v = 1");
            exec(b, "CREATE VIEW dv2 AS SELECT count(*) AS n FROM dv1");
            // a plain view of b over a materialized view of a
            exec(b, "CREATE VIEW ev AS SELECT n FROM a.public.amv");
        }

        // the dependencies are durable: a restart in between
        served.close();
        served = ServedCluster.open(dataDir);

        try (Connection a = served.connect("a", 60)) {
            ServerErrorMessage t = refused(a, "DROP TABLE t");
            assertDetail(t, "view bv1 of database b depends on table t");
            assertDetail(t, "materialized view bmv of database b depends on view bv2 of database b");
            assertEquals("Use DROP ... CASCADE to drop the dependent objects too.", t.getHint());
            assertDetail(refused(a, "DROP VIEW av2"), "view cv of database b depends on view av2");
            assertDetail(refused(a, "DROP VIEW av1"), "view av2 depends on view av1");
            ServerErrorMessage av3 = refused(a, "DROP VIEW av3");
            assertDetail(av3, "view dv1 of database b depends on view av3");
            assertDetail(av3, "view dv2 of database b depends on view dv1 of database b");
            assertDetail(refused(a, "DROP MATERIALIZED VIEW amv"), "view ev of database b");
        }
        // with no session in a (55006 comes first, as in PostgreSQL)
        try (Connection dev = served.connect("dev", 60)) {
            ServerErrorMessage database = refused(dev, "DROP DATABASE a");
            for (String reader : new String[] {"bv1", "bv2", "bmv", "cv", "dv1", "dv2", "ev"}) {
                assertDetail(database, " " + reader + " of database b depends on ");
            }
        }
        try (Connection a = served.connect("a", 60);
                Connection b = served.connect("b", 60)) {
            // nothing was dropped: every reader still answers
            awaitCaughtUp(b);
            assertEquals(Map.of("24", 1), rows(b, "SELECT count(*) FROM bv2 WHERE v > 0"));
            assertEquals(Map.of("24", 1), rows(b, "SELECT sum(n) FROM bmv WHERE v > 0"));
            assertEquals(Map.of("32", 1), rows(b, "SELECT n FROM cv"));
            assertEquals(Map.of("8", 1), rows(b, "SELECT n FROM dv2"));
            assertEquals(Map.of("40", 1), rows(b, "SELECT sum(n) FROM ev"));

            // CASCADE drops the readers in b first, then what a drops
            exec(a, "DROP TABLE t CASCADE");
            for (String gone : new String[] {"bv1", "bv2", "bmv"}) {
                assertEquals("42P01", sqlState(b, "SELECT * FROM " + gone), gone);
            }
            exec(a, "DROP VIEW av2 CASCADE");
            assertEquals("42P01", sqlState(b, "SELECT * FROM cv"));
            assertEquals(Map.of("32", 1), rows(a, "SELECT count(*) FROM av1"), "av1 does not read av2");
            exec(a, "DROP TABLE t3 CASCADE");
            for (String gone : new String[] {"dv1", "dv2", "ev"}) {
                assertEquals("42P01", sqlState(b, "SELECT * FROM " + gone), gone);
            }
            assertEquals("42P01", sqlState(a, "SELECT * FROM amv"));
            assertEquals(Map.of(), rows(b, "SELECT view_name FROM tributary_catalog.cross_database_inputs"));
        }
        try (Connection dev = served.connect("dev", 60)) {
            exec(dev, "DROP DATABASE a");
        }
    }

    @Test
    void dropCascadeSurvivesRestartOfTheReaders() throws SQLException {
        served = ServedCluster.open(dataDir);
        try (Connection dev = served.connect("dev", 60)) {
            exec(dev, "CREATE DATABASE a");
            exec(dev, "CREATE DATABASE b");
        }
        try (Connection a = served.connect("a", 60);
                Connection b = served.connect("b", 60)) {
            exec(a, "CREATE TABLE t (id INT PRIMARY KEY)");
            exec(b, "CREATE VIEW bv AS SELECT id FROM a.public.t");
            exec(a, "DROP TABLE t CASCADE");
        }
        served.close();
        served = ServedCluster.open(dataDir);
        try (Connection b = served.connect("b", 60)) {
            assertEquals("42P01", sqlState(b, "SELECT * FROM bv"), "the dropped reader stays dropped");
        }
    }
}
