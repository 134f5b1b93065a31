package io.tributary.meta;

import static io.tributary.meta.BackfillFixture.assertViewEqualsQuery;
import static io.tributary.meta.BackfillFixture.exec;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The upstream is not slowed by a backfill: single-row INSERTs into a table (each waiting for its commit) take
 * about as long while unlimited backfills of views over that table run as when nothing runs. Both medians are
 * measured in the same run, one after the other, and printed.
 *
 * <p>The bound asserted is looser than the 2x the design aims at: on a shared 2-core machine the backfill's
 * actors take CPU from the inserting session, which the engine cannot prevent, so a strict bound would fail on a
 * busy machine for reasons outside the engine. What the test catches is the upstream waiting for the backfill
 * (for its checkpoints or its reads), which shows as latencies of many times the idle ones.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BackfillUpstreamLatencyTest {
    private static final int ROWS = 40_000;
    private static final int SAMPLES = 300;
    private static final int MAX_VIEWS = 12;
    /**
     * The asserted bound: the median during backfills at most this many times the idle one, plus
     * the slack. It catches writers waiting for a backfill (hundreds of milliseconds and more), not
     * CPU sharing on a busy 2-core machine, which measured up to 11x; the 2x target is measured by
     * {@code bench backfill} on an otherwise idle machine.
     */
    private static final double FACTOR = 10;

    private static final double SLACK_MS = 20;

    private static final String[] QUERIES = {
        "SELECT t.id, t.v, d.name FROM t JOIN d ON t.g = d.g",
        "SELECT g, count(*) AS n, sum(v) AS s, min(v) AS lo, max(v) AS hi FROM t GROUP BY g",
        "SELECT id, v FROM t WHERE v % 3 = 1",
    };

    private long nextId = ROWS + 1;

    /** One single-row INSERT, in milliseconds. */
    private double insert(PreparedStatement insert) throws SQLException {
        long id = nextId++;
        insert.setLong(1, id);
        insert.setInt(2, (int) (id % 50));
        insert.setInt(3, (int) id);
        long t0 = System.nanoTime();
        insert.executeUpdate();
        return (System.nanoTime() - t0) / 1e6;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    @Test
    void singleRowInsertsAreNotSlowedByABackfill() throws Exception {
        try (BackfillFixture f = new BackfillFixture(50);
                Connection c = f.connect();
                Connection ddl = f.connect()) {
            exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, g INT, v INT)");
            exec(c, "CREATE TABLE d (g INT PRIMARY KEY, name TEXT)");
            exec(c, "INSERT INTO t SELECT x, x % 50, x FROM generate_series(1, " + ROWS + ") AS s(x)");
            exec(c, "INSERT INTO d SELECT x, 'g' || x FROM generate_series(0, 49) AS s(x)");
            exec(ddl, "SET background_ddl = true");
            exec(ddl, "SET streaming_parallelism = 2");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                for (int i = 0; i < 200; i++) {
                    insert(insert);
                }
                List<Double> idle = new ArrayList<>();
                while (idle.size() < SAMPLES) {
                    idle.add(insert(insert));
                }
                // Backfills one after the other; only inserts that start and end while one runs count.
                List<Double> busy = new ArrayList<>();
                int views = 0;
                while (busy.size() < SAMPLES && views < MAX_VIEWS) {
                    if (f.db.ddl().jobs().isEmpty()) {
                        exec(ddl, "CREATE MATERIALIZED VIEW v" + views + " AS " + QUERIES[views % QUERIES.length]);
                        views++;
                    }
                    boolean runningBefore = !f.db.ddl().jobs().isEmpty();
                    double ms = insert(insert);
                    if (runningBefore && !f.db.ddl().jobs().isEmpty()) {
                        busy.add(ms);
                    }
                }
                double idleMedian = median(idle);
                double busyMedian = median(busy);
                System.out.printf(
                        Locale.ROOT,
                        "single-row INSERT median: idle %.2f ms, during backfills %.2f ms"
                                + " (%.2fx; %d samples during %d backfills)%n",
                        idleMedian,
                        busyMedian,
                        busyMedian / idleMedian,
                        busy.size(),
                        views);
                assertTrue(busy.size() >= SAMPLES / 3, "enough inserts ran during backfills: " + busy.size());
                assertTrue(
                        busyMedian <= FACTOR * idleMedian + SLACK_MS,
                        "median INSERT latency during backfills " + busyMedian + " ms, idle " + idleMedian + " ms");
            }
            exec(ddl, "WAIT");
            for (int i = 0; i < MAX_VIEWS && f.db.catalog().table("v" + i).isPresent(); i++) {
                assertViewEqualsQuery(c, "v" + i, QUERIES[i % QUERIES.length]);
            }
        }
    }
}
