package io.tributary.meta;

import static io.tributary.meta.BackfillFixture.assertViewEqualsQuery;
import static io.tributary.meta.BackfillFixture.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.meta.ddl.JobInfo;
import io.tributary.stream.backfill.BackfillProgress;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code backfill_rate_limit}: a backfill with one parallel unit reads its rate's rows per second (within 20%),
 * measured between two checkpoints (progress moves only at checkpoints, every barrier interval) over a table far
 * larger than what the measurement reads; {@code ALTER ... SET BACKFILL_RATE_LIMIT = 0} pauses it at once. The
 * CREATE runs in the foreground meanwhile, so it also checks the progress NOTICEs a waiting client receives.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BackfillRateTest {
    private static final int ROWS = 60_000;
    private static final long RATE = 2_000;
    private static final long MEASURE_NANOS = TimeUnit.MILLISECONDS.toNanos(3_500);
    private static final String QUERY = "SELECT g, count(*) AS n, sum(v) AS s FROM t GROUP BY g";

    /** A job's rows done at a moment. */
    private record Sample(long nanos, long rows) {}

    private static long rowsDone(BackfillFixture f, int job) {
        for (JobInfo info : f.db.ddl().jobs()) {
            if (info.id() == job) {
                BackfillProgress p = info.progress();
                return p == null ? 0 : p.rowsDone();
            }
        }
        throw new AssertionError("job " + job + " is not running");
    }

    /** Rows done once they stayed the same for five seconds; fails if they never rest within 40 seconds. */
    private static long awaitResting(BackfillFixture f, int job) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        long rows = rowsDone(f, job);
        long since = System.nanoTime();
        while (System.nanoTime() - since < TimeUnit.SECONDS.toNanos(5)) {
            assertTrue(System.nanoTime() < deadline, "rows done never rest after the pause: " + rows);
            Thread.sleep(20);
            long now = rowsDone(f, job);
            if (now != rows) {
                rows = now;
                since = System.nanoTime();
            }
        }
        return rows;
    }

    @Test
    void backfillReadsAtItsRateLimitAndPausesAtZero() throws Exception {
        try (BackfillFixture f = new BackfillFixture(20);
                Connection c = f.connect();
                Connection other = f.connect()) {
            exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, g INT, v INT)");
            exec(c, "INSERT INTO t SELECT x, x % 10, x FROM generate_series(1, " + ROWS + ") AS s(x)");
            exec(c, "SET streaming_parallelism = 1");
            exec(c, "SET backfill_rate_limit = " + RATE);
            try (Statement create = c.createStatement()) {
                CompletableFuture<Void> created = CompletableFuture.runAsync(() -> {
                    try {
                        create.execute("CREATE MATERIALIZED VIEW m AS " + QUERY);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                while (f.db.catalog().table("m").isEmpty()) {
                    Thread.sleep(5);
                }
                int job = f.id("m");

                // Progress moves at checkpoints: the first sample is the first checkpoint after a warm-up of a
                // quarter of a second's rows, the last the last checkpoint within the measured span.
                // Checkpoints are spaced by their own cost (a slow one delays the next), so the span is measured
                // between checkpoints, not until a clock runs out: it ends at the first checkpoint at least
                // MEASURE_NANOS after the first sample.
                List<Sample> samples = new ArrayList<>();
                long last = -1;
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (samples.isEmpty()
                        || samples.get(samples.size() - 1).nanos()
                                        - samples.get(0).nanos()
                                < MEASURE_NANOS) {
                    assertTrue(System.nanoTime() < giveUp, "no checkpoint spans the measurement: " + samples);
                    long rows = rowsDone(f, job);
                    if (rows != last && rows >= RATE / 4) {
                        samples.add(new Sample(System.nanoTime(), rows));
                    }
                    last = rows;
                    Thread.sleep(1);
                }
                Sample first = samples.get(0);
                Sample end = samples.get(samples.size() - 1);
                double seconds = (end.nanos() - first.nanos()) / 1e9;
                double rate = (end.rows() - first.rows()) / seconds;
                System.out.printf(
                        Locale.ROOT,
                        "backfill rate: %.0f rows/s with a limit of %d (%d checkpoints over"
                                + " %.2f s, rows %d -> %d)%n",
                        rate,
                        RATE,
                        samples.size(),
                        seconds,
                        first.rows(),
                        end.rows());
                assertTrue(end.rows() < ROWS / 2, "the table outlasts the measurement");
                assertTrue(Math.abs(rate - RATE) <= 0.2 * RATE, "rate " + rate + " within 20% of " + RATE);

                exec(other, "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = 0");
                // What was read before the ALTER reaches the next checkpoints, which a loaded machine (or a slow
                // last checkpoint, which spaces the next ones by ten times its cost) can delay: wait until progress
                // rests for five seconds, then nothing more may be read. A pause that does not stop reading never
                // rests and fails here.
                long paused = awaitResting(f, job);
                Thread.sleep(2_000);
                assertEquals(paused, rowsDone(f, job), "no rows read while paused");

                exec(other, "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = DEFAULT");
                created.get(60, TimeUnit.SECONDS);
                List<String> notices = new ArrayList<>();
                for (SQLWarning w = create.getWarnings(); w != null; w = w.getNextWarning()) {
                    notices.add(w.getMessage());
                }
                assertTrue(
                        notices.stream()
                                .anyMatch(n -> n.matches("materialized view \"m\": \\d+\\.\\d\\d% \\(\\d+/" + ROWS
                                        + "\\) backfilled(, \\d+\\.\\d\\d% read)?")),
                        "progress notices of the foreground CREATE: " + notices);
            }
            assertViewEqualsQuery(c, "m", QUERY);
        }
    }
}
