package io.tributary.crash;

import static io.tributary.crash.RemoteJobsFixture.awaitTrue;
import static io.tributary.crash.RemoteJobsFixture.kill;
import static io.tributary.crash.RemoteJobsFixture.rows;
import static io.tributary.crash.RemoteJobsFixture.runningJobs;
import static io.tributary.crash.RemoteJobsFixture.signal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.connector.postgres.UpstreamPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Remote sink backfills with {@code tributary worker} child processes, embedded PostgreSQL being
 * both the shared jobs database and the sink target: a worker killed with SIGKILL mid-job, the
 * server killed with SIGKILL while the job waits, a second worker taking the job over from its last
 * checkpoint after the server re-attached; and a job without any worker, falling back to local.
 * In every case the target equals the relation.
 */
class RemoteBackfillTest {
    private static final int ROWS = 8_000;

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
        remote = new RemoteJobsFixture(tempDir, "remote", servers);
        schema = remote.schema();
        jobsUrl = remote.jobsUrl();
    }

    @Test
    void workerKilledServerKilledThenAnotherWorkerFinishesFromItsCheckpoint() throws Exception {
        prepare();
        Path dataDir = tempDir.resolve("data");
        ServerProcess server = remote.start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT, note VARCHAR)");
            st.execute("INSERT INTO t SELECT x, x, 'n' || x FROM generate_series(1, " + ROWS + ") AS g(x)");
            // slow, so the kills land in the copy
            st.execute("SET sink_rate_limit = 2000");
            st.execute("CREATE SINK k FROM t" + with("t_out", "'false'"));
            assertEquals("waiting for a worker", backfillPhase(st));
        }
        Process w1 = remote.worker("w1");
        awaitTrue(() -> positionVnode() > 10, "w1 copies some chunks");
        kill(w1);
        int reached = positionVnode();
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("UPDATE t SET v = -v WHERE id % 7 = 0");
            st.execute("DELETE FROM t WHERE id % 11 = 0");
        }
        server.kill9();
        server = remote.start(dataDir);
        // re-attached, not restarted: the position the dead worker committed stays
        assertTrue(positionVnode() >= reached, "progress never goes back");
        remote.worker("w2");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("ALTER SINK k SET SINK_RATE_LIMIT = DEFAULT");
            awaitEqual(
                    c,
                    "SELECT id, v, note FROM t ORDER BY id",
                    "SELECT id, v, note FROM " + schema + ".t_out ORDER BY id");
            awaitTrue(
                    () -> "complete"
                            .equals(target("SELECT backfill_status FROM " + schema
                                    + ".backfill_processor_status WHERE backfill_alias = 'k_backfill'")),
                    "backfill complete");
        }
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            List<String> jobs = rows(
                    c,
                    "SELECT id, kind, owner, worker, state, attempts >= 2, started IS NOT NULL,"
                            + " finished IS NOT NULL FROM tributary_catalog.remote_jobs");
            assertEquals(List.of("sink-2-g0|sink-backfill|k|w2|done|t|t|t|"), jobs);
            assertEquals(
                    List.of("w2|1|"), rows(c, "SELECT name, slots FROM tributary_catalog.workers WHERE name = 'w2'"));
        }
    }

    @Test
    void withoutWorkersAFallbackJobRunsLocallyAndAnotherWaits() throws Exception {
        prepare();
        ServerProcess server = remote.start(tempDir.resolve("data2"));
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT)");
            st.execute("INSERT INTO t SELECT x, x * 2 FROM generate_series(1, 3000) AS g(x)");
            st.execute("CREATE SINK fb FROM t" + with("fb_out", "'true'"));
            st.execute("CREATE SINK nofb FROM t" + with("nofb_out", "'false'").replace("t_backfill", "x"));
            awaitEqual(c, "SELECT id, v FROM t ORDER BY id", "SELECT id, v FROM " + schema + ".fb_out ORDER BY id");
            Thread.sleep(1_000);
            assertEquals("waiting for a worker", phaseOf(st, "nofb"));
            remote.worker("w3");
            awaitEqual(c, "SELECT id, v FROM t ORDER BY id", "SELECT id, v FROM " + schema + ".nofb_out ORDER BY id");
        }
    }

    @Test
    void cancelJobsStopsARemoteBackfillForGoodAndResyncCopiesAgain() throws Exception {
        prepare();
        Path dataDir = tempDir.resolve("data3");
        ServerProcess server = remote.start(dataDir);
        remote.worker("w1");
        long jobId;
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT)");
            st.execute("INSERT INTO t SELECT x, x FROM generate_series(1, " + ROWS + ") AS g(x)");
            st.execute("SET sink_rate_limit = 2000");
            st.execute("CREATE SINK k FROM t" + with("k_out", "'false'"));
            awaitTrue(() -> positionVnode() > 5, "w1 copies some chunks");
            awaitTrue(() -> runningJobs(c, "w1") == 1, "w1 reports the job running");
            List<String> jobs = rows(c, "SHOW JOBS");
            assertEquals(1, jobs.size(), jobs.toString());
            assertTrue(jobs.get(0).endsWith("|backfill remote:w1|"), jobs.toString());
            assertTrue(jobs.get(0).contains("CREATE SINK k FROM t"), jobs.toString());
            jobId = Long.parseLong(jobs.get(0).substring(0, jobs.get(0).indexOf('|')));
            assertEquals(List.of(jobId + "|"), rows(c, "CANCEL JOBS " + jobId));
            assertEquals(List.of(), rows(c, "SHOW JOBS"));
            assertEquals(List.of(), rows(c, "CANCEL JOBS " + jobId), "nothing left to cancel");
            assertEquals("cancelled", backfillPhase(st));
            assertEquals(
                    List.of("cancelled|"),
                    rows(c, "SELECT state FROM tributary_catalog.remote_jobs WHERE owner = 'k'"));
            // the worker stops at its next chunk: one it began before the cancel may still commit,
            // however long it takes (seconds on a loaded machine); once the worker has let the job
            // go, the position stays
            awaitTrue(() -> runningJobs(c, "w1") == 0, "w1 lets the cancelled job go");
        }
        int stopped = positionVnode();
        Thread.sleep(1_500);
        assertEquals(stopped, positionVnode(), "the worker stopped copying");
        assertTrue(count("k_out") < ROWS, "the copy was cut short");
        // cancelled for good: a restarted server does not queue it again
        server.kill9();
        server = remote.start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            awaitTrue(() -> "cancelled".equals(phaseOf(st, "k")), "the restarted server sees the cancel");
            Thread.sleep(1_500);
            assertEquals(stopped, positionVnode(), "not copied again after the restart");
            assertEquals(List.of(), rows(c, "SHOW JOBS"));
            // RESYNC copies a new snapshot (a new job) to the end
            st.execute("ALTER SINK k SET SINK_RATE_LIMIT = DEFAULT");
            st.execute("ALTER SINK k RESYNC");
            awaitEqual(c, "SELECT id, v FROM t ORDER BY id", "SELECT id, v FROM " + schema + ".k_out ORDER BY id");
            awaitTrue(
                    () -> rows(c, "SELECT id, state FROM tributary_catalog.remote_jobs ORDER BY id")
                            .equals(List.of("sink-" + jobId + "-g0|cancelled|", "sink-" + jobId + "-g1|done|")),
                    "the first job stays cancelled, the second is done");
        }
    }

    @Test
    void twoWorkersRaceForOneJobAndExactlyOneRunsIt() throws Exception {
        prepare();
        ServerProcess server = remote.start(tempDir.resolve("data4"));
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT)");
            st.execute("INSERT INTO t SELECT x, x FROM generate_series(1, " + ROWS + ") AS g(x)");
            remote.worker("r1");
            remote.worker("r2");
            awaitTrue(
                    () -> rows(c, "SELECT name FROM tributary_catalog.workers ORDER BY name")
                            .equals(List.of("r1|", "r2|")),
                    "both workers poll");
            // append-only: a row written twice would show as a duplicate
            st.execute("CREATE SINK a FROM t" + with("a_out", "'false'", "type = 'append-only', "));
            awaitTrue(
                    () -> rows(c, "SELECT state FROM tributary_catalog.remote_jobs")
                            .equals(List.of("done|")),
                    "the job is done");
            awaitEqual(c, "SELECT id, v FROM t ORDER BY id", "SELECT id, v FROM " + schema + ".a_out ORDER BY id");
            assertEquals(
                    List.of("1|t|"),
                    rows(c, "SELECT attempts, worker IN ('r1', 'r2') FROM tributary_catalog.remote_jobs"),
                    "one attempt, by one of the two");
        }
    }

    @Test
    void aLateResultFromAWorkerPresumedDeadIsIgnored() throws Exception {
        prepare();
        ServerProcess server = remote.start(tempDir.resolve("data5"));
        Process w1 = remote.worker("p1");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT)");
            st.execute("INSERT INTO t SELECT x, x FROM generate_series(1, " + ROWS + ") AS g(x)");
            st.execute("SET sink_rate_limit = 2000");
            st.execute("CREATE SINK a FROM t" + with("a_out", "'false'", "type = 'append-only', "));
            awaitTrue(() -> positionVnode() > 5, "p1 copies some chunks");
            // frozen, not dead: its heartbeats stop, so p2 revives the job; then p1 wakes up mid-job
            signal(w1, "STOP");
            remote.worker("p2");
            awaitTrue(
                    () -> rows(c, "SELECT worker, state FROM tributary_catalog.remote_jobs")
                            .equals(List.of("p2|done|")),
                    "p2 took the job over and finished it");
            signal(w1, "CONT");
            // p1's next chunk or its result: fenced out, ignored
            Thread.sleep(3_000);
            awaitEqual(c, "SELECT id, v FROM t ORDER BY id", "SELECT id, v FROM " + schema + ".a_out ORDER BY id");
            List<String> job = rows(c, "SELECT worker, state, attempts >= 2 FROM tributary_catalog.remote_jobs");
            assertEquals(List.of("p2|done|t|"), job);
        }
        assertTrue(w1.isAlive(), "p1 ran on after it woke up");
    }

    /**
     * A database other than {@code dev} places its sink backfills on the same workers, with job ids
     * of its own (its sink has the same catalog id as dev's): both targets equal their relations,
     * also across a {@code kill -9} of the server while the other database's job runs, and each
     * database's {@code remote_jobs} lists its own job.
     */
    @Test
    void anotherDatabasePlacesItsSinkBackfillsOnWorkersUnderIdsOfItsOwn() throws Exception {
        prepare();
        Path dataDir = tempDir.resolve("data7");
        ServerProcess server = remote.start(dataDir);
        remote.worker("m1");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT)");
            st.execute("INSERT INTO t SELECT x, x FROM generate_series(1, 3000) AS g(x)");
            st.execute("CREATE SINK k FROM t" + with("dev_out", "'false'"));
            st.execute("CREATE DATABASE other");
        }
        String otherUrl = server.jdbcUrl().replace("/dev?", "/other?");
        try (Connection c = DriverManager.getConnection(otherUrl);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT)");
            st.execute("INSERT INTO t SELECT x, -x FROM generate_series(1, " + ROWS + ") AS g(x)");
            // slow, so the kill lands in the copy
            st.execute("SET sink_rate_limit = 2000");
            st.execute("CREATE SINK k FROM t" + with("other_out", "'false'"));
            awaitTrue(() -> count("other_out") > 0, "m1 copies some of the other database's chunks");
        }
        server.kill9();
        server = remote.start(dataDir);
        otherUrl = server.jdbcUrl().replace("/dev?", "/other?");
        try (Connection c = DriverManager.getConnection(otherUrl);
                Statement st = c.createStatement()) {
            st.execute("ALTER SINK k SET SINK_RATE_LIMIT = DEFAULT");
            awaitEqual(c, "SELECT id, v FROM t ORDER BY id", "SELECT id, v FROM " + schema + ".other_out ORDER BY id");
            awaitTrue(
                    () -> rows(c, "SELECT id, state FROM tributary_catalog.remote_jobs")
                            .equals(List.of("d1-sink-2-g0|done|")),
                    "the other database's job is done under its own id");
        }
        try (Connection c = DriverManager.getConnection(server.jdbcUrl())) {
            awaitEqual(c, "SELECT id, v FROM t ORDER BY id", "SELECT id, v FROM " + schema + ".dev_out ORDER BY id");
            assertEquals(
                    List.of("sink-2-g0|k|m1|done|"),
                    rows(c, "SELECT id, owner, worker, state FROM tributary_catalog.remote_jobs"));
        }
    }

    /**
     * A job a server of the previous job format queued (its row and its db-scheduler task of format
     * 1) is queued again in this format when the server re-attaches, and a worker of this format
     * copies it: the target equals the relation and no task of the old format is left.
     */
    @Test
    void aJobOfTheOldFormatIsQueuedAgainInTheNewOne() throws Exception {
        prepare();
        Path dataDir = tempDir.resolve("data8");
        ServerProcess server = remote.start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT)");
            st.execute("INSERT INTO t SELECT x, x * 5 FROM generate_series(1, 3000) AS g(x)");
            st.execute("CREATE SINK k FROM t" + with("old_out", "'false'"));
        }
        server.kill9();
        try (Connection jobs = DriverManager.getConnection(jobsUrl);
                Statement st = jobs.createStatement()) {
            // what a format-1 server left: the row and the task under format 1's name
            st.execute("UPDATE tributary_remote_jobs SET format_version = 1");
            st.execute("UPDATE scheduled_tasks SET task_name = 'tributary-job-v1'");
        }
        server = remote.start(dataDir);
        remote.worker("u1");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl())) {
            awaitEqual(c, "SELECT id, v FROM t ORDER BY id", "SELECT id, v FROM " + schema + ".old_out ORDER BY id");
            awaitTrue(
                    () -> rows(c, "SELECT state FROM tributary_catalog.remote_jobs")
                            .equals(List.of("done|")),
                    "the job is done");
        }
        try (Connection jobs = DriverManager.getConnection(jobsUrl)) {
            assertEquals(List.of("2|"), rows(jobs, "SELECT format_version FROM tributary_remote_jobs"), "queued again");
            assertEquals(
                    List.of("0|"),
                    rows(jobs, "SELECT count(*) FROM scheduled_tasks WHERE task_name = 'tributary-job-v1'"));
        }
    }

    /**
     * Views do not place their backfill on workers yet: one asking for a worker is backfilled in
     * the server with a NOTICE saying why (and equals PostgreSQL's answer), and without fallback it
     * is refused with 0A000 before anything is created.
     */
    /** The upstream of the view tests, in Tributary and (as {@code <schema>.t}, {@code <schema>.d}) in PostgreSQL. */
    private void viewUpstream(Connection c, int rows) throws Exception {
        String insertT = "INSERT INTO %s SELECT x, x %% 7, x * 3 FROM generate_series(1, " + rows + ") AS g(x)";
        String insertD = "INSERT INTO %s SELECT x, 'g' || x FROM generate_series(0, 5) AS g(x)";
        UpstreamPostgres.execute(
                "CREATE TABLE " + schema + ".t (id BIGINT PRIMARY KEY, g BIGINT, v BIGINT)",
                insertT.formatted(schema + ".t"),
                "CREATE TABLE " + schema + ".d (g BIGINT PRIMARY KEY, name VARCHAR)",
                insertD.formatted(schema + ".d"));
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, g BIGINT, v BIGINT)");
            st.execute(insertT.formatted("t"));
            st.execute("CREATE TABLE d (g BIGINT PRIMARY KEY, name VARCHAR)");
            st.execute(insertD.formatted("d"));
        }
    }

    /** The same DML in Tributary and in PostgreSQL. */
    private void both(Connection c, String... statements) throws Exception {
        try (Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql.replace("%t", "t").replace("%d", "d"));
            }
        }
        String[] theirs = new String[statements.length];
        for (int i = 0; i < statements.length; i++) {
            theirs[i] = statements[i].replace("%t", schema + ".t").replace("%d", schema + ".d");
        }
        UpstreamPostgres.execute(theirs);
    }

    private static final String AGG =
            "SELECT g, count(*) AS n, sum(v) AS s, min(v) AS lo, max(v) AS hi FROM %t GROUP BY g";

    private void awaitViews(Connection c) throws Exception {
        for (String view : List.of("f", "agg", "j")) {
            awaitTrue(() -> readable(c, view), "view " + view + " is created");
        }
        awaitEqual(c, "SELECT id, v FROM f ORDER BY id", "SELECT id, v FROM " + schema + ".t WHERE g = 1 ORDER BY id");
        awaitEqual(c, "SELECT * FROM agg ORDER BY g", AGG.replace("%t", schema + ".t") + " ORDER BY g");
        awaitEqual(
                c,
                "SELECT id, name, v FROM j ORDER BY id",
                "SELECT t.id, d.name, t.v FROM " + schema + ".t t JOIN " + schema + ".d d ON t.g = d.g ORDER BY t.id");
    }

    private static boolean readable(Connection c, String view) throws SQLException {
        try {
            rows(c, "SELECT count(*) FROM " + view);
            return true;
        } catch (SQLException e) {
            if ("55000".equals(e.getSQLState())) {
                return false;
            }
            throw e;
        }
    }

    @Test
    void aWorkerComputesTheSnapshotPhaseOfFilterAggregateAndJoinViews() throws Exception {
        prepare();
        ServerProcess server = remote.start(tempDir.resolve("data7"));
        remote.worker("w1");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            viewUpstream(c, 5_000);
            awaitTrue(
                    () -> !rows(c, "SELECT name FROM tributary_catalog.workers").isEmpty(), "w1 registers");
            st.execute("SET remote_backfill = true");
            st.execute("SET fallback_to_local = false");
            st.execute("SET background_ddl = true");
            st.execute("CREATE MATERIALIZED VIEW f AS SELECT id, v FROM t WHERE g = 1");
            st.execute("CREATE MATERIALIZED VIEW agg AS " + AGG.replace("%t", "t"));
            st.execute("CREATE MATERIALIZED VIEW j AS SELECT t.id, d.name, t.v FROM t JOIN d ON t.g = d.g");
            // changes after the snapshot: the server reads them from the change logs once it took the state over
            both(
                    c,
                    "UPDATE %t SET v = v + 1 WHERE id % 5 = 0",
                    "DELETE FROM %t WHERE id % 13 = 0",
                    "INSERT INTO %t SELECT x, x % 7, x FROM generate_series(5001, 5400) AS g(x)",
                    "UPDATE %d SET name = 'renamed' WHERE g = 3");
            awaitViews(c);
            assertEquals(
                    List.of("agg|w1|done|1|", "f|w1|done|1|", "j|w1|done|1|"),
                    rows(
                            c,
                            "SELECT owner, worker, state, attempts FROM tributary_catalog.remote_jobs"
                                    + " WHERE kind = 'view-snapshot' ORDER BY owner"));
            both(c, "DELETE FROM %t WHERE g = 2", "INSERT INTO %d VALUES (6, 'g6')");
            awaitViews(c);
        }
    }

    @Test
    void aKilledWorkersJobIsTakenOverOnceAndTheViewSurvivesAKilledServer() throws Exception {
        prepare();
        Path dataDir = tempDir.resolve("data8");
        ServerProcess server = remote.start(dataDir);
        Process w1 = remote.worker("w1");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            viewUpstream(c, 30_000);
            awaitTrue(
                    () -> !rows(c, "SELECT name FROM tributary_catalog.workers").isEmpty(), "w1 registers");
            st.execute("SET remote_backfill = true");
            st.execute("SET fallback_to_local = false");
            st.execute("SET background_ddl = true");
            st.execute("CREATE MATERIALIZED VIEW f AS SELECT id, v FROM t WHERE g = 1");
            st.execute("CREATE MATERIALIZED VIEW agg AS " + AGG.replace("%t", "t"));
            st.execute("CREATE MATERIALIZED VIEW j AS SELECT t.id, d.name, t.v FROM t JOIN d ON t.g = d.g");
            awaitTrue(
                    () -> !rows(c, "SELECT id FROM tributary_catalog.remote_jobs WHERE state = 'running'")
                            .isEmpty(),
                    "w1 runs a view job");
        }
        kill(w1);
        remote.worker("w2");
        try (Connection c = DriverManager.getConnection(server.jdbcUrl())) {
            both(c, "UPDATE %t SET v = -v WHERE id % 7 = 0", "DELETE FROM %t WHERE id % 11 = 0");
            awaitTrue(
                    () -> rows(c, "SELECT state FROM tributary_catalog.remote_jobs WHERE kind = 'view-snapshot'")
                            .equals(List.of("done|", "done|", "done|")),
                    "every view job done");
            assertTrue(
                    !rows(c, "SELECT id FROM tributary_catalog.remote_jobs WHERE attempts >= 2 AND worker = 'w2'")
                            .isEmpty(),
                    "w2 took over the job w1 was killed in");
            awaitViews(c);
        }
        // after the takeover: the views go on from their change logs after a kill -9
        server.kill9();
        server = remote.start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl())) {
            both(c, "UPDATE %t SET v = v * 2 WHERE id % 3 = 0", "INSERT INTO %d VALUES (6, 'g6')");
            awaitViews(c);
        }
    }

    @Test
    void withoutWorkersAViewFallsBackToTheServerOrWaitsForOne() throws Exception {
        prepare();
        ServerProcess server = remote.start(tempDir.resolve("data6"));
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            viewUpstream(c, 3_000);
            st.execute("SET remote_backfill = true");
            st.execute("SET background_ddl = true");
            st.execute("CREATE MATERIALIZED VIEW agg AS " + AGG.replace("%t", "t"));
            awaitTrue(() -> readable(c, "agg"), "agg is backfilled in the server");
            awaitEqual(c, "SELECT * FROM agg ORDER BY g", AGG.replace("%t", schema + ".t") + " ORDER BY g");
            assertEquals(
                    List.of("agg|local|"),
                    rows(c, "SELECT owner, state FROM tributary_catalog.remote_jobs WHERE kind = 'view-snapshot'"));
            st.execute("SET fallback_to_local = false");
            st.execute("CREATE MATERIALIZED VIEW f AS SELECT id, v FROM t WHERE g = 1");
            st.execute("CREATE MATERIALIZED VIEW j AS SELECT t.id, d.name, t.v FROM t JOIN d ON t.g = d.g");
            Thread.sleep(3_000);
            SQLException waiting = org.junit.jupiter.api.Assertions.assertThrows(
                    SQLException.class, () -> rows(c, "SELECT count(*) FROM f"));
            assertEquals("55000", waiting.getSQLState());
            both(c, "UPDATE %t SET v = v + 1 WHERE id % 5 = 0");
            remote.worker("w3");
            awaitViews(c);
        }
    }

    private long count(String table) throws Exception {
        return Long.parseLong(UpstreamPostgres.queryOne("SELECT count(*) FROM " + schema + "." + table));
    }

    private String with(String table, String fallback, String extra) throws IOException {
        return with(table, fallback).replace("backfill.remote", extra + "backfill.remote");
    }

    private String with(String table, String fallback) throws IOException {
        return " WITH (connector = 'jdbc', jdbc.url = 'jdbc:postgresql://localhost:"
                + UpstreamPostgres.server().getPort() + "/postgres', user = 'postgres', schema.name = '" + schema
                + "', table.name = '" + table + "', create_table_if_not_exists = 'true', backfill.remote = 'true',"
                + " backfill.fallback_to_local = " + fallback + ")";
    }

    private static String backfillPhase(Statement st) throws SQLException {
        return phaseOf(st, "k");
    }

    private static String phaseOf(Statement st, String sink) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT phase FROM tributary_catalog.sink_progress WHERE sink_name = '"
                + sink + "' AND part = 'backfill'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private int positionVnode() {
        String v = target("SELECT max(vnode) FROM " + schema + ".tributary_backfill_position");
        return v == null ? 0 : Integer.parseInt(v);
    }

    private String target(String sql) {
        try {
            return UpstreamPostgres.queryOne(sql);
        } catch (SQLException | IOException e) {
            return null;
        }
    }

    private void awaitEqual(Connection tributary, String ours, String theirs) throws Exception {
        long deadline = System.currentTimeMillis() + 90_000;
        List<String> expected = List.of();
        List<String> actual = List.of("-");
        while (System.currentTimeMillis() < deadline) {
            expected = rows(tributary, ours);
            try (Connection pg = UpstreamPostgres.connect()) {
                actual = rows(pg, theirs);
            }
            if (expected.equals(actual)) {
                return;
            }
            Thread.sleep(200);
        }
        System.out.println("sink_progress: " + rows(tributary, "SELECT * FROM tributary_catalog.sink_progress"));
        assertEquals(expected.size(), actual.size(), "row count");
        assertEquals(expected, actual);
    }
}
