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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
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
        for (String sql : List.of(
                "CREATE TABLE w (id bigint PRIMARY KEY, email text, v int)",
                "INSERT INTO w SELECT g, 'user-' || g, g % 1000 FROM generate_series(1, " + ROWS + ") AS g(g)",
                "UPDATE w SET email = NULL WHERE id % 1000 = 0")) {
            String[] outcome = pair.both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
        AtomicBoolean building = new AtomicBoolean(true);
        AtomicLong slowestNanos = new AtomicLong();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        List<String> applied = new ArrayList<>();
        Connection writerConnection = pair.tributary.connect("root", "", 120);
        Thread writer = new Thread(() -> {
            try (Statement st = writerConnection.createStatement()) {
                for (int i = 0; building.get(); i++) {
                    String sql = change(i);
                    long began = System.nanoTime();
                    st.execute(sql);
                    slowestNanos.accumulateAndGet(System.nanoTime() - began, Math::max);
                    synchronized (applied) {
                        applied.add(sql);
                    }
                }
            } catch (Throwable t) {
                writerFailure.set(t);
            }
        });
        writer.start();
        while (true) {
            synchronized (applied) {
                if (applied.size() >= 20 || writerFailure.get() != null) {
                    break;
                }
            }
            Thread.sleep(5);
        }
        long longestBuildNanos = 0;
        IntSupplier changes = () -> {
            synchronized (applied) {
                return writerFailure.get() != null ? Integer.MAX_VALUE : applied.size();
            }
        };
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("w_email", "w_v")) {
            for (String sql : List.of("CREATE UNIQUE INDEX w_email ON w (email)", "CREATE INDEX w_v ON w (v)")) {
                String name = sql.contains("w_email") ? "w_email" : "w_v";
                long began = System.nanoTime();
                FutureTask<String> build = start(() -> uniqueBuildError(pair.tributary.connection, sql));
                // the writer's changes after the snapshot are the ones the build catches up with
                held.awaitHeld(name);
                awaitChanges(changes, changes.getAsInt() + 10);
                held.release(name);
                assertEquals("no error", build.get(120, TimeUnit.SECONDS), sql);
                longestBuildNanos = Math.max(longestBuildNanos, System.nanoTime() - began);
            }
        } finally {
            building.set(false);
            writer.join();
            writerConnection.close();
        }
        assertEquals(null, writerFailure.get(), "the writer failed");
        // when a build held the barrier lock, a write made during it waited for nearly all of it
        assertTrue(
                slowestNanos.get() < longestBuildNanos / 2,
                "a write waited " + slowestNanos.get() / 1_000_000 + " ms; the longer build took "
                        + longestBuildNanos / 1_000_000 + " ms");

        try (Statement st = pair.pg.createStatement()) {
            for (String sql : applied) {
                st.execute(sql);
            }
            st.execute("CREATE UNIQUE INDEX w_email ON w (email)");
            st.execute("CREATE INDEX w_v ON w (v)");
        }
        List<String> probes = new ArrayList<>();
        probes.add("SELECT count(*), count(email), sum(v) FROM w");
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
        for (String sql : List.of(
                "CREATE TABLE h (id bigint PRIMARY KEY, email text, v int)",
                "INSERT INTO h SELECT g, 'user-' || g, g % 1000 FROM generate_series(1, " + ROWS + ") AS g(g)")) {
            String[] outcome = pair.both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
        AtomicBoolean building = new AtomicBoolean(true);
        List<long[]> spans = new ArrayList<>();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        List<String> applied = new ArrayList<>();
        Connection writerConnection = pair.tributary.connect("root", "", 120);
        Thread writer = new Thread(() -> {
            try (Statement st = writerConnection.createStatement()) {
                for (int i = 0; building.get(); i++) {
                    long from = (long) i * HEAVY_STEP % ROWS;
                    String sql = "UPDATE h SET email = email || 'x', v = v + 1 WHERE id > " + from + " AND id <= "
                            + (from + HEAVY_STEP);
                    long began = System.nanoTime();
                    st.execute(sql);
                    long ended = System.nanoTime();
                    synchronized (applied) {
                        applied.add(sql);
                        spans.add(new long[] {began, ended});
                    }
                }
            } catch (Throwable t) {
                writerFailure.set(t);
            }
        });
        writer.start();
        while (true) {
            synchronized (applied) {
                if (applied.size() >= 5 || writerFailure.get() != null) {
                    break;
                }
            }
            Thread.sleep(5);
        }
        long buildBegan = System.nanoTime();
        long buildEnded;
        IntSupplier statements = () -> {
            synchronized (applied) {
                return writerFailure.get() != null ? Integer.MAX_VALUE : applied.size();
            }
        };
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("h_email")) {
            FutureTask<String> build = start(
                    () -> uniqueBuildError(pair.tributary.connection, "CREATE UNIQUE INDEX h_email ON h (email)"));
            // more rows change after the snapshot than the catch-up rounds read under the lock at most
            held.awaitHeld("h_email");
            awaitChanges(statements, statements.getAsInt() + HEAVY_KEYS / HEAVY_STEP + 1);
            held.release("h_email");
            assertEquals("no error", build.get(120, TimeUnit.SECONDS));
        } finally {
            buildEnded = System.nanoTime();
            building.set(false);
            writer.join();
            writerConnection.close();
        }
        assertEquals(null, writerFailure.get(), "the writer failed");
        int during = 0;
        long slowest = 0;
        for (long[] span : spans) {
            if (span[1] > buildBegan && span[0] < buildEnded) {
                during++;
                slowest = Math.max(slowest, span[1] - span[0]);
            }
        }
        long buildNanos = buildEnded - buildBegan;
        assertTrue(during * HEAVY_STEP > HEAVY_KEYS, "only " + during + " statements ran during the build");
        assertTrue(
                slowest < buildNanos / 2,
                "a write waited " + slowest / 1_000_000 + " ms; the build took " + buildNanos / 1_000_000 + " ms");

        try (Statement st = pair.pg.createStatement()) {
            for (String sql : applied) {
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
        for (String sql : List.of(
                "CREATE TABLE d (id bigint PRIMARY KEY, email text)",
                "INSERT INTO d SELECT g, 'user-' || g FROM generate_series(1, " + ROWS + ") AS g(g)")) {
            String[] outcome = pair.both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
        String duplicates = "INSERT INTO d SELECT " + 2 * ROWS + " + g, 'user-' || (1 + (g * 7919 + 4111) % 90000)"
                + " FROM generate_series(0, 299) AS g(g)";
        String duringWrites;
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("d_email");
                Connection writer = pair.tributary.connect("root", "", 120);
                Statement st = writer.createStatement()) {
            FutureTask<String> build = start(
                    () -> uniqueBuildError(pair.tributary.connection, "CREATE UNIQUE INDEX d_email ON d (email)"));
            // after the build's snapshot, before its catch-up and last step
            held.awaitHeld("d_email");
            st.execute(duplicates);
            held.release("d_email");
            duringWrites = build.get(120, TimeUnit.SECONDS);
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
        FutureTask<T> future = new FutureTask<>(task);
        new Thread(future, "index-build-test").start();
        return future;
    }

    /** Waits (a minute at most) until {@code count} reaches {@code n}. */
    private static void awaitChanges(IntSupplier count, int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (count.getAsInt() < n) {
            assertTrue(System.nanoTime() < end, "the writer made " + count.getAsInt() + " of " + n + " changes");
            Thread.sleep(2);
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
        for (String sql : List.of(
                "CREATE TABLE t (id bigint PRIMARY KEY, v int)",
                "INSERT INTO t SELECT g, g FROM generate_series(1, " + rows + ") AS g(g)")) {
            String[] outcome = pair.both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
        List<String> after =
                List.of("TRUNCATE t", "INSERT INTO t SELECT g, g % 100 FROM generate_series(1, 100) AS g(g)");
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("t_v");
                Connection writer = pair.tributary.connect("root", "", 120);
                Statement st = writer.createStatement()) {
            FutureTask<String> build =
                    start(() -> uniqueBuildError(pair.tributary.connection, "CREATE UNIQUE INDEX t_v ON t (v)"));
            held.awaitHeld("t_v"); // after the build's snapshot
            for (String sql : after) {
                st.execute(sql);
            }
            held.release("t_v");
            assertEquals("no error", build.get(120, TimeUnit.SECONDS));
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
        for (String sql : List.of(
                "CREATE TABLE a (id bigint PRIMARY KEY, email text)",
                "INSERT INTO a SELECT g, 'user-' || g FROM generate_series(1, " + ROWS + ") AS g(g)")) {
            String[] outcome = pair.both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
        String alter = "ALTER TABLE a ADD COLUMN extra int DEFAULT 7";
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("a_email", "a_both");
                Connection other = pair.tributary.connect("root", "", 120)) {
            FutureTask<String> build = start(
                    () -> uniqueBuildError(pair.tributary.connection, "CREATE UNIQUE INDEX a_email ON a (email)"));
            held.awaitHeld("a_email");
            FutureTask<String> altered = start(() -> uniqueBuildError(other, alter));
            held.awaitRewriteClaim("a_email", altered::isDone);
            held.release("a_email");
            assertEquals("no error", build.get(120, TimeUnit.SECONDS));
            assertEquals("no error", altered.get(120, TimeUnit.SECONDS), alter);

            build = start(() -> uniqueBuildError(pair.tributary.connection, "CREATE INDEX a_both ON a (email, extra)"));
            held.awaitHeld("a_both");
            try (Statement st = other.createStatement()) {
                st.execute("SET statement_timeout = 100");
                assertEquals(
                        "57014 canceling statement due to statement timeout DETAIL null",
                        uniqueBuildError(st, "ALTER TABLE a DROP COLUMN extra"));
                st.execute("SET statement_timeout = 0");
            }
            held.release("a_both");
            assertEquals("no error", build.get(120, TimeUnit.SECONDS));
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
        for (String sql : List.of(
                "CREATE TABLE q (id bigint PRIMARY KEY, email text)",
                "INSERT INTO q SELECT g, 'user-' || g FROM generate_series(1, " + ROWS / 10 + ") AS g(g)")) {
            String[] outcome = pair.both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
        String alter = "ALTER TABLE q ADD COLUMN extra int DEFAULT 7";
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("q_id", "q_email");
                Connection alterer = pair.tributary.connect("root", "", 120);
                Connection builder = pair.tributary.connect("root", "", 120)) {
            FutureTask<String> first =
                    start(() -> uniqueBuildError(pair.tributary.connection, "CREATE INDEX q_id ON q (id)"));
            held.awaitHeld("q_id");
            FutureTask<String> altered = start(() -> uniqueBuildError(alterer, alter));
            held.awaitRewriteClaim("q_id", altered::isDone);
            FutureTask<String> second =
                    start(() -> uniqueBuildError(builder, "CREATE UNIQUE INDEX q_email ON q (email)"));
            held.awaitWaitingForRewrite("q_email");
            held.release("q_id");
            assertEquals("no error", first.get(120, TimeUnit.SECONDS));
            assertEquals("no error", altered.get(120, TimeUnit.SECONDS), alter);
            held.awaitHeld("q_email");
            held.release("q_email");
            assertEquals("no error", second.get(120, TimeUnit.SECONDS));
        }
        try (Statement st = pair.pg.createStatement()) {
            st.execute("CREATE INDEX q_id ON q (id)");
            st.execute(alter);
            st.execute("CREATE UNIQUE INDEX q_email ON q (email)");
        }
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "SELECT count(*), sum(extra), count(email) FROM q",
                        "INSERT INTO q VALUES (" + ROWS + ", 'user-5', 1) ON CONFLICT (email) DO NOTHING",
                        "INSERT INTO q VALUES (" + (ROWS + 1) + ", 'user-x', 1) ON CONFLICT (email) DO NOTHING",
                        "SELECT id, email, extra FROM q WHERE id IN (1, 5, " + (ROWS + 1) + ") ORDER BY id")));
    }

    /**
     * CREATE INDEX obeys {@code statement_timeout} (57014, no index made) both while it waits for an
     * ALTER's claim and while it builds: each build is held until well past its session's timeout,
     * so the check must end it, as PostgreSQL's lock wait and build would end.
     */
    @Test
    void aBuildObeysStatementTimeoutWhileItWaitsAndWhileItBuilds() throws Exception {
        for (String sql : List.of(
                "CREATE TABLE st (id bigint PRIMARY KEY, v text)",
                "INSERT INTO st SELECT g, 'v-' || g FROM generate_series(1, " + ROWS / 10 + ") AS g(g)")) {
            String[] outcome = pair.both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
        String alter = "ALTER TABLE st ADD COLUMN extra int";
        try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("st_id", "st_v", "st_late");
                Connection alterer = pair.tributary.connect("root", "", 120);
                Connection waiter = pair.tributary.connect("root", "", 120);
                Connection slow = pair.tributary.connect("root", "", 120)) {
            FutureTask<String> first =
                    start(() -> uniqueBuildError(pair.tributary.connection, "CREATE INDEX st_id ON st (id)"));
            held.awaitHeld("st_id");
            FutureTask<String> altered = start(() -> uniqueBuildError(alterer, alter));
            held.awaitRewriteClaim("st_id", altered::isDone);
            try (Statement st = waiter.createStatement()) {
                st.execute("SET statement_timeout = 300");
                assertEquals(
                        "57014",
                        uniqueBuildError(st, "CREATE INDEX st_v ON st (v)").substring(0, 5),
                        "a build waiting for an ALTER past its statement_timeout");
            }
            held.release("st_id");
            assertEquals("no error", first.get(120, TimeUnit.SECONDS));
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
