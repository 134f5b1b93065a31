package io.tributary.crash;

import static io.tributary.crash.RemoteJobsFixture.awaitTrue;
import static io.tributary.crash.RemoteJobsFixture.kill;
import static io.tributary.crash.RemoteJobsFixture.rows;
import static io.tributary.crash.RemoteJobsFixture.runningJobs;
import static io.tributary.crash.RemoteJobsFixture.signal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.connector.postgres.UpstreamPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The life of remote view jobs with {@code tributary worker} child processes and embedded
 * PostgreSQL as the jobs database: DROP and {@code CANCEL JOBS} cancel a view's queued or running
 * job (and DROP SINK a sink's), and nothing of a cancelled job lands afterwards.
 */
class RemoteViewJobTest {
    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    private RemoteJobsFixture remote;
    private String schema;
    private String jobsUrl;

    @AfterEach
    void close() throws Exception {
        if (remote != null) {
            remote.close();
        }
    }

    private void prepare() throws Exception {
        remote = new RemoteJobsFixture(tempDir, "rview", servers);
        schema = remote.schema();
        jobsUrl = remote.jobsUrl();
    }

    @Test
    void dropAndCancelJobsCancelQueuedAndRunningRemoteJobs() throws Exception {
        prepare();
        ServerProcess server = remote.start(tempDir.resolve("data"));
        Process w1 = remote.worker("w1");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, g BIGINT, v BIGINT)");
            st.execute("INSERT INTO t SELECT x, x % 7, x * 3 FROM generate_series(1, 60000) AS g(x)");
            awaitTrue(
                    () -> !rows(c, "SELECT name FROM tributary_catalog.workers").isEmpty(), "w1 registers");
            st.execute("SET remote_backfill = true");
            st.execute("SET fallback_to_local = false");
            st.execute("SET background_ddl = true");
            // the first job runs on w1, which is then stopped (SIGSTOP) mid-job: the next two wait in the queue
            st.execute("CREATE MATERIALIZED VIEW running_v AS SELECT g, count(*) AS n FROM t GROUP BY g");
            awaitTrue(
                    () -> rows(c, "SELECT state FROM tributary_catalog.remote_jobs WHERE owner = 'running_v'")
                            .equals(List.of("running|")),
                    "w1 runs the first job");
            signal(w1, "STOP");
            st.execute("CREATE MATERIALIZED VIEW queued_v AS SELECT id, v FROM t WHERE g = 1");
            st.execute("CREATE SINK queued_s FROM t WITH (connector = 'jdbc', jdbc.url = 'jdbc:postgresql://localhost:"
                    + UpstreamPostgres.server().getPort() + "/postgres', user = 'postgres', schema.name = '" + schema
                    + "', table.name = 's', create_table_if_not_exists = 'true', backfill.remote = 'true',"
                    + " backfill.fallback_to_local = 'false')");
            awaitTrue(
                    () -> rows(
                                    c,
                                    "SELECT state FROM tributary_catalog.remote_jobs WHERE owner IN ('queued_v',"
                                            + " 'queued_s') ORDER BY owner")
                            .equals(List.of("waiting|", "waiting|")),
                    "the view's and the sink's jobs are queued");
            st.execute("DROP MATERIALIZED VIEW queued_v");
            st.execute("DROP SINK queued_s");
            String runningId = rows(
                            c, "SELECT job_id FROM tributary_catalog.ddl_progress WHERE view_name = 'running_v'")
                    .get(0);
            st.execute("CANCEL JOBS " + runningId.substring(0, runningId.length() - 1));
            awaitTrue(
                    () -> rows(c, "SELECT owner, state FROM tributary_catalog.remote_jobs ORDER BY owner")
                            .equals(List.of("queued_s|cancelled|", "queued_v|cancelled|", "running_v|cancelled|")),
                    "every job says cancelled");
            // w1 goes on: its attempt finds at its next piece that it no longer owns the job
            signal(w1, "CONT");
            awaitTrue(() -> runningJobs(c, "w1") == 0, "w1 stops the cancelled attempt");
            // nothing of the cancelled jobs lands: no staged result, no task queued, no view
            Thread.sleep(2_000);
            try (Connection jobs = DriverManager.getConnection(jobsUrl)) {
                assertEquals(List.of("0|"), rows(jobs, "SELECT count(*) FROM tributary_job_results"));
                assertEquals(List.of("0|"), rows(jobs, "SELECT count(*) FROM tributary_job_checkpoints"));
                assertEquals(List.of("0|"), rows(jobs, "SELECT count(*) FROM scheduled_tasks"));
            }
            assertEquals(List.of("0|"), rows(c, "SELECT count(*) FROM tributary_catalog.ddl_progress"));
            assertEquals(
                    List.of("queued_s|cancelled|", "queued_v|cancelled|", "running_v|cancelled|"),
                    rows(c, "SELECT owner, state FROM tributary_catalog.remote_jobs ORDER BY owner"));
        }
        kill(w1);
    }

    /**
     * A filter view with about 40 MB of state, computed by a worker run with {@code -Xmx128m}, which
     * streams it in chunks. The first worker is killed (SIGKILL) while
     * staging, a second takes the job over, and the view equals its query with nothing doubled.
     */
    @Test
    void aLargeFilterViewStreamsThroughASmallWorkerKilledMidStream() throws Exception {
        prepare();
        ServerProcess server = remote.start(tempDir.resolve("data"));
        Process w1 = remote.worker("w1", "-Xmx128m");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, g BIGINT, pad VARCHAR)");
            st.execute("INSERT INTO t SELECT x, x % 10, repeat('p', 400) || x FROM generate_series(1, 100000) AS g(x)");
            awaitTrue(
                    () -> !rows(c, "SELECT name FROM tributary_catalog.workers").isEmpty(), "w1 registers");
            st.execute("SET remote_backfill = true");
            st.execute("SET fallback_to_local = false");
            st.execute("SET background_ddl = true");
            st.execute("CREATE MATERIALIZED VIEW f AS SELECT id, pad FROM t WHERE g <> 3");
            try (Connection jobs = DriverManager.getConnection(jobsUrl)) {
                awaitTrue(
                        () -> Long.parseLong(rows(jobs, "SELECT count(*) FROM tributary_job_results")
                                        .get(0)
                                        .replace("|", ""))
                                > 0,
                        "w1 stages part of the state",
                        600_000);
            }
            kill(w1);
            st.execute("UPDATE t SET pad = 'changed' WHERE id % 1000 = 0");
            remote.worker("w2", "-Xmx128m");
            awaitTrue(
                    () -> rows(c, "SELECT worker, state FROM tributary_catalog.remote_jobs WHERE owner = 'f'")
                            .equals(List.of("w2|done|")),
                    "w2 finishes the job");
            awaitTrue(
                    () -> rows(c, "SELECT 1 FROM tributary_catalog.ddl_progress")
                            .isEmpty(),
                    "f is created");
            String query = "SELECT count(*), count(DISTINCT id), sum(id), sum(length(pad)) FROM ";
            assertEquals(
                    rows(c, query + "t WHERE g <> 3"),
                    rows(c, query + "f"),
                    "the view equals its query, nothing doubled");
        }
    }

    /**
     * A worker SIGKILLed after it committed checkpoints of a GROUP BY view's build: a second
     * worker's attempt goes on from them (its log says at how many snapshot rows, more than 0),
     * copies from the server only the snapshot rows its checkpoint had not read (the job's {@code
     * rows_copied} plus those rows are the snapshot's), and the view equals its query and a local
     * build of it after changes made meanwhile, nothing doubled or lost.
     */
    @Test
    void aSecondWorkerGoesOnFromTheKilledWorkersCheckpoint() throws Exception {
        prepare();
        ServerProcess server = remote.start(tempDir.resolve("data"));
        Process w1 = remote.worker("w1");
        RemoteJobsFixture.ProgressSamples progress = new RemoteJobsFixture.ProgressSamples(server.jdbcUrl(), "agg");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            // without fallback: on a loaded machine w2 may take longer to register than the server waits
            st.execute("SET fallback_to_local = false");
            halfBuiltRemoteView(c, st, w1);
            remote.worker("w2");
            awaitTrue(
                    () -> rows(c, "SELECT worker, state FROM tributary_catalog.remote_jobs WHERE owner = 'agg'")
                            .equals(List.of("w2|done|")),
                    "w2 finishes the job");
            assertEquals(
                    List.of("true|"),
                    List.of(resumedMidway(remote.workerLog("w2"), "resumed at ") + "|"),
                    "w2 resumed at the checkpoint");
            long resumed = rowsAfter(remote.workerLog("w2"), "resumed at ");
            try (Connection jobs = DriverManager.getConnection(jobsUrl)) {
                assertEquals(
                        List.of((AGG_ROWS - resumed) + "|"),
                        rows(jobs, "SELECT rows_copied FROM tributary_remote_jobs WHERE kind = 'view-snapshot'"),
                        "w2 copied from the server only the " + (AGG_ROWS - resumed)
                                + " snapshot rows after its checkpoint, not all " + AGG_ROWS);
            }
            awaitAggEqualsItsQuery(c);
            st.execute("SET remote_backfill = false");
            st.execute("SET background_ddl = false");
            st.execute("CREATE MATERIALIZED VIEW agg_local AS SELECT g, count(*) AS n, sum(v) AS s FROM t GROUP BY g");
            assertEquals(
                    rows(c, "SELECT g, n, s FROM agg_local ORDER BY g"),
                    rows(c, "SELECT g, n, s FROM agg ORDER BY g"),
                    "the view taken over from w2 equals a local build of it");
            assertTrue(
                    progress.stopAndCheck("remote:") > 0,
                    "ddl_progress showed rows done while the job ran on a worker, and never went back");
            try (Connection jobs = DriverManager.getConnection(jobsUrl)) {
                assertEquals(
                        List.of("0|0|"),
                        rows(
                                jobs,
                                "SELECT (SELECT count(*) FROM tributary_job_checkpoints),"
                                        + " (SELECT count(*) FROM tributary_job_results)"),
                        "a job taken over leaves no checkpoints nor results in the jobs database");
            }
        }
    }

    /**
     * No worker is left after the only one was SIGKILLed with checkpoints committed: the server
     * falls back and reads the snapshot from the workers' checkpoint on, and the view equals its
     * query.
     */
    @Test
    void theServersFallbackGoesOnFromTheKilledWorkersCheckpoint() throws Exception {
        prepare();
        ServerProcess server = remote.start(tempDir.resolve("data"));
        Process w1 = remote.worker("w1");
        RemoteJobsFixture.ProgressSamples progress = new RemoteJobsFixture.ProgressSamples(server.jdbcUrl(), "agg");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("SET fallback_to_local = true");
            halfBuiltRemoteView(c, st, w1);
            awaitTrue(() -> server.output().contains("from the workers' checkpoint at "), "the server falls back");
            assertEquals(
                    List.of("true|"),
                    List.of(resumedMidway(server.output(), "from the workers' checkpoint at ") + "|"),
                    "the server resumed at the checkpoint");
            awaitAggEqualsItsQuery(c);
            assertTrue(
                    progress.stopAndCheck("remote:") > 0,
                    "ddl_progress showed rows done on the worker and never went back through the fallback");
            try (Connection jobs = DriverManager.getConnection(jobsUrl)) {
                assertEquals(
                        List.of("0|"),
                        rows(jobs, "SELECT count(*) FROM tributary_job_checkpoints"),
                        "the checkpoints are removed once the server resumed from them");
            }
        }
    }

    /**
     * A remote view build opens a few connections to the jobs database per attempt, not a few per
     * second: the server and the worker take their short calls (heartbeats, db-scheduler's polling,
     * the per-piece ownership check, {@code ddl_progress}'s reads of the job's progress, sampled
     * here throughout) from pools. Counted with PostgreSQL's own {@code pg_stat_database.sessions}
     * of the jobs database, from when the worker registered until the view is created; the build
     * is held to 16,000 rows/s, so it lasts at least 9 s. Before the pools that was 4-5 new
     * connections a second.
     */
    @Test
    void aRemoteViewBuildOpensAFewJobsDatabaseConnectionsNotAFewASecond() throws Exception {
        prepare();
        ServerProcess server = remote.start(tempDir.resolve("data"));
        remote.worker("w1");
        RemoteJobsFixture.ProgressSamples progress = new RemoteJobsFixture.ProgressSamples(server.jdbcUrl(), "agg");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, g BIGINT, v BIGINT)");
            st.execute("INSERT INTO t SELECT x, x % 1000, x * 3 FROM generate_series(1, " + AGG_ROWS + ") AS g(x)");
            awaitTrue(
                    () -> !rows(c, "SELECT name FROM tributary_catalog.workers").isEmpty(), "w1 registers");
            st.execute("SET remote_backfill = true");
            st.execute("SET fallback_to_local = false");
            st.execute("SET background_ddl = true");
            st.execute("SET streaming_parallelism = 2");
            st.execute("SET backfill_rate_limit = 8000");
            long before = jobsDatabaseSessions();
            long started = System.nanoTime();
            st.execute("CREATE MATERIALIZED VIEW agg AS SELECT g, count(*) AS n, sum(v) AS s FROM t GROUP BY g");
            awaitAggEqualsItsQuery(c);
            long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            assertTrue(progress.stopAndCheck("remote:") > 0, "ddl_progress showed the job's rows done on w1");
            long opened = jobsDatabaseSessions() - before;
            System.out.println(
                    "connections opened to the jobs database during the build: " + opened + " in " + seconds + " s");
            assertTrue(
                    opened <= 15,
                    opened + " connections to the jobs database were opened during a remote view build of " + seconds
                            + " s");
        }
    }

    /**
     * How many sessions the jobs database has had ({@code pg_stat_database.sessions}, counted at a
     * session's first report), once the statistics caught up.
     */
    private long jobsDatabaseSessions() throws Exception {
        Thread.sleep(2_000);
        String db = jobsUrl.substring(jobsUrl.lastIndexOf('/') + 1, jobsUrl.indexOf('?'));
        return Long.parseLong(
                UpstreamPostgres.queryOne("SELECT sessions FROM pg_stat_database WHERE datname = '" + db + "'"));
    }

    private static final int AGG_ROWS = 150_000;

    /**
     * Creates view {@code agg} on worker {@code w1} and SIGKILLs it once it committed a checkpoint
     * and before it finished; then changes the upstream.
     */
    private void halfBuiltRemoteView(Connection c, Statement st, Process w1) throws Exception {
        st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, g BIGINT, v BIGINT)");
        st.execute("INSERT INTO t SELECT x, x % 1000, x * 3 FROM generate_series(1, " + AGG_ROWS + ") AS g(x)");
        awaitTrue(() -> !rows(c, "SELECT name FROM tributary_catalog.workers").isEmpty(), "w1 registers");
        st.execute("SET remote_backfill = true");
        st.execute("SET background_ddl = true");
        // the worker keeps to the rate (16,000 rows/s over 2 units), so it is killed mid-way even
        // on an idle machine, where it could otherwise read all rows before its first checkpoint
        st.execute("SET streaming_parallelism = 2");
        st.execute("SET backfill_rate_limit = 8000");
        st.execute("CREATE MATERIALIZED VIEW agg AS SELECT g, count(*) AS n, sum(v) AS s FROM t GROUP BY g");
        try (Connection jobs = DriverManager.getConnection(jobsUrl)) {
            awaitTrue(
                    () -> !rows(jobs, "SELECT 1 FROM tributary_remote_jobs WHERE rows_done > 0")
                            .isEmpty(),
                    "w1 commits a checkpoint that has read snapshot rows",
                    600_000);
            kill(w1);
            assertEquals(
                    List.of("running|"),
                    rows(jobs, "SELECT state FROM tributary_remote_jobs"),
                    "w1 was killed before it finished");
        }
        st.execute("UPDATE t SET v = v + 1 WHERE id % 100 = 0");
        st.execute("DELETE FROM t WHERE id % 1000 = 7");
        st.execute("INSERT INTO t VALUES (" + (AGG_ROWS + 1) + ", 5, 5)");
    }

    /** Whether {@code log} says the attempt resumed at more than 0 and fewer than all snapshot rows. */
    private static boolean resumedMidway(String log, String marker) {
        long rows = rowsAfter(log, marker);
        return rows > 0 && rows < AGG_ROWS;
    }

    /** The number that follows the first {@code marker} in {@code log}; -1 without one. */
    private static long rowsAfter(String log, String marker) {
        int at = log.indexOf(marker);
        if (at < 0) {
            return -1;
        }
        String rest = log.substring(at + marker.length());
        return Long.parseLong(rest.substring(0, rest.indexOf(' ')));
    }

    private void awaitAggEqualsItsQuery(Connection c) throws Exception {
        awaitTrue(() -> rows(c, "SELECT 1 FROM tributary_catalog.ddl_progress").isEmpty(), "agg is created");
        assertEquals(
                rows(c, "SELECT g, count(*), sum(v) FROM t GROUP BY g ORDER BY g"),
                rows(c, "SELECT g, n, s FROM agg ORDER BY g"),
                "the view equals its query, nothing doubled or lost");
    }
}
