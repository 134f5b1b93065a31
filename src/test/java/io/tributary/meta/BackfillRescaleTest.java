package io.tributary.meta;

import static io.tributary.meta.BackfillFixture.assertViewEqualsQuery;
import static io.tributary.meta.BackfillFixture.awaitRowsDone;
import static io.tributary.meta.BackfillFixture.awaitRowsRead;
import static io.tributary.meta.BackfillFixture.exec;
import static io.tributary.meta.BackfillFixture.rowsDone;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ALTER MATERIALIZED VIEW m SET PARALLELISM n} during a slow backfill, 1 -> 3 -> 2 with writes to the
 * upstreams in between: the job restarts from its last checkpoint with its vnodes spread over the new actors
 * (some vnodes still in the snapshot, some in the log), its progress does not go back, and once done the view
 * equals its query: nothing lost, nothing doubled. A view that is not rescaled runs beside them as a control.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BackfillRescaleTest {
    private static final int ROWS = 20_000;
    private static final Map<String, String> VIEWS = new LinkedHashMap<>();

    static {
        VIEWS.put("agg", "SELECT g, count(*) AS n, sum(v) AS s, min(v) AS lo, max(v) AS hi FROM t GROUP BY g");
        VIEWS.put("j", "SELECT t.id, t.v, d.name FROM t JOIN d ON t.g = d.g");
        VIEWS.put("f", "SELECT id, g, v FROM t WHERE v % 7 = 3");
    }

    private static void write(Connection c, int round) throws SQLException {
        long base = 1_000_000L * (round + 1);
        exec(c, "INSERT INTO t SELECT " + base + " + x, x % 30, x * 3 FROM generate_series(1, 200) AS s(x)");
        exec(c, "UPDATE t SET v = v + 1, g = (g + 1) % 30 WHERE id % 97 = " + round);
        exec(c, "DELETE FROM t WHERE id % 89 = " + round);
        exec(c, "UPDATE d SET name = name || '" + round + "' WHERE g % 4 = " + round % 4);
        exec(c, "INSERT INTO d VALUES (" + (100 + round) + ", 'new" + round + "')");
    }

    /** Rescales view {@code name}'s job and checks that its progress did not go back. */
    private static void rescale(BackfillFixture f, Connection c, String name, int parallelism) throws Exception {
        int job = f.id(name);
        long before = rowsDone(c, job);
        exec(c, "ALTER MATERIALIZED VIEW " + name + " SET PARALLELISM = " + parallelism);
        long after = rowsDone(c, job);
        System.out.printf("rescaled %s to %d actors at %d rows done (%d after)%n", name, parallelism, before, after);
        assertTrue(after >= before, name + ": progress " + after + " after rescaling, " + before + " before");
        assertTrue(before < ROWS, name + " was still backfilling its snapshot");
    }

    @Test
    void rescalingABackfillLosesAndDoublesNothing() throws Exception {
        try (BackfillFixture f = new BackfillFixture(20);
                Connection c = f.connect()) {
            exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, g INT, v INT)");
            exec(c, "CREATE TABLE d (g INT PRIMARY KEY, name TEXT)");
            exec(c, "INSERT INTO t SELECT x, x % 30, x FROM generate_series(1, " + ROWS + ") AS s(x)");
            exec(c, "INSERT INTO d SELECT x, 'g' || x FROM generate_series(0, 29) AS s(x)");
            exec(c, "SET background_ddl = true");
            exec(c, "SET streaming_parallelism = 1");
            // slow enough that agg, rescaled to 3 actors, cannot finish between reaching 4,000 rows
            // and its pause, however busy the machine
            exec(c, "SET backfill_rate_limit = 400");
            for (Map.Entry<String, String> v : VIEWS.entrySet()) {
                exec(c, "CREATE MATERIALIZED VIEW " + v.getKey() + " AS " + v.getValue());
            }
            awaitRowsDone(c, f.id("agg"), 1_000, 60_000);
            write(c, 0);
            rescale(f, c, "agg", 3);
            rescale(f, c, "j", 3);
            // j is rescaled again below, so it must not finish meanwhile, however slow agg gets on a busy machine
            exec(c, "ALTER MATERIALIZED VIEW j SET BACKFILL_RATE_LIMIT = 0");
            write(c, 1);
            // rows read, not rows done: a busy machine spaces checkpoints so far apart that agg could be
            // nearly finished by the time its durable progress passes 4,000
            awaitRowsRead(c, f.id("agg"), 4_000, 60_000);
            exec(c, "ALTER MATERIALIZED VIEW agg SET BACKFILL_RATE_LIMIT = 0");
            write(c, 2);
            // the second rescales find both jobs paused mid-backfill, with changes logged since
            rescale(f, c, "agg", 2);
            rescale(f, c, "j", 2);
            write(c, 3);
            for (String view : VIEWS.keySet()) {
                exec(c, "ALTER MATERIALIZED VIEW " + view + " SET BACKFILL_RATE_LIMIT = DEFAULT");
            }
            write(c, 4);
            exec(c, "WAIT");
            for (Map.Entry<String, String> v : VIEWS.entrySet()) {
                assertViewEqualsQuery(c, v.getKey(), v.getValue());
            }
            // After the backfill: rescaling the live job keeps the view right too.
            exec(c, "ALTER MATERIALIZED VIEW j SET PARALLELISM = 1");
            write(c, 5);
            for (Map.Entry<String, String> v : VIEWS.entrySet()) {
                assertViewEqualsQuery(c, v.getKey(), v.getValue());
            }
        }
    }
}
