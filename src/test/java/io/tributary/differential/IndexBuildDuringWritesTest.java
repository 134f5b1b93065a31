package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.meta.ddl.HeldIndexBuilds;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code CREATE [UNIQUE] INDEX} over a table that a second session keeps changing meanwhile
 * (UPDATEs moving emails, DELETEs, INSERTs): the writer must not wait for the build, and the index
 * must hold exactly the rows' entries as of its commit, which is checked against PostgreSQL. The
 * writer's changes are run on PostgreSQL too (in the same order, none of them a duplicate, so the
 * final tables are equal whichever way the two builds interleave them), then the same probes run
 * on both: inserting each changed row's old and new email again (a stale entry would refuse an
 * email no row holds any more; a missing one would let a duplicate in), and ON CONFLICT DO NOTHING
 * over every email, whose row count says which emails the index holds.
 *
 * <p>A test that needs something to happen during a build holds the build at a step ({@link
 * HeldIndexBuilds}), waits until it is held, acts, and releases it: no test relies on timing.
 */
class IndexBuildDuringWritesTest {
    private static final int ROWS = 200_000;
    /** Changes whose rows are probed (the first ones; every change is replayed on PostgreSQL). */
    private static final int PROBED = 150;
    /** Rows the heavy writer changes per statement. */
    private static final int HEAVY_STEP = 4_000;
    /** Row changes the heavy writer makes during the build at least. */
    private static final int HEAVY_KEYS = 20_000;

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("index-build-writes-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    /** The writer's i-th change, the same on both databases; none makes two rows share an email. */
    private static String change(int i) {
        int id = 1 + (i * 7919) % ROWS;
        return switch (i % 3) {
            case 0 -> "UPDATE w SET email = 'moved-" + i + "', v = v + 1 WHERE id = " + id;
            case 1 -> "DELETE FROM w WHERE id = " + id;
            default -> "INSERT INTO w VALUES (" + (ROWS + i) + ", 'new-" + i + "', " + i + ")";
        };
    }

    @Test
    void writersGoOnAndTheIndexIsPostgresqlsAfterTheirChanges() throws Exception {
        onBoth(
                "CREATE TABLE w (id bigint PRIMARY KEY, email text, v int)",
                "INSERT INTO w SELECT g, 'user-' || g, g % 1000 FROM generate_series(1, " + ROWS + ") AS g(g)",
                "UPDATE w SET email = NULL WHERE id % 1000 = 0");
        long longestBuildNanos = 0;
        Writer writer = new Writer(IndexBuildDuringWritesTest::change, 20);
        try (writer;
                HeldIndexBuilds held = HeldIndexBuilds.afterScan("w_email", "w_v")) {
            for (String sql : List.of("CREATE UNIQUE INDEX w_email ON w (email)", "CREATE INDEX w_v ON w (v)")) {
                String name = sql.contains("w_email") ? "w_email" : "w_v";
                long began = System.nanoTime();
                // the writer's changes after the snapshot are the ones the build catches up with
                String outcome = buildHeld(held, name, sql, () -> writer.awaitCount(writer.count() + 10));
                assertEquals("no error", outcome, sql);
                longestBuildNanos = Math.max(longestBuildNanos, System.nanoTime() - began);
            }
        }
        assertEquals(null, writer.failure.get(), "the writer failed");
        long slowestNanos = slowest(writer.spans(Long.MIN_VALUE, Long.MAX_VALUE));
        // when a build held the barrier lock, a write made during it waited for nearly all of it
        assertTrue(
                slowestNanos < longestBuildNanos / 2,
                "a write waited " + slowestNanos / 1_000_000 + " ms; the longer build took "
                        + longestBuildNanos / 1_000_000 + " ms");

        try (Statement st = pair.pg.createStatement()) {
            for (String sql : writer.applied) {
                st.execute(sql);
            }
            st.execute("CREATE UNIQUE INDEX w_email ON w (email)");
            st.execute("CREATE INDEX w_v ON w (v)");
        }
        List<String> probes = new ArrayList<>();
        probes.add("SELECT count(*), count(email), sum(v) FROM w");
        List<String> applied = writer.applied;
        for (int i = 0; i < Math.min(applied.size(), PROBED); i += 3) {
            // the moved row's new email is held; its old one (user-<id>) is free again
            int id = 1 + (i * 7919) % ROWS;
            probes.add("INSERT INTO w VALUES (" + (2 * ROWS + i) + ", 'moved-" + i + "', 0)");
            probes.add("INSERT INTO w VALUES (" + (3 * ROWS + i) + ", 'user-" + id + "', 0)");
            if (i + 1 < applied.size()) {
                int deleted = 1 + ((i + 1) * 7919) % ROWS;
                probes.add("INSERT INTO w VALUES (" + (4 * ROWS + i) + ", 'user-" + deleted + "', 0)");
            }
            if (i + 2 < applied.size()) {
                probes.add("INSERT INTO w VALUES (" + (5 * ROWS + i) + ", 'new-" + (i + 2) + "', 0)");
            }
        }
        probes.add("INSERT INTO w SELECT id + " + 10 * ROWS + ", email, 0 FROM w ON CONFLICT (email) DO NOTHING");
        probes.add("SELECT count(*), count(email), count(DISTINCT email) FROM w");
        assertEquals(List.of(), pair.mismatches(probes));
    }

    /**
     * A writer changing thousands of rows per statement while the index is built: more than
     * {@value #HEAVY_KEYS} rows change during the build, and the last step, under the barrier
     * lock, must not read them all while the writer waits (it catches up outside the lock first):
     * no statement that ran during the build waits for half of it.
     */
    @Test
    void aHeavyWriterDoesNotWaitForTheRowsItChanged() throws Exception {
        onBoth(
                "CREATE TABLE h (id bigint PRIMARY KEY, email text, v int)",
                "INSERT INTO h SELECT g, 'user-' || g, g % 1000 FROM generate_series(1, " + ROWS + ") AS g(g)");
        Writer writer = new Writer(
                i -> {
                    long from = (long) i * HEAVY_STEP % ROWS;
                    return "UPDATE h SET email = email || 'x', v = v + 1 WHERE id > " + from + " AND id <= "
                            + (from + HEAVY_STEP);
                },
                5);
        long buildBegan = System.nanoTime();
        long buildEnded;
        try (writer) {
            try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("h_email")) {
                // more rows change after the snapshot than the catch-up rounds read under the lock at most
                String outcome = buildHeld(
                        held,
                        "h_email",
                        "CREATE UNIQUE INDEX h_email ON h (email)",
                        () -> writer.awaitCount(writer.count() + HEAVY_KEYS / HEAVY_STEP + 1));
                assertEquals("no error", outcome);
            } finally {
                buildEnded = System.nanoTime();
            }
        }
        assertEquals(null, writer.failure.get(), "the writer failed");
        List<long[]> spans = writer.spans(buildBegan, buildEnded);
        int during = spans.size();
        long slowest = slowest(spans);
        long buildNanos = buildEnded - buildBegan;
        assertTrue(during * HEAVY_STEP > HEAVY_KEYS, "only " + during + " statements ran during the build");
        assertTrue(
                slowest < buildNanos / 2,
                "a write waited " + slowest / 1_000_000 + " ms; the build took " + buildNanos / 1_000_000 + " ms");

        try (Statement st = pair.pg.createStatement()) {
            for (String sql : writer.applied) {
                st.execute(sql);
            }
            st.execute("CREATE UNIQUE INDEX h_email ON h (email)");
        }
        List<String> probes = new ArrayList<>();
        probes.add("SELECT count(*), count(email), sum(v), sum(length(email)) FROM h");
        for (int id = 1; id <= ROWS; id += ROWS / 50) {
            // a stale entry would refuse the row's old email, which no row holds any more
            probes.add("INSERT INTO h VALUES (" + (2 * ROWS + id) + ", 'user-" + id
                    + "', 0) ON CONFLICT (email) DO NOTHING");
            probes.add("INSERT INTO h VALUES (" + (3 * ROWS + id) + ", 'user-" + id
                    + "x', 0) ON CONFLICT (email) DO NOTHING");
        }
        probes.add("INSERT INTO h SELECT id + " + 10 * ROWS + ", email, 0 FROM h ON CONFLICT (email) DO NOTHING");
        probes.add("SELECT count(*), count(DISTINCT email) FROM h");
        assertEquals(List.of(), pair.mismatches(probes));
    }

