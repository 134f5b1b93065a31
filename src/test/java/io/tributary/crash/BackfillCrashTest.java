package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.storage.StoreCensus;
import io.tributary.storage.rocksdb.RocksStateStore;
import io.tributary.stream.operators.MaterializeOperator;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.StringReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;

/**
 * Backfills under {@code kill -9}. Each trial loads a table, starts writers changing it, creates one to three views
 * over it in the background with a rate limit (so their backfills are in progress), reads their progress from
 * {@code SHOW JOBS}, and kills the server with SIGKILL at a random moment. After the restart every interrupted job
 * must be listed again with at least the progress seen before the kill (it resumes from its last checkpoint, not
 * from zero), must finish, and then every view must equal its query, run as a plain SELECT on the same server and
 * on an embedded PostgreSQL fed the recovered tables. Every INSERT a writer had acknowledged must have survived.
 * One trial creates its view in the foreground instead: after the restart that view and its job are gone.
 * Every other server ingests each backfill file of a view's rows, however small
 * ({@link MaterializeOperator#MIN_INGESTED_PAIRS_PROPERTY} 1), so kills meet those ingestions too.
 * At the end no job record, pin or change log may be left in the store.
 *
 * <p>The kill moment depends on timing, so a seed fixes the workload and delays but cannot replay a run exactly;
 * rerun a seed with {@code -Dbackfillcrash.seed=N}.
 */
class BackfillCrashTest {
    private static final int BACKGROUND_TRIALS = 3;
    private static final long BARRIER_INTERVAL_MS = 50;
    private static final int WRITERS = 2;
    private static final int GROUPS = 40;
    /** Writer w inserts ids from {@code (w + 1) * ID_SPAN}. */
    private static final long ID_SPAN = 1_000_000_000L;

    private static final Pattern PROGRESS = Pattern.compile("\\((\\d+)/(\\d+|\\?)\\)");

    /** View templates; each trial picks some. */
    private static final Map<String, String> VIEWS = new LinkedHashMap<>();

    static {
        VIEWS.put("agg", "SELECT g, count(*) AS n, sum(v) AS s, min(v) AS lo, max(v) AS hi FROM t GROUP BY g");
        VIEWS.put("joined", "SELECT t.id, t.v, d.name FROM t JOIN d ON t.g = d.g");
        VIEWS.put("filtered", "SELECT id, g, v FROM t WHERE v % 5 = 2");
        // its snapshot rows are copied as the table stores them (Chunk.ofStored)
        VIEWS.put("copied", "SELECT * FROM t");
    }

    private static EmbeddedPostgres postgres;

    @TempDir
    Path tempDir;

    /** How many servers this test started. */
    private int lives;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void backfillsResumeAfterKill9AndViewsEqualTheirQueries() throws Exception {
        long seed = Long.getLong("backfillcrash.seed", System.nanoTime());
        System.out.println("backfill crash test: seed " + seed);
        Random random = new Random(seed);
        Path dataDir = tempDir.resolve("data");
        ServerProcess server = start(dataDir);
        try {
            for (int trial = 0; trial <= BACKGROUND_TRIALS; trial++) {
                boolean foreground = trial == BACKGROUND_TRIALS;
                server = foreground
                        ? foregroundTrial(server, dataDir, random, trial)
                        : backgroundTrial(server, dataDir, random, trial);
            }
            server.kill9();
        } catch (AssertionError | Exception e) {
            throw new AssertionError(
                    "backfill crash test failed with seed " + seed + " (-Dbackfillcrash.seed=" + seed + "): "
                            + e.getMessage(),
                    e);
        }
        // The last server life ended with every job finished or removed: nothing of them may remain.
        try (RocksStateStore store = RocksStateStore.open(dataDir.resolve("state"))) {
            StoreCensus census = StoreCensus.of(store);
            assertEquals(0, census.jobRecords(), "job records left: " + census);
            assertEquals(List.of(), census.pins(), "pins left: " + census);
            assertEquals(0, census.logKeyCount(), "change logs left: " + census);
        }
    }

