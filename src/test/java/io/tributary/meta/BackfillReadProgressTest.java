package io.tributary.meta;

import static io.tributary.meta.BackfillFixture.assertViewEqualsQuery;
import static io.tributary.meta.BackfillFixture.exec;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A backfill's progress moves between its checkpoints: {@code ddl_progress.rows_read} and SHOW JOBS's "read" share
 * count the rows read since the last checkpoint, while {@code rows_done} (what a restart keeps) moves only at
 * checkpoints. Checkpoints here are three seconds apart and the job reads 2,000 rows a second, so between two of them
 * the rows read must move several times while the rows done stay.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BackfillReadProgressTest {
    private static final int ROWS = 40_000;
    private static final String QUERY = "SELECT g, count(*) AS n, max(v) AS hi FROM t GROUP BY g";

    private record Sample(long done, long read, String showJobs) {}

    @Test
    void rowsReadMoveBetweenCheckpointsAndNeverFallBelowRowsDone() throws Exception {
        try (BackfillFixture f = new BackfillFixture(3_000);
                Connection c = f.connect()) {
            exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, g INT, v INT)");
            exec(c, "INSERT INTO t SELECT x, x % 100, x FROM generate_series(1, " + ROWS + ") AS s(x)");
            exec(c, "SET streaming_parallelism = 1");
            exec(c, "SET backfill_rate_limit = 2000");
            exec(c, "SET background_ddl = true");
            exec(c, "CREATE MATERIALIZED VIEW m AS " + QUERY);

            List<Sample> samples = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // the share read shows once the snapshot's rows are counted; before, the rows read ("0.00% (0/?), 1226
            // read")
            while (movesWithoutCheckpoint(samples) < 3
                    || samples.stream().noneMatch(BackfillReadProgressTest::showsShare)) {
                assertTrue(System.nanoTime() < deadline, "rows read never moved between checkpoints: " + samples);
                Sample s = sample(c);
                if (s != null) {
                    assertTrue(s.read() >= s.done(), "rows read below rows done: " + s);
                    samples.add(s);
                }
                Thread.sleep(50);
            }
            assertTrue(
                    samples.stream()
                            .anyMatch(s -> s.showJobs().matches("\\d+\\.\\d\\d% \\(\\d+/\\d+\\), \\d+\\.\\d\\d% read")),
                    "SHOW JOBS shows the share read: " + samples);

            exec(c, "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = DEFAULT");
            exec(c, "WAIT MATERIALIZED VIEW m");
            assertViewEqualsQuery(c, "m", QUERY);
        }
    }

    private static boolean showsShare(Sample s) {
        return s.showJobs().matches("\\d+\\.\\d\\d% \\(\\d+/\\d+\\), \\d+\\.\\d\\d% read");
    }

    /** How many samples read more than the one before while done stayed the same (no checkpoint between them). */
    private static int movesWithoutCheckpoint(List<Sample> samples) {
        int moves = 0;
        for (int i = 1; i < samples.size(); i++) {
            Sample a = samples.get(i - 1);
            Sample b = samples.get(i);
            if (a.done() == b.done() && b.read() > a.read() && b.read() > b.done()) {
                moves++;
            }
        }
        return moves;
    }

    /** The job's rows done and read and its SHOW JOBS progress, or null when it has no row yet. */
    private static Sample sample(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            long done;
            long read;
            try (ResultSet rs = st.executeQuery(
                    "SELECT rows_done, rows_read FROM tributary_catalog.ddl_progress WHERE view_name = 'm'")) {
                if (!rs.next()) {
                    return null;
                }
                done = rs.getLong(1);
                read = rs.getLong(2);
            }
            try (ResultSet rs = st.executeQuery("SHOW JOBS")) {
                return rs.next() ? new Sample(done, read, rs.getString(3)) : null;
            }
        }
    }
}
