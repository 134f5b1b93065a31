package io.tributary.meta;

import static io.tributary.meta.BackfillFixture.assertViewEqualsQuery;
import static io.tributary.meta.BackfillFixture.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A paused backfill (rate 0, as ALTER sets it and as a view whose snapshot a worker builds waits)
 * costs its server almost nothing: its actors and its coordinator wait for the rate to change
 * instead of polling every few milliseconds, which on a one-core server took the core from the
 * writers hundreds of times a second. Counted as the voluntary context switches of the job's
 * threads, found by their names in {@code /proc/self/task}: each poll is a park that ends in one.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PausedBackfillWakeupsTest {
    private static final String QUERY = "SELECT g, count(*) AS n, sum(v) AS s FROM t GROUP BY g";

    /** Voluntary context switches so far of this process's threads whose names start with {@code prefix}. */
    private static long switches(String prefix) throws IOException {
        long total = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                } catch (IOException gone) {
                    continue;
                }
                if (!name.startsWith(prefix)) {
                    continue;
                }
                try {
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            total += Long.parseLong(
                                    line.substring(line.indexOf(':') + 1).strip());
                        }
                    }
                } catch (IOException gone) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return total;
    }

    private static long threads(String prefix) throws IOException {
        long n = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    if (Files.readString(task.resolve("comm")).startsWith(prefix)) {
                        n++;
                    }
                } catch (IOException gone) {
                    // ended meanwhile
                }
            }
        }
        return n;
    }

    @Test
    void aPausedBackfillWaitsForItsRateWithoutPolling() throws Exception {
        try (BackfillFixture f = new BackfillFixture(1000);
                Connection c = f.connect()) {
            exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, g INT, v INT)");
            exec(c, "INSERT INTO t SELECT x, x % 10, x FROM generate_series(1, 20000) AS s(x)");
            exec(c, "SET streaming_parallelism = 2");
            exec(c, "SET background_ddl = true");
            exec(c, "SET backfill_rate_limit = 0");
            exec(c, "CREATE MATERIALIZED VIEW paused_m AS " + QUERY);
            // its threads: the actors (actor-paused_m/...) and the coordinator (backfill-paused_m)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (threads("actor-paused_m") < 2 || threads("backfill-pause") < 1) {
                assertTrue(System.nanoTime() < deadline, "the paused job's threads never started");
                Thread.sleep(20);
            }
            Thread.sleep(500);
            long actors0 = switches("actor-paused_m");
            long coordinator0 = switches("backfill-pause");
            long started = System.nanoTime();
            Thread.sleep(3_000);
            double seconds = (System.nanoTime() - started) / 1e9;
            double actorsPerSecond = (switches("actor-paused_m") - actors0) / seconds / threads("actor-paused_m");
            double coordinatorPerSecond = (switches("backfill-pause") - coordinator0) / seconds;
            System.out.printf(
                    java.util.Locale.ROOT,
                    "paused job: %.1f wake-ups/s per actor, %.1f for the coordinator%n",
                    actorsPerSecond,
                    coordinatorPerSecond);
            // polling was 100/s per actor and 200/s for the coordinator; waiting costs the checkpoint of each
            // barrier interval (a few switches a second) and the bound of each wait (one a second)
            assertTrue(actorsPerSecond < 30, "a paused actor woke " + actorsPerSecond + " times a second");
            assertTrue(
                    coordinatorPerSecond < 30, "a paused coordinator woke " + coordinatorPerSecond + " times a second");
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM tributary_catalog.ddl_progress")) {
                rs.next();
                assertEquals(1, rs.getLong(1), "the paused view is still being created");
            }

            exec(c, "ALTER MATERIALIZED VIEW paused_m SET BACKFILL_RATE_LIMIT = DEFAULT");
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT count(*) FROM tributary_catalog.ddl_progress")) {
                    rs.next();
                    if (rs.getLong(1) == 0) {
                        break;
                    }
                }
                assertTrue(System.nanoTime() < deadline, "the resumed view was not created within 60 s");
                Thread.sleep(20);
            }
            assertViewEqualsQuery(c, "paused_m", QUERY);
        }
    }
}