    /**
     * Rows inserted during a unique build that duplicate others' values (in no particular order):
     * the last step refuses the index (23505) as PostgreSQL does and names the least duplicated
     * key, the one the snapshot step names when the same rows are there before the build.
     */
    @Test
    void theLastStepNamesTheLeastDuplicatedKey() throws Exception {
        onBoth(
                "CREATE TABLE d (id bigint PRIMARY KEY, email text)",
                "INSERT INTO d SELECT g, 'user-' || g FROM generate_series(1, " + ROWS + ") AS g(g)");
        String duplicates = "INSERT INTO d SELECT " + 2 * ROWS + " + g, 'user-' || (1 + (g * 7919 + 4111) % 90000)"
                + " FROM generate_series(0, 299) AS g(g)";
        String duringWrites;
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("d_email");
                Connection writer = pair.tributary.connect("root", "", 120);
                Statement st = writer.createStatement()) {
            // after the build's snapshot, before its catch-up and last step
            duringWrites = buildHeld(
                    held, "d_email", "CREATE UNIQUE INDEX d_email ON d (email)", () -> st.execute(duplicates));
        }
        String afterWrites = uniqueBuildError(pair.tributary.connection, "CREATE UNIQUE INDEX d_email ON d (email)");
        String postgres;
        try (Statement st = pair.pg.createStatement()) {
            st.execute(duplicates);
            postgres = uniqueBuildError(st, "CREATE UNIQUE INDEX d_email ON d (email)");
        }
        assertTrue(duringWrites.startsWith("23505 "), duringWrites);
        assertEquals(afterWrites, duringWrites, "the last step named another key than the snapshot step");
        // PostgreSQL names the first equal pair its sort compares, which depends on its quicksort's
        // order (here not the least key): only the error itself is compared
        assertEquals(
                postgres.substring(0, postgres.indexOf(" DETAIL")),
                afterWrites.substring(0, afterWrites.indexOf(" DETAIL")));
    }

    /** {@link #uniqueBuildError(Statement, String)} on a statement of {@code c}. */
    private static String uniqueBuildError(Connection c, String sql) throws java.sql.SQLException {
        try (Statement st = c.createStatement()) {
            return uniqueBuildError(st, sql);
        }
    }

    /** Runs {@code task} on a new thread. */
    private static <T> FutureTask<T> start(Callable<T> task) {
        return start(new FutureTask<>(task));
    }

    /** Runs {@code future} on a new thread. */
    private static <T> FutureTask<T> start(FutureTask<T> future) {
        new Thread(future, "index-build-test").start();
        return future;
    }

    /** Runs {@code statements} in order on both databases; each must have the same outcome on both. */
    private static void onBoth(String... statements) {
        for (String sql : statements) {
            String[] outcome = pair.both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
    }

    /**
     * On a new table {@code table} (id, email) with the same rows on both databases: while the
     * build of {@code CREATE INDEX <table>_id ON <table> (id)} is held, {@code ALTER TABLE <table>
     * ADD COLUMN extra int DEFAULT 7} claims the table, and then {@code secondSql} (the CREATE INDEX
     * of index {@code second}) must wait for the ALTER; released, all three must succeed, in that
     * order. They then run on PostgreSQL in the same order.
     */
    private static void buildBehindAlter(String table, String second, String secondSql) throws Exception {
        onBoth(
                "CREATE TABLE " + table + " (id bigint PRIMARY KEY, email text)",
                "INSERT INTO " + table + " SELECT g, 'user-' || g FROM generate_series(1, " + ROWS / 10 + ") AS g(g)");
        String first = table + "_id";
        String firstSql = "CREATE INDEX " + first + " ON " + table + " (id)";
        String alter = "ALTER TABLE " + table + " ADD COLUMN extra int DEFAULT 7";
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan(first, second);
                Connection alterer = pair.tributary.connect("root", "", 120);
                Connection builder = pair.tributary.connect("root", "", 120)) {
            FutureTask<String> altered = new FutureTask<>(() -> uniqueBuildError(alterer, alter));
            FutureTask<String> waiting = new FutureTask<>(() -> uniqueBuildError(builder, secondSql));
            String firstOutcome = buildHeld(held, first, firstSql, () -> {
                start(altered);
                held.awaitRewriteClaim(first, altered::isDone);
                start(waiting);
                held.awaitWaitingForRewrite(second);
            });
            assertEquals("no error", firstOutcome);
            assertEquals("no error", altered.get(120, TimeUnit.SECONDS), alter);
            held.awaitHeld(second);
            held.release(second);
            assertEquals("no error", waiting.get(120, TimeUnit.SECONDS));
        }
        try (Statement st = pair.pg.createStatement()) {
            st.execute(firstSql);
            st.execute(alter);
            st.execute(secondSql);
        }
    }

    /** The longest of {@code spans} (began and ended, in nanoseconds); 0 for none. */
    private static long slowest(List<long[]> spans) {
        long slowest = 0;
        for (long[] span : spans) {
            slowest = Math.max(slowest, span[1] - span[0]);
        }
        return slowest;
    }

    /** What a test does while a build is held. */
    private interface WhileHeld {
        void run() throws Exception;
    }

    /**
     * Runs {@code sql}, the CREATE INDEX of index {@code name}, on the pair's Tributary connection,
     * waits until {@code held} holds its build, runs {@code during}, releases the build and returns
     * the statement's outcome (as {@link #uniqueBuildError(Statement, String)} gives it; two minutes
     * at most).
     */
    private static String buildHeld(HeldIndexBuilds held, String name, String sql, WhileHeld during) throws Exception {
        FutureTask<String> build = start(() -> uniqueBuildError(pair.tributary.connection, sql));
        held.awaitHeld(name);
        during.run();
        held.release(name);
        return build.get(120, TimeUnit.SECONDS);
    }

    /**
     * A second session that runs its {@code i}-th statement, then the next, until closed, and keeps
     * each statement and when it ran (read them once it is closed).
     */
    private static final class Writer implements AutoCloseable {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        /** The statements run, in order; guarded by this until closed. */
        final List<String> applied = new ArrayList<>();
        /** Per statement of {@link #applied}: when it began and ended ({@link System#nanoTime}). */
        private final List<long[]> spans = new ArrayList<>();

        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Connection connection;
        private final Thread thread;

        /** Starts the writer and waits until it ran {@code first} statements (or failed). */
        Writer(IntFunction<String> statement, int first) throws Exception {
            connection = pair.tributary.connect("root", "", 120);
            thread = new Thread(() -> {
                try (Statement st = connection.createStatement()) {
                    for (int i = 0; running.get(); i++) {
                        String sql = statement.apply(i);
                        long began = System.nanoTime();
                        st.execute(sql);
                        long ended = System.nanoTime();
                        synchronized (this) {
                            applied.add(sql);
                            spans.add(new long[] {began, ended});
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            thread.start();
            while (count() < first) {
                Thread.sleep(5);
            }
        }

        /** The statements run so far; {@link Integer#MAX_VALUE} once the writer failed, so no wait for more lasts. */
        synchronized int count() {
            return failure.get() != null ? Integer.MAX_VALUE : applied.size();
        }

        /** Waits (a minute at most) until {@link #count} reaches {@code n}. */
        void awaitCount(int n) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (count() < n) {
                assertTrue(System.nanoTime() < end, "the writer made " + count() + " of " + n + " changes");
                Thread.sleep(2);
            }
        }

        /** When the statements that ran at some time between {@code from} and {@code to} began and ended. */
        synchronized List<long[]> spans(long from, long to) {
            List<long[]> during = new ArrayList<>();
            for (long[] span : spans) {
                if (span[1] > from && span[0] < to) {
                    during.add(span);
                }
            }
            return during;
        }

        @Override
        public void close() throws Exception {
            running.set(false);
            thread.join();
            connection.close();
        }
    }

    /** The SQLSTATE, message and DETAIL of a statement (of a build that must fail), or "no error". */
    private static String uniqueBuildError(Statement st, String sql) {
        try {
            st.execute(sql);
            return "no error";
        } catch (org.postgresql.util.PSQLException e) {
            var server = e.getServerErrorMessage();
            return e.getSQLState() + " " + server.getMessage() + " DETAIL " + server.getDetail();
        } catch (java.sql.SQLException e) {
            return e.getSQLState() + " " + e.getMessage();
        }
    }

    /**
     * A TRUNCATE of more rows than an index build's watch lists ({@code ChangedKeyWatch.MAX_KEYS})
     * while the build runs, then new rows: the build starts over from the truncated table instead
     * of giving up (53200), and the index holds the new rows' entries, as in PostgreSQL (where the
     * TRUNCATE waits for the build, or the build for it: the index is the same).
     */
    @Test
    void aTruncateDuringTheBuildMakesItStartOver() throws Exception {
        int rows = 1_050_000;
        onBoth(
                "CREATE TABLE t (id bigint PRIMARY KEY, v int)",
                "INSERT INTO t SELECT g, g FROM generate_series(1, " + rows + ") AS g(g)");
        List<String> after =
                List.of("TRUNCATE t", "INSERT INTO t SELECT g, g % 100 FROM generate_series(1, 100) AS g(g)");
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("t_v");
                Connection writer = pair.tributary.connect("root", "", 120);
                Statement st = writer.createStatement()) {
            // after the build's snapshot
            String outcome = buildHeld(held, "t_v", "CREATE UNIQUE INDEX t_v ON t (v)", () -> {
                for (String sql : after) {
                    st.execute(sql);
                }
            });
            assertEquals("no error", outcome);
        }
        try (Statement st = pair.pg.createStatement()) {
            for (String sql : after) {
                st.execute(sql);
            }
            st.execute("CREATE UNIQUE INDEX t_v ON t (v)");
        }
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "SELECT count(*), sum(v) FROM t",
                        "INSERT INTO t SELECT g + 1000, g FROM generate_series(0, 200) AS g(g) ON CONFLICT (v) DO NOTHING",
                        "SELECT count(*), sum(v) FROM t")));
    }

    /**
     * ALTER TABLE ... ADD COLUMN while an index build runs on the table waits for the build, as in
     * PostgreSQL (where it waits for the build's lock), and then runs over the table with its new
     * index; with a {@code statement_timeout} it is cancelled with 57014 while the build still runs.
     */
    @Test
    void anAlterDuringTheBuildWaitsForIt() throws Exception {
        onBoth(
                "CREATE TABLE a (id bigint PRIMARY KEY, email text)",
                "INSERT INTO a SELECT g, 'user-' || g FROM generate_series(1, " + ROWS + ") AS g(g)");
        String alter = "ALTER TABLE a ADD COLUMN extra int DEFAULT 7";
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("a_email", "a_both");
                Connection other = pair.tributary.connect("root", "", 120)) {
            FutureTask<String> altered = new FutureTask<>(() -> uniqueBuildError(other, alter));
            String outcome = buildHeld(held, "a_email", "CREATE UNIQUE INDEX a_email ON a (email)", () -> {
                start(altered);
                held.awaitRewriteClaim("a_email", altered::isDone);
            });
            assertEquals("no error", outcome);
            assertEquals("no error", altered.get(120, TimeUnit.SECONDS), alter);

            outcome = buildHeld(held, "a_both", "CREATE INDEX a_both ON a (email, extra)", () -> {
                try (Statement st = other.createStatement()) {
                    st.execute("SET statement_timeout = 100");
                    assertEquals(
                            "57014 canceling statement due to statement timeout DETAIL null",
                            uniqueBuildError(st, "ALTER TABLE a DROP COLUMN extra"));
                    st.execute("SET statement_timeout = 0");
                }
            });
            assertEquals("no error", outcome);
        }
        try (Statement st = pair.pg.createStatement()) {
            st.execute("CREATE UNIQUE INDEX a_email ON a (email)");
            st.execute(alter);
            st.execute("CREATE INDEX a_both ON a (email, extra)");
        }
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "SELECT count(*), sum(extra), count(email) FROM a",
                        "INSERT INTO a VALUES (" + (2 * ROWS) + ", 'user-5', 1) ON CONFLICT (email) DO NOTHING",
                        "SELECT id, email, extra FROM a WHERE id IN (1, 5, " + ROWS + ") ORDER BY id")));
    }

    /**
     * A CREATE INDEX asked for while an ALTER TABLE waits for another build on the table waits for
     * the ALTER (as PostgreSQL queues its lock behind the ALTER's) instead of starting a build that
     * the ALTER would then meet, and is built over the table the ALTER left.
     */
    @Test
    void aBuildAskedForWhileAnAlterWaitsWaitsForTheAlter() throws Exception {
        buildBehindAlter("q", "q_email", "CREATE UNIQUE INDEX q_email ON q (email)");
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "SELECT count(*), sum(extra), count(email) FROM q",
                        "INSERT INTO q VALUES (" + ROWS + ", 'user-5', 1) ON CONFLICT (email) DO NOTHING",
                        "INSERT INTO q VALUES (" + (ROWS + 1) + ", 'user-x', 1) ON CONFLICT (email) DO NOTHING",
                        "SELECT id, email, extra FROM q WHERE id IN (1, 5, " + (ROWS + 1) + ") ORDER BY id")));
    }

    /**
     * CREATE INDEX on a column that an ALTER TABLE waiting for another build on the table adds
     * waits for the ALTER and is built over the column, as in PostgreSQL (where CREATE INDEX takes
     * the table's lock, queued behind the ALTER's, before it resolves its columns); a column that
     * no ALTER adds is still 42703 at once.
     */
    @Test
    void aBuildOnAColumnAnAlterAddsWaitsForTheAlter() throws Exception {
        buildBehindAlter("c", "c_extra", "CREATE INDEX c_extra ON c (extra)");
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "CREATE INDEX c_none ON c (nothing)",
                        "SELECT indexname FROM pg_indexes WHERE tablename = 'c' ORDER BY indexname",
                        "SELECT count(*), sum(extra) FROM c WHERE extra = 7")));
    }

    /**
     * CREATE INDEX obeys {@code statement_timeout} (57014, no index made) both while it waits for an
     * ALTER's claim and while it builds: each build is held until well past its session's timeout,
     * so the check must end it, as PostgreSQL's lock wait and build would end.
     */
    @Test
    void aBuildObeysStatementTimeoutWhileItWaitsAndWhileItBuilds() throws Exception {
        onBoth(
                "CREATE TABLE st (id bigint PRIMARY KEY, v text)",
                "INSERT INTO st SELECT g, 'v-' || g FROM generate_series(1, " + ROWS / 10 + ") AS g(g)");
        String alter = "ALTER TABLE st ADD COLUMN extra int";
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("st_id", "st_v", "st_late");
                Connection alterer = pair.tributary.connect("root", "", 120);
                Connection waiter = pair.tributary.connect("root", "", 120);
                Connection slow = pair.tributary.connect("root", "", 120)) {
            FutureTask<String> altered = new FutureTask<>(() -> uniqueBuildError(alterer, alter));
            String first = buildHeld(held, "st_id", "CREATE INDEX st_id ON st (id)", () -> {
                start(altered);
                held.awaitRewriteClaim("st_id", altered::isDone);
                try (Statement st = waiter.createStatement()) {
                    st.execute("SET statement_timeout = 300");
                    assertEquals(
                            "57014",
                            uniqueBuildError(st, "CREATE INDEX st_v ON st (v)").substring(0, 5),
                            "a build waiting for an ALTER past its statement_timeout");
                }
            });
            assertEquals("no error", first);
            assertEquals("no error", altered.get(120, TimeUnit.SECONDS), alter);
            FutureTask<String> late = start(() -> {
                try (Statement st = slow.createStatement()) {
                    st.execute("SET statement_timeout = 300");
                    return uniqueBuildError(st, "CREATE INDEX st_late ON st (v)");
                }
            });
            held.awaitHeld("st_late");
            Thread.sleep(600); // the build stays held past its session's timeout
            held.release("st_late");
            assertEquals("57014", late.get(120, TimeUnit.SECONDS).substring(0, 5), "a build past its timeout");
        }
        try (Statement st = pair.pg.createStatement()) {
            st.execute("CREATE INDEX st_id ON st (id)");
            st.execute(alter);
        }
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "SELECT indexname FROM pg_indexes WHERE tablename = 'st' ORDER BY indexname",
                        "SELECT count(*), count(extra) FROM st")));
    }
}
