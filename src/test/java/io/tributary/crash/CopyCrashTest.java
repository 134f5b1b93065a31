package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;

/**
 * Large {@code COPY ... FROM STDIN} statements under {@code kill -9}: a COPY acknowledged with
 * CommandComplete has every row after a restart, and the COPY the kill interrupted has all of its
 * rows or none. With a view over the table (rows staged one by one, with the change log) the view
 * must agree with the table afterwards, so the change log neither lost nor replayed a COPY twice;
 * without one the COPYs take the packed path. The kill moment depends on timing; rerun a seed with
 * {@code -Dcrash.seed=N}.
 */
class CopyCrashTest {
    /** Rows of each COPY: large enough that a kill often lands while one is parsed or committed. */
    private static final int ROWS_PER_COPY = 40_000;

    private static final long BARRIER_INTERVAL_MS = 20;

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void aCopyAcknowledgedJustBeforeKill9HasAllItsRows() throws Exception {
        Path dataDir = tempDir.resolve("acked");
        ServerProcess server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl())) {
            createTables(c, true);
            assertEquals(ROWS_PER_COPY * 5L, copy(c, 0, ROWS_PER_COPY * 5L));
        }
        // no pause: the kill follows CommandComplete at once, before any later epoch commits
        server.kill9();
        server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl())) {
            assertBatches(c, 5, 5, true);
        }
    }

    @Test
    void copiesInterruptedByKill9AreAllOrNothing() throws Exception {
        long seed = Long.getLong("crash.seed", System.nanoTime());
        Random random = new Random(seed);
        Path dataDir = tempDir.resolve("in-doubt");
        ServerProcess server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl())) {
            // no view: the COPYs take the packed path (TableWriter's KeyValueRun)
            createTables(c, false);
        }
        CopyWriter writer = new CopyWriter(0);
        for (int cycle = 0; cycle < 2; cycle++) {
            server.writeThenKill(List.of(writer), 200 + random.nextInt(1500));
            server = start(dataDir);
            try (Connection c = DriverManager.getConnection(server.jdbcUrl())) {
                int applied = assertBatches(c, writer.acknowledged, writer.attempted, false);
                System.out.printf(
                        "copy crash (seed %d) cycle %d: %d COPYs acknowledged, %d applied after restart%n",
                        seed, cycle, writer.acknowledged, applied);
                writer = new CopyWriter(applied);
            }
        }
    }

    /** Copies batches of {@link #ROWS_PER_COPY} rows, batch {@code b} holding ids {@code [b*N, (b+1)*N)}. */
    private static final class CopyWriter implements CrashWriter {
        /** Batches known committed (acknowledged, or found applied after a restart). */
        volatile int acknowledged;
        /** Batches sent, including the one in doubt. */
        volatile int attempted;

        CopyWriter(int committed) {
            this.acknowledged = committed;
            this.attempted = committed;
        }

        @Override
        public void run(String jdbcUrl, AtomicBoolean killing, CountDownLatch firstAcknowledged) {
            try (Connection c = DriverManager.getConnection(jdbcUrl)) {
                while (true) {
                    long from = (long) attempted * ROWS_PER_COPY;
                    attempted++;
                    long copied = copy(c, from, ROWS_PER_COPY);
                    assertEquals(ROWS_PER_COPY, copied);
                    acknowledged++;
                    firstAcknowledged.countDown();
                }
            } catch (SQLException e) {
                if (!killing.get()) {
                    throw new AssertionError("COPY failed before the kill: " + e.getMessage(), e);
                }
            } catch (java.io.IOException e) {
                if (!killing.get()) {
                    throw new AssertionError("COPY failed before the kill: " + e.getMessage(), e);
                }
            }
        }
    }

    private ServerProcess start(Path dataDir) throws Exception {
        return servers.start(dataDir, BARRIER_INTERVAL_MS);
    }

    private static void createTables(Connection c, boolean withView) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT, w DOUBLE PRECISION)");
            if (withView) {
                st.execute("CREATE MATERIALIZED VIEW per_v AS SELECT v, count(*) AS n, sum(id) AS s FROM t GROUP BY v");
            }
        }
    }

    /** COPYs ids {@code [from, from + count)} as {@code id, id % 100, id * 0.5}; returns the reported count. */
    private static long copy(Connection c, long from, long count) throws SQLException, java.io.IOException {
        return c.unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY t FROM STDIN", new RowsReader(from, from + count));
    }

    /**
     * Checks the table holds exactly whole batches {@code [0, k)} with {@code acknowledged <= k <=
     * attempted} and, {@code withView}, that the view agrees; returns {@code k}.
     */
    private static int assertBatches(Connection c, int acknowledged, int attempted, boolean withView)
            throws SQLException {
        try (Statement st = c.createStatement()) {
            long rows;
            long minId;
            long maxId;
            long idSum;
            try (ResultSet rs = st.executeQuery("SELECT count(*), min(id), max(id), sum(id) FROM t")) {
                rs.next();
                rows = rs.getLong(1);
                minId = rs.getLong(2);
                maxId = rs.getLong(3);
                idSum = rs.getLong(4);
            }
            assertEquals(0, rows % ROWS_PER_COPY, "a COPY was applied in part: " + rows + " rows");
            int batches = (int) (rows / ROWS_PER_COPY);
            assertTrue(
                    batches >= acknowledged && batches <= attempted,
                    batches + " COPYs applied, " + acknowledged + " acknowledged, " + attempted + " sent");
            if (batches > 0) {
                assertEquals(0, minId);
                assertEquals(rows - 1, maxId);
                assertEquals(rows * (rows - 1) / 2, idSum, "ids lost or doubled");
            }
            if (!withView) {
                return batches;
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*), sum(n), sum(s) FROM per_v")) {
                rs.next();
                assertEquals(batches == 0 ? 0 : Math.min(rows, 100), rs.getLong(1), "groups in the view");
                assertEquals(rows, rs.getLong(2), "rows counted by the view");
                assertEquals(idSum, rs.getLong(3), "ids summed by the view");
            }
            return batches;
        }
    }

    /** The text-format lines of ids {@code [from, to)}, made as they are read. */
    static final class RowsReader extends Reader {
        private final StringBuilder line = new StringBuilder();
        private long next;
        private final long to;
        private int at;

        RowsReader(long from, long to) {
            this.next = from;
            this.to = to;
        }

        @Override
        public int read(char[] buf, int off, int len) {
            int n = 0;
            while (n < len) {
                if (at == line.length()) {
                    if (next == to) {
                        return n == 0 ? -1 : n;
                    }
                    line.setLength(0);
                    line.append(next)
                            .append('\t')
                            .append(next % 100)
                            .append('\t')
                            .append(next * 0.5)
                            .append('\n');
                    next++;
                    at = 0;
                }
                int k = Math.min(len - n, line.length() - at);
                line.getChars(at, at + k, buf, off + n);
                at += k;
                n += k;
            }
            return n;
        }

        @Override
        public void close() {}
    }
}
