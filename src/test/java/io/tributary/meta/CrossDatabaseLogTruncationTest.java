package io.tributary.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.server.ServedCluster;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.storage.ChangeLogReader;
import io.tributary.storage.ReadView;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code a}'s change log of a table that views of {@code b} and {@code c} read is kept while
 * either has not read it and truncated once both have committed reading it: with {@code c}'s view
 * backfilling slowly (rate-limited) the epochs written meanwhile stay, and once every reader has
 * caught up the log is empty again.
 */
class CrossDatabaseLogTruncationTest {
    @TempDir
    Path dataDir;

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static long scalar(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    /** The epochs {@code a}'s log of {@code t} holds now. */
    private static List<Long> logged(Database a) {
        int t = a.catalog().table("t").orElseThrow().id();
        try (ReadView view = a.store().snapshot()) {
            return new ChangeLogReader(view).epochsAfter(t, 0);
        }
    }

    /** Waits until every cross-database input of the session's database has read {@code a}'s last epoch. */
    private static void awaitCaughtUp(Connection reader) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (scalar(
                        reader,
                        "SELECT count(*) FROM tributary_catalog.cross_database_inputs"
                                + " WHERE consumed_epoch < upstream_epoch OR consumed_epoch IS NULL")
                > 0) {
            assertTrue(System.currentTimeMillis() < deadline, "the readers did not catch up");
            Thread.sleep(20);
        }
    }

    @Test
    void logIsKeptUntilEveryReaderHasReadItThenTruncated() throws Exception {
        Cluster cluster = Cluster.open(dataDir, 20, CalciteViewPlanner::new);
        try (ServedCluster served = new ServedCluster(cluster)) {
            try (Connection dev = served.connect("dev", 60)) {
                exec(dev, "CREATE DATABASE a");
                exec(dev, "CREATE DATABASE b");
                exec(dev, "CREATE DATABASE c");
            }
            Database a = cluster.database("a").orElseThrow();
            try (Connection ca = served.connect("a", 60);
                    Connection cb = served.connect("b", 60);
                    Connection cc = served.connect("c", 60)) {
                exec(ca, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
                exec(ca, "INSERT INTO t SELECT x, x % 7 FROM generate_series(1, 5000) AS s(x)");
                exec(cb, "CREATE MATERIALIZED VIEW fast AS SELECT v, count(*) AS n FROM a.public.t GROUP BY v");
                exec(cc, "SET background_ddl = true");
                exec(cc, "SET backfill_rate_limit = 200");
                exec(cc, "CREATE MATERIALIZED VIEW slow AS SELECT v, count(*) AS n FROM a.public.t GROUP BY v");
                for (int i = 0; i < 5; i++) {
                    exec(ca, "INSERT INTO t VALUES (" + (10_000 + i) + ", 1)");
                }
                awaitCaughtUp(cb);
                // b has read them; c, still backfilling, has not: a keeps them
                assertEquals(1, scalar(cc, "SELECT count(*) FROM tributary_catalog.ddl_progress"));
                assertFalse(logged(a).isEmpty(), "a's log must be kept for c's backfilling view");
                exec(cc, "ALTER MATERIALIZED VIEW slow SET BACKFILL_RATE_LIMIT = DEFAULT");
                exec(cc, "WAIT");
                awaitCaughtUp(cc);
                awaitCaughtUp(cb);
                long deadline = System.currentTimeMillis() + 30_000;
                while (!logged(a).isEmpty()) {
                    assertTrue(
                            System.currentTimeMillis() < deadline,
                            "a's log was not truncated after every reader read it: " + logged(a));
                    Thread.sleep(20);
                }
                assertEquals(
                        scalar(ca, "SELECT count(*) FROM t WHERE v = 1"),
                        scalar(cc, "SELECT n FROM slow WHERE v = 1"),
                        "c's view read the kept log");
            }
        }
    }
}