    /** Fresh tables t (loaded) and d; drops what the previous trial left. */
    private static int load(Connection c, Random random) throws SQLException {
        int rows = 30_000 + random.nextInt(30_001);
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS t CASCADE");
            st.execute("DROP TABLE IF EXISTS d CASCADE");
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, g INT, v INT)");
            st.execute("CREATE TABLE d (g INT PRIMARY KEY, name TEXT)");
            st.execute("INSERT INTO t SELECT x, x % " + GROUPS + ", (x * 7919) % 1000 FROM generate_series(1, " + rows
                    + ") AS s(x)");
            st.execute("INSERT INTO d SELECT x, 'g' || x FROM generate_series(0, " + (GROUPS - 1) + ") AS s(x)");
        }
        return rows;
    }

    private ServerProcess backgroundTrial(ServerProcess server, Path dataDir, Random random, int trial)
            throws Exception {
        List<String> names = new ArrayList<>(VIEWS.keySet());
        java.util.Collections.shuffle(names, random);
        List<String> chosen = names.subList(0, 1 + random.nextInt(names.size()));
        int rows;
        int parallelism = 1 + random.nextInt(2);
        // Slow enough that no backfill is done before the kill or before the test has looked at it after the
        // restart: at most 2 actors x 300 rows/s leaves the smallest table (30,000 rows) 50 s of work, more than a
        // restart and the checks take on a loaded machine.
        long rate = 150 + random.nextInt(150);
        List<BackfillWriter> writers = new ArrayList<>();
        Map<String, Long> before = new HashMap<>();
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            rows = load(c, random);
            for (int w = 0; w < WRITERS; w++) {
                writers.add(new BackfillWriter(w, random.nextLong(), rows));
            }
            st.execute("SET background_ddl = true");
            st.execute("SET streaming_parallelism = " + parallelism);
            st.execute("SET backfill_rate_limit = " + rate);
            long delayMs = 300 + random.nextInt(2_500);
            AtomicBoolean killing = new AtomicBoolean();
            List<CompletableFuture<Void>> running = startWriters(server, writers, killing);
            for (String view : chosen) {
                st.execute("CREATE MATERIALIZED VIEW " + view + " AS " + VIEWS.get(view));
            }
            Thread.sleep(delayMs);
            before.putAll(jobProgress(c));
            killing.set(true);
            server.kill9();
            awaitWriters(running);
            System.out.printf(
                    "  trial %d: %d rows, views %s, parallelism %d, %d rows/s per unit, killed %d ms after"
                            + " creating them, progress before the kill %s%n",
                    trial, rows, chosen, parallelism, rate, delayMs, before);
        }
        server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            Map<String, Long> after = jobProgress(c);
            System.out.printf("    progress after the restart %s%n", after);
            for (Map.Entry<String, Long> job : before.entrySet()) {
                Long resumed = after.get(job.getKey());
                assertTrue(resumed != null, "background job " + job.getKey() + " resumes after the restart: " + after);
                assertTrue(
                        resumed >= job.getValue(),
                        "job " + job.getKey() + " resumed at " + resumed + " rows done, had " + job.getValue()
                                + " before the kill");
            }
            // The recovered jobs follow writes made after the restart too.
            for (BackfillWriter w : writers) {
                for (int i = 0; i < 5; i++) {
                    st.executeUpdate(w.next());
                    w.acknowledged();
                }
            }
            for (String view : chosen) {
                st.execute("ALTER MATERIALIZED VIEW " + view + " SET BACKFILL_RATE_LIMIT = DEFAULT");
            }
            st.execute("WAIT");
            assertEquals(Map.of(), jobProgress(c), "jobs after WAIT");
            for (BackfillWriter w : writers) {
                w.checkInsertsSurvived(c);
            }
            checkViews(c, chosen);
        }
        return server;
    }

    private ServerProcess foregroundTrial(ServerProcess server, Path dataDir, Random random, int trial)
            throws Exception {
        String view = "agg";
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement();
                Connection creator = DriverManager.getConnection(server.jdbcUrl())) {
            int rows = load(c, random);
            try (Statement create = creator.createStatement()) {
                create.execute("SET backfill_rate_limit = 3000");
                CompletableFuture<SQLException> outcome = CompletableFuture.supplyAsync(() -> {
                    try {
                        create.execute("CREATE MATERIALIZED VIEW " + view + " AS " + VIEWS.get(view));
                        return null;
                    } catch (SQLException e) {
                        return e;
                    }
                });
                long deadline = System.currentTimeMillis() + 60_000;
                while (jobProgress(c).getOrDefault(view, 0L) == 0 && System.currentTimeMillis() < deadline) {
                    Thread.sleep(20);
                }
                Thread.sleep(random.nextInt(1_000));
                Map<String, Long> before = jobProgress(c);
                assertTrue(before.containsKey(view), "the foreground job is listed in other sessions: " + before);
                server.kill9();
                SQLException e = outcome.get(60, TimeUnit.SECONDS);
                assertTrue(e != null, "the interrupted foreground CREATE failed");
                System.out.printf("  trial %d: %d rows, foreground view %s killed at %s%n", trial, rows, view, before);
            }
        }
        server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            assertEquals(Map.of(), jobProgress(c), "no job remains of the interrupted foreground CREATE");
            assertEquals(List.of(), column(c, "SHOW MATERIALIZED VIEWS"), "the interrupted view is gone");
            st.execute("CREATE MATERIALIZED VIEW " + view + " AS " + VIEWS.get(view));
            checkViews(c, List.of(view));
        }
        return server;
    }

    private ServerProcess start(Path dataDir) throws Exception {
        // every other server life (the first, which the first trial kills, the third...) ingests every
        // file of a view's rows, however small, so kill -9 meets their ingestion; the others read the
        // small files back into the checkpoint's pending writes, as a server does by default
        boolean ingestEveryFile = lives++ % 2 == 0;
        System.out.printf("  server life %d: %s%n", lives, ingestEveryFile ? "every file ingested" : "default files");
        List<String> jvm = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        if (ingestEveryFile) {
            jvm.add("-D" + MaterializeOperator.MIN_INGESTED_PAIRS_PROPERTY + "=1");
        }
        return servers.start(dataDir, BARRIER_INTERVAL_MS, jvm, List.of());
    }

    private static List<CompletableFuture<Void>> startWriters(
            ServerProcess server, List<BackfillWriter> writers, AtomicBoolean killing) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(writers.size());
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (BackfillWriter w : writers) {
            running.add(CompletableFuture.runAsync(() -> w.run(server.jdbcUrl(), killing, started)));
        }
        started.await(60, TimeUnit.SECONDS);
        return running;
    }

    private static void awaitWriters(List<CompletableFuture<Void>> running) throws Exception {
        for (CompletableFuture<Void> f : running) {
            try {
                f.get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof AssertionError a) {
                    throw a;
                }
                throw e;
            }
        }
    }

    /** Per view being created, its rows done as SHOW JOBS prints them. */
    private static Map<String, Long> jobProgress(Connection c) throws SQLException {
        Map<String, Long> out = new HashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW JOBS")) {
            while (rs.next()) {
                Matcher view =
                        Pattern.compile("CREATE MATERIALIZED VIEW (\\w+)").matcher(rs.getString(2));
                Matcher progress = PROGRESS.matcher(rs.getString(3));
                if (!view.find() || !progress.find()) {
                    throw new AssertionError("unexpected SHOW JOBS row: " + rs.getString(2) + " | " + rs.getString(3));
                }
                assertTrue(!rs.getString(3).startsWith("100"), "never 100% before done: " + rs.getString(3));
                out.put(view.group(1), Long.parseLong(progress.group(1)));
            }
        }
        return out;
    }

    /** Each view equals its query on this server and on PostgreSQL fed the same tables. */
    private static void checkViews(Connection c, List<String> views) throws Exception {
        try (Connection pg = postgres.getPostgresDatabase().getConnection();
                Statement st = pg.createStatement()) {
            st.execute("DROP TABLE IF EXISTS t");
            st.execute("DROP TABLE IF EXISTS d");
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, g INT, v INT)");
            st.execute("CREATE TABLE d (g INT PRIMARY KEY, name TEXT)");
            copy(c, pg, "t");
            copy(c, pg, "d");
            for (String view : views) {
                List<String> actual = sortedRows(c, "SELECT * FROM " + view);
                List<String> here = sortedRows(c, VIEWS.get(view));
                List<String> there = sortedRows(pg, VIEWS.get(view));
                assertSameRows(here, actual, "view " + view + " against its query on the same server");
                assertSameRows(there, actual, "view " + view + " against its query on PostgreSQL");
            }
        }
    }

    private static void copy(Connection from, Connection to, String table) throws Exception {
        StringBuilder data = new StringBuilder();
        try (Statement st = from.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= n; i++) {
                    data.append(i > 1 ? "\t" : "").append(rs.getString(i) == null ? "\\N" : rs.getString(i));
                }
                data.append('\n');
            }
        }
        to.unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY " + table + " FROM STDIN", new StringReader(data.toString()));
    }

    private static List<String> sortedRows(Connection c, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringJoiner row = new StringJoiner("|");
                for (int i = 1; i <= n; i++) {
                    row.add(String.valueOf(rs.getString(i)));
                }
                rows.add(row.toString());
            }
        }
        rows.sort(null);
        return rows;
    }

    private static List<String> column(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static void assertSameRows(List<String> expected, List<String> actual, String what) {
        if (expected.equals(actual)) {
            return;
        }
        List<String> missing = new ArrayList<>(expected);
        actual.forEach(missing::remove);
        List<String> extra = new ArrayList<>(actual);
        expected.forEach(extra::remove);
        throw new AssertionError(what + ": missing " + missing.subList(0, Math.min(10, missing.size())) + " ("
                + missing.size() + "), extra " + extra.subList(0, Math.min(10, extra.size())) + " (" + extra.size()
                + ")");
    }

    /**
     * A client inserting rows with ids of its own, updating rows anywhere and deleting rows of the loaded range
     * only, so that every INSERT it had acknowledged must be found after a crash. Survives restarts.
     */
    private static final class BackfillWriter implements CrashWriter {
        private final int id;
        private final Random random;
        private final int loaded;
        private long nextId;
        private final Set<Long> acknowledgedIds = ConcurrentHashMap.newKeySet();
        private List<Long> pending = List.of();

        BackfillWriter(int id, long seed, int loaded) {
            this.id = id;
            this.random = new Random(seed);
            this.loaded = loaded;
            this.nextId = (id + 1) * ID_SPAN;
        }

        @Override
        public void run(String jdbcUrl, AtomicBoolean killing, CountDownLatch firstAcknowledged) {
            try (Connection c = DriverManager.getConnection(jdbcUrl);
                    Statement st = c.createStatement()) {
                while (true) {
                    String sql = next();
                    try {
                        st.executeUpdate(sql);
                    } catch (SQLException e) {
                        if (!killing.get()) {
                            throw new AssertionError("writer " + id + ": statement failed on a live server: " + sql, e);
                        }
                        return;
                    }
                    acknowledged();
                    firstAcknowledged.countDown();
                }
            } catch (SQLException e) {
                if (!killing.get()) {
                    throw new AssertionError("writer " + id + ": cannot connect to a live server", e);
                }
            }
        }

        /** The next statement; the ids it inserts count as acknowledged after {@link #acknowledged}. */
        String next() {
            int dice = random.nextInt(100);
            pending = List.of();
            if (dice < 40) {
                StringJoiner values = new StringJoiner(", ", "INSERT INTO t VALUES ", "");
                List<Long> ids = new ArrayList<>();
                for (int i = 0; i < 1 + random.nextInt(10); i++) {
                    ids.add(nextId);
                    values.add("(" + nextId++ + ", " + random.nextInt(GROUPS) + ", " + random.nextInt(1000) + ")");
                }
                pending = ids;
                return values.toString();
            }
            long from = 1 + random.nextInt(loaded);
            if (dice < 75) {
                return "UPDATE t SET v = v + " + (random.nextInt(21) - 10) + ", g = (g + " + random.nextInt(3) + ") % "
                        + GROUPS + " WHERE id BETWEEN " + from + " AND " + (from + random.nextInt(20));
            }
            if (dice < 95) {
                return "DELETE FROM t WHERE id BETWEEN " + from + " AND " + (from + random.nextInt(5));
            }
            return "UPDATE d SET name = name || '" + id + "' WHERE g = " + random.nextInt(GROUPS);
        }

        void acknowledged() {
            acknowledgedIds.addAll(pending);
        }

        void checkInsertsSurvived(Connection c) throws SQLException {
            long found = 0;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM t WHERE id" + " BETWEEN " + (id + 1) * ID_SPAN
                            + " AND " + ((id + 2) * ID_SPAN - 1))) {
                rs.next();
                found = rs.getLong(1);
            }
            assertTrue(
                    found >= acknowledgedIds.size(),
                    "writer " + id + ": " + acknowledgedIds.size() + " acknowledged inserts, " + found + " rows found");
        }
    }
}
