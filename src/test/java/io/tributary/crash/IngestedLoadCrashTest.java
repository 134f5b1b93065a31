package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;

/**
 * Bulk loads that commit as ingested SST files (a COPY or an INSERT ... SELECT of more rows than
 * {@code RunIngestion.MIN_PAIRS} into a table no view reads) under {@code kill -9}: each load goes
 * into a table of its own, so each takes the ingestion path; after a restart every table holds all
 * of its load's rows or none, every acknowledged load all of them, and a view created over the
 * loaded tables equals its query. The kill moment depends on timing; rerun a seed with
 * {@code -Dcrash.seed=N}.
 */
class IngestedLoadCrashTest {
    private static final int ROWS_PER_LOAD = 40_000;
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final String VIEW_QUERY = "SELECT v, count(*) AS n, sum(id) AS s FROM %s GROUP BY v";

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void loadsInterruptedByKill9AreAllOrNothing() throws Exception {
        long seed = Long.getLong("crash.seed", System.nanoTime());
        Random random = new Random(seed);
        Path dataDir = tempDir.resolve("loads");
        ServerProcess server = start(dataDir);
        LoadWriter writer = new LoadWriter(0);
        // rows of each load found after an earlier restart, which later restarts must keep
        List<Long> decided = new ArrayList<>();
        for (int cycle = 0; cycle < 2; cycle++) {
            server.writeThenKill(List.of(writer), 300 + random.nextInt(2000));
            server = start(dataDir);
            try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                    Statement st = c.createStatement()) {
                int complete = 0;
                for (int k = 0; k < writer.attempted; k++) {
                    long rows = Sql.scalar(st, "SELECT count(*) FROM " + writer.tableOf(k, st));
                    assertTrue(
                            rows == 0 || rows == ROWS_PER_LOAD,
                            "load " + k + " applied in part: " + rows + " rows (seed " + seed + ")");
                    if (k < decided.size()) {
                        assertEquals(decided.get(k), rows, "load " + k + " changed after a later restart");
                    } else {
                        decided.add(rows);
                    }
                    if (k >= writer.from && k < writer.acknowledged) {
                        assertEquals(ROWS_PER_LOAD, rows, "acknowledged load " + k + " lost (seed " + seed + ")");
                    }
                    if (rows > 0) {
                        assertEquals(
                                (long) ROWS_PER_LOAD * (ROWS_PER_LOAD + 1) / 2,
                                Sql.scalar(st, "SELECT sum(id) FROM l" + k),
                                "ids of load " + k);
                        complete++;
                    }
                }
                // a view over the last complete load sees exactly the ingested rows
                for (int k = writer.attempted - 1; k >= 0; k--) {
                    if (Sql.scalar(st, "SELECT count(*) FROM " + writer.tableOf(k, st)) > 0) {
                        String query = VIEW_QUERY.formatted("l" + k);
                        st.execute("CREATE MATERIALIZED VIEW mv" + cycle + " AS " + query);
                        assertEquals(Sql.rows(st, query), Sql.rows(st, "SELECT v, n, s FROM mv" + cycle));
                        break;
                    }
                }
                System.out.printf(
                        "ingested load crash (seed %d) cycle %d: %d loads acknowledged, %d sent, %d complete%n",
                        seed, cycle, writer.acknowledged, writer.attempted, complete);
                writer = new LoadWriter(writer.attempted);
            }
        }
    }

    /**
     * Creates table {@code l<k>} and loads ids 1..N into it, by COPY for even {@code k} and by
     * INSERT ... SELECT for odd.
     */
    private static final class LoadWriter implements CrashWriter {
        /** The first load this writer makes. */
        final int from;

        volatile int acknowledged;
        volatile int attempted;

        LoadWriter(int from) {
            this.from = from;
            this.acknowledged = from;
            this.attempted = from;
        }

        /** The table of load {@code k}, created empty if the kill came before its CREATE. */
        String tableOf(int k, Statement st) throws SQLException {
            st.execute("CREATE TABLE IF NOT EXISTS l" + k + " (id BIGINT PRIMARY KEY, v INT, w DOUBLE PRECISION)");
            return "l" + k;
        }

        @Override
        public void run(String jdbcUrl, AtomicBoolean killing, CountDownLatch firstAcknowledged) {
            try (Connection c = DriverManager.getConnection(jdbcUrl);
                    Statement st = c.createStatement()) {
                while (true) {
                    int k = attempted;
                    attempted++;
                    st.execute("CREATE TABLE l" + k + " (id BIGINT PRIMARY KEY, v INT, w DOUBLE PRECISION)");
                    long loaded = k % 2 == 0
                            ? c.unwrap(PGConnection.class)
                                    .getCopyAPI()
                                    .copyIn(
                                            "COPY l" + k + " FROM STDIN",
                                            new CopyCrashTest.RowsReader(1, ROWS_PER_LOAD + 1))
                            : st.executeUpdate("INSERT INTO l" + k + " SELECT x, x % 100, x * 0.5"
                                    + " FROM generate_series(1, " + ROWS_PER_LOAD + ") AS s(x)");
                    assertEquals(ROWS_PER_LOAD, loaded);
                    acknowledged++;
                    firstAcknowledged.countDown();
                }
            } catch (SQLException | java.io.IOException e) {
                if (!killing.get()) {
                    throw new AssertionError("load failed before the kill: " + e.getMessage(), e);
                }
            }
        }
    }

    private ServerProcess start(Path dataDir) throws Exception {
        return servers.start(dataDir, BARRIER_INTERVAL_MS);
    }
}
