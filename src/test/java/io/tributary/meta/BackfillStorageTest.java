package io.tributary.meta;

import static io.tributary.meta.BackfillFixture.assertViewEqualsQuery;
import static io.tributary.meta.BackfillFixture.awaitRowsDone;
import static io.tributary.meta.BackfillFixture.exec;
import static io.tributary.meta.BackfillFixture.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.catalog.TableDef;
import io.tributary.meta.ddl.BackfillJobRecord;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.StoreCensus;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nothing of a view whose creation ends early stays in storage, and change logs live only while a backfill reads
 * them: the store's keys are counted ({@link StoreCensus}) before a CREATE, while its backfill runs (with writes to
 * the upstream, so its log is not empty) and after CANCEL JOBS, DROP MATERIALIZED VIEW, a client's cancel request,
 * or the job's end. The backfills are slowed down by a rate limit so that they are caught in the middle.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BackfillStorageTest {
    private static final int ROWS = 20_000;
    private static final String JOIN = "SELECT t.id, t.v, d.name FROM t JOIN d ON t.g = d.g";
    private static final String AGG = "SELECT g, count(*) AS n, sum(v) AS s FROM t GROUP BY g";

    private static void load(Connection c) throws SQLException {
        exec(c, "CREATE TABLE t (id BIGINT PRIMARY KEY, g INT, v INT)");
        exec(c, "CREATE TABLE d (g INT PRIMARY KEY, name TEXT)");
        exec(c, "INSERT INTO t SELECT x, x % 20, x FROM generate_series(1, " + ROWS + ") AS s(x)");
        exec(c, "INSERT INTO d SELECT x, 'g' || x FROM generate_series(0, 19) AS s(x)");
        exec(c, "SET streaming_parallelism = 2");
        // the limit alone slows the backfills: its checkpoint writes no longer pause the reading
        exec(c, "SET backfill_rate_limit = 500");
    }

    /** Changes to both upstreams while a backfill runs; each statement commits, so the logs hold its changes. */
    private static void writeDuringBackfill(Connection c, int round) throws SQLException {
        long base = 1_000_000L * (round + 1);
        exec(c, "INSERT INTO t SELECT " + base + " + x, x % 20, x FROM generate_series(1, 50) AS s(x)");
        exec(c, "UPDATE t SET v = v + 7 WHERE id BETWEEN " + (100 * round + 1) + " AND " + (100 * round + 40));
        exec(c, "DELETE FROM t WHERE id BETWEEN " + (100 * round + 50) + " AND " + (100 * round + 60));
        exec(c, "UPDATE d SET name = name || 'x' WHERE g = " + round % 20);
    }

    /** The progress table of view {@code viewId}'s job, from its record. */
    private static int progressTableId(BackfillFixture f, int viewId) {
        try (ReadView view = f.db.store().snapshot()) {
            byte[] record = view.get(Keyspace.CATALOG, BackfillJobRecord.key(viewId));
            if (record == null) {
                throw new AssertionError("no job record for view " + viewId);
            }
            return BackfillJobRecord.decode(record).progressTableId();
        }
    }

    /**
     * Checks that view {@code name}'s job has state, progress, its record and its pin in the store, and that the
     * change logs of {@code upstreams} (whose snapshots it is still reading) hold entries.
     *
     * @return the job's progress table id
     */
    private static int assertJobIsStored(BackfillFixture f, String name, int... upstreams) {
        TableDef view = f.db.catalog().table(name).orElseThrow();
        int progress = progressTableId(f, view.id());
        StoreCensus during = f.census();
        assertTrue(during.dataKeysBetween(view.id(), view.id()) > 0, "the view has rows stored: " + during);
        for (int state : view.stateTableIds()) {
            assertTrue(during.dataKeysBetween(state, state) > 0, "state table " + state + " has rows: " + during);
        }
        assertTrue(during.dataKeysBetween(progress, progress) > 0, "the progress table has rows: " + during);
        for (int upstream : upstreams) {
            assertTrue(
                    during.logKeys().getOrDefault(upstream, 0L) > 0, "relation " + upstream + " is logged: " + during);
        }
        assertTrue(during.jobRecords() >= 1, "the job has a record: " + during);
        assertTrue(during.pins().contains("backfill-" + view.id()), "the snapshot is pinned: " + during);
        return progress;
    }

    /** Everything but the upstreams' rows is as it was {@code before}. */
    private static void assertBackTo(StoreCensus before, StoreCensus after, int t, int d) {
        assertEquals(before.dataKeysExcept(t, d), after.dataKeysExcept(t, d), "keys of non-upstream tables: " + after);
        assertEquals(before.logKeys(), after.logKeys(), "change logs: " + after);
        assertEquals(before.jobRecords(), after.jobRecords(), "job records: " + after);
        assertEquals(before.pins(), after.pins(), "pins: " + after);
    }

    @Test
    void cancelDropAndClientCancelOfACreatingViewLeaveNothingInStorage() throws Exception {
        try (BackfillFixture f = new BackfillFixture(20);
                Connection c = f.connect()) {
            load(c);
            int t = f.id("t");
            int d = f.id("d");
            StoreCensus before = f.census();
            assertEquals(0, before.logKeyCount());
            assertEquals(0, before.jobRecords());
            assertEquals(List.of(), before.pins());
            exec(c, "SET background_ddl = true");

            exec(c, "CREATE MATERIALIZED VIEW m AS " + JOIN);
            int job = f.id("m");
            awaitRowsDone(c, job, 1000, 60_000);
            writeDuringBackfill(c, 0);
            assertJobIsStored(f, "m", t);
            assertEquals(List.of(Integer.toString(job)), rows(c, "CANCEL JOBS " + job));
            assertBackTo(before, f.census(), t, d);

            exec(c, "CREATE MATERIALIZED VIEW m AS " + JOIN);
            job = f.id("m");
            awaitRowsDone(c, job, 1000, 60_000);
            writeDuringBackfill(c, 1);
            assertJobIsStored(f, "m", t);
            exec(c, "DROP MATERIALIZED VIEW m");
            assertBackTo(before, f.census(), t, d);
            assertEquals(List.of(), rows(c, "SHOW JOBS"));

            // A foreground CREATE ended by the client's cancel request (what Ctrl-C in psql sends).
            exec(c, "SET background_ddl = false");
            try (Statement create = c.createStatement();
                    Connection other = f.connect()) {
                CompletableFuture<SQLException> failure = CompletableFuture.supplyAsync(() -> {
                    try {
                        create.execute("CREATE MATERIALIZED VIEW m AS " + JOIN);
                        return null;
                    } catch (SQLException e) {
                        return e;
                    }
                });
                while (f.db.catalog().table("m").isEmpty()) {
                    Thread.sleep(10);
                }
                awaitRowsDone(other, f.id("m"), 1000, 60_000);
                writeDuringBackfill(other, 2);
                assertJobIsStored(f, "m", t);
                create.cancel();
                SQLException e = failure.get(60, TimeUnit.SECONDS);
                assertEquals("57014", e == null ? "success" : e.getSQLState(), "the cancelled CREATE fails");
            }
            assertBackTo(before, f.census(), t, d);
            assertThrows(SQLException.class, () -> rows(c, "SELECT * FROM m"));
            assertEquals(List.of(), rows(c, "SHOW JOBS"));

            // The name is free and the same view can be created in full.
            exec(c, "SET backfill_rate_limit = DEFAULT");
            exec(c, "CREATE MATERIALIZED VIEW m AS " + JOIN);
            assertViewEqualsQuery(c, "m", JOIN);
        }
    }

    @Test
    void changeLogsAreEmptyAgainOnceEveryJobHasFinished() throws Exception {
        try (BackfillFixture f = new BackfillFixture(20);
                Connection c = f.connect()) {
            load(c);
            int t = f.id("t");
            int d = f.id("d");
            StoreCensus before = f.census();
            exec(c, "SET background_ddl = true");
            // Slow enough that j is still reading t's snapshot when agg has finished.
            exec(c, "SET backfill_rate_limit = 250");
            exec(c, "CREATE MATERIALIZED VIEW agg AS " + AGG);
            exec(c, "CREATE MATERIALIZED VIEW j AS " + JOIN);
            awaitRowsDone(c, f.id("agg"), 500, 60_000);
            awaitRowsDone(c, f.id("j"), 500, 60_000);
            writeDuringBackfill(c, 0);
            writeDuringBackfill(c, 1);
            int aggProgress = assertJobIsStored(f, "agg", t);
            int jProgress = assertJobIsStored(f, "j", t);
            StoreCensus during = f.census();
            System.out.println("change-log keys while two jobs backfill: " + during.logKeys());

            // One job done: the other still reads both logs.
            exec(c, "ALTER MATERIALIZED VIEW agg SET BACKFILL_RATE_LIMIT = DEFAULT");
            exec(c, "WAIT MATERIALIZED VIEW agg");
            writeDuringBackfill(c, 2);
            StoreCensus one = f.census();
            assertTrue(one.logKeys().getOrDefault(t, 0L) > 0, "t is still logged for j: " + one);
            assertEquals(1, one.jobRecords());

            exec(c, "ALTER MATERIALIZED VIEW j SET BACKFILL_RATE_LIMIT = DEFAULT");
            exec(c, "WAIT");
            StoreCensus after = f.census();
            assertEquals(0, after.logKeyCount(), "change logs once no job reads them: " + after);
            assertEquals(0, after.jobRecords());
            assertEquals(List.of(), after.pins());
            assertEquals(before.dataKeysBetween(0, t - 1), after.dataKeysBetween(0, t - 1));
            assertEquals(0, after.dataKeysBetween(aggProgress, aggProgress), "agg's progress table is empty");
            assertEquals(0, after.dataKeysBetween(jProgress, jProgress), "j's progress table is empty");

            assertViewEqualsQuery(c, "agg", AGG);
            assertViewEqualsQuery(c, "j", JOIN);
            // Live views need no log: writes now leave none behind.
            writeDuringBackfill(c, 3);
            assertEquals(0, f.census().logKeyCount());
            assertViewEqualsQuery(c, "agg", AGG);
            assertViewEqualsQuery(c, "j", JOIN);
        }
    }

    /**
     * After a restart a view being created is maintained by its resumed backfill only: while that backfill is
     * paused, writes to the upstream must not reach the view's stored rows (a job maintaining it as a live view
     * besides the backfill would write them, and the two would count changes twice).
     */
    @Test
    void aResumedBackfillIsTheOnlyJobWritingItsView() throws Exception {
        try (BackfillFixture f = new BackfillFixture(20)) {
            int view;
            try (Connection c = f.connect()) {
                load(c);
                exec(c, "SET background_ddl = true");
                exec(c, "CREATE MATERIALIZED VIEW agg AS " + AGG);
                view = f.id("agg");
                awaitRowsDone(c, view, 1000, 60_000);
                exec(c, "ALTER MATERIALIZED VIEW agg SET BACKFILL_RATE_LIMIT = 0");
            }
            f.restart();
            try (Connection c = f.connect()) {
                long rows = BackfillFixture.rowsDone(c, view);
                assertTrue(rows >= 1000, "the job resumed where it was: " + rows);
                long viewKeys = f.census().dataKeysBetween(view, view);
                for (int round = 0; round < 3; round++) {
                    writeDuringBackfill(c, round);
                    exec(c, "INSERT INTO t VALUES (" + (5_000_000 + round) + ", " + (100 + round) + ", 1)");
                }
                Thread.sleep(200);
                assertEquals(rows, BackfillFixture.rowsDone(c, view), "the paused job read nothing");
                assertEquals(viewKeys, f.census().dataKeysBetween(view, view), "nothing wrote the paused view");
                exec(c, "ALTER MATERIALIZED VIEW agg SET BACKFILL_RATE_LIMIT = DEFAULT");
                exec(c, "WAIT");
                assertViewEqualsQuery(c, "agg", AGG);
            }
        }
    }
}
