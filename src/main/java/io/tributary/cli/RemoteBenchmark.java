package io.tributary.cli;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench remote}: a sink backfill, then views' backfills ({@link RemoteViewRounds}),
 * run in the server versus on workers. The server
 * runs pinned to one core and the worker to another ({@code taskset}, when present; 0 and 1 unless
 * {@code --server-core} and {@code --worker-core} say otherwise), both started
 * with the JVM options {@code bin/tributary} gives them; an embedded PostgreSQL is the jobs database
 * and the sinks' target. Single-row INSERT latency into another table is measured idle, during a
 * local backfill and during a remote one, with each backfill's rows/s, in several rounds whose
 * medians are printed. The view rounds run on one worker, then on two (a second worker started on
 * the workers' core too), beside PostgreSQL's {@code CREATE MATERIALIZED VIEW} of the same views, with the
 * server's CPU seconds per backfill. {@code --postgres-core} pins the embedded PostgreSQL too, so
 * that the target's work (which another machine would do) stays off the server's core.
 */
@Command(
        name = "remote",
        mixinStandardHelpOptions = true,
        description =
                "INSERT p50/p99 idle, during a local and during a remote sink and view backfill;" + " backfill rows/s.")
final class RemoteBenchmark implements Callable<Integer> {

    @Option(
            names = "--rows",
            defaultValue = "300000",
            description = "Rows each backfill copies (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(
            names = "--idle-ms",
            defaultValue = "5000",
            description = "How long INSERTs are timed with no backfill, each round (default: ${DEFAULT-VALUE}).")
    long idleMs;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "Rounds of idle, local and remote backfill in one server; medians are printed"
                    + " (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--part",
            defaultValue = "all",
            description = "What to measure: sinks, views or all (default: ${DEFAULT-VALUE}).")
    String part;

    @Option(
            names = "--postgres-core",
            description =
                    "Pin the embedded PostgreSQL (jobs database and sink target) to this core with taskset,"
                            + " e.g. the workers' core, to keep it off the server's as another machine would (default: not pinned).")
    String postgresCore;

    @Option(
            names = "--postgres-dir",
            description = "Keep the embedded PostgreSQL's cluster (jobs database and sink target) in a new directory"
                    + " under this one, e.g. /dev/shm: on one disk its bulk writes and syncs share the file"
                    + " system's journal with the server's synced commits, which another machine's would not"
                    + " (default: the temporary directory, beside the server's state).")
    Path postgresDir;

    @Option(
            names = "--worker-dir",
            description = "Give the workers a new temporary directory under this one, e.g. /dev/shm, for their"
                    + " scratch databases: on one disk a worker's writes share the file system's journal with"
                    + " the server's synced commits, which a worker on another machine's would not (default:"
                    + " the temporary directory, beside the server's state).")
    Path workerDir;

    @Option(
            names = "--latency-log",
            description = "Write every timed INSERT to this file: phase (sink rounds idle1, local1, remote1,"
                    + " ...; view rounds vi1w1, vl1w1, vr1w1, ...), start in Unix ms, latency in ms (default: none).")
    Path latencyLog;

    @Option(
            names = "--client-core",
            defaultValue = "none",
            description = "Pin this process, which sends and times the INSERTs, to this core with taskset, e.g."
                    + " 0, the server's, to keep it off the workers' core, which stands for another machine"
                    + " (default: ${DEFAULT-VALUE}, not pinned).")
    String clientCore;

    @Option(
            names = "--server-core",
            defaultValue = "0",
            description = "The core the server is pinned to with taskset (default: ${DEFAULT-VALUE}). The core"
                    + " that takes the disk's interrupts (the block device's line in /proc/interrupts) is the one"
                    + " a server on its own machine would have: there no worker's or jobs database's kernel work"
                    + " can delay its commits' completions.")
    String serverCore;

    @Option(
            names = "--worker-core",
            defaultValue = "1",
            description = "The core the workers are pinned to with taskset (default: ${DEFAULT-VALUE}).")
    String workerCore;

    @Option(
            names = "--worker-policy",
            defaultValue = "normal",
            description = "The workers' scheduling policy: normal, or idle (SCHED_IDLE, with chrt) so that on a"
                    + " machine too small to give them cores of their own they run only in what the INSERT"
                    + " client, the disk's interrupts and the jobs database leave of their core, as workers on"
                    + " other machines would (default: ${DEFAULT-VALUE}).")
    String workerPolicy;

    @Option(
            names = "--backfill-rate-limit",
            defaultValue = "-1",
            description =
                    "The views' backfill_rate_limit (rows/s per parallel unit of a backfill), in the local and the remote phases alike, to"
                            + " see what a throttled build costs the INSERTs beside it; -1 for none (default: ${DEFAULT-VALUE}).")
    long backfillRateLimit;

    /** Where the sink rounds' INSERTs are logged; null without {@code --latency-log}. */
    private InsertLatencyLog latencies;

    /** The server's process, whose CPU seconds each sink phase reports; set once it is started. */
    private ProcessHandle server;

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || rows < 1) {
            System.err.println("--rounds and --rows must be positive");
            return 2;
        }
        if (!List.of("normal", "idle").contains(workerPolicy)) {
            System.err.println("--worker-policy is normal or idle");
            return 2;
        }
        if (!List.of("all", "sinks", "views").contains(part)) {
            System.err.println("--part is sinks, views or all");
            return 2;
        }
        try (BenchDirectory dir = BenchDirectory.of(null);
                BenchDirectory pgDir = BenchDirectory.temporaryUnder(
                        postgresDir != null ? postgresDir : Path.of(System.getProperty("java.io.tmpdir")));
                BenchDirectory workerTmp = BenchDirectory.temporaryUnder(
                        workerDir != null ? workerDir : Path.of(System.getProperty("java.io.tmpdir")));
                BenchTarget pg = BenchTarget.postgres(pgDir.resolve("postgresql"), System.err)) {
            List<String> workerJvm = List.of("-Djava.io.tmpdir=" + workerTmp.resolve("."));
            // after PostgreSQL started, which must not inherit the bench's core
            if (!clientCore.equals("none")) {
                if (!BenchChildProcesses.pin(ProcessHandle.current(), clientCore)) {
                    System.err.println("taskset could not pin the bench to core " + clientCore);
                    return 2;
                }
                System.err.println("bench (INSERT client): pinned to core " + clientCore);
            }

            try (Connection c = pg.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE jobs");
                if (postgresCore != null) {
                    BenchChildProcesses.pinPostgres(st, postgresCore);
                }
            }
            String jobsUrl = pg.jdbcUrl().replace("/postgres?", "/jobs?");
            int port = BenchChildProcesses.freePort();
            List<Process> children = new java.util.concurrent.CopyOnWriteArrayList<>();
            // an interrupted bench (Ctrl-C, a timeout's SIGTERM) skips the finally below: its server and
            // workers would go on running, holding their ports and directories
            Thread reaper = new Thread(() -> children.forEach(Process::destroyForcibly), "bench-children-reaper");
            Runtime.getRuntime().addShutdownHook(reaper);
            try {
                children.add(BenchChildProcesses.child(
                        serverCore,
                        "normal",
                        dir.resolve("server.log"),
                        List.of(),
                        "server",
                        "--port",
                        Integer.toString(port),
                        "--http-port",
                        "0",
                        "--data-dir",
                        dir.resolve("tributary").toString(),
                        "--jobs-url",
                        jobsUrl));
                server = children.get(0).toHandle();
                String url = "jdbc:postgresql://127.0.0.1:" + port + "/dev?user=root";
                Connection t = BenchChildProcesses.awaitServer(url);
                // one slot each: the two views run one after the other on one worker, side by side on two
                children.add(BenchChildProcesses.child(
                        workerCore,
                        workerPolicy,
                        dir.resolve("worker.log"),
                        workerJvm,
                        "worker",
                        "--jobs-url",
                        jobsUrl,
                        "--name",
                        "bench",
                        "--slots",
                        "1"));
                try (t;
                        Statement ts = t.createStatement();
                        PreparedStatement insert = t.prepareStatement("INSERT INTO ins VALUES (?, 1)");
                        Connection p = pg.connect();
                        Statement ps = p.createStatement()) {
                    ts.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT, s VARCHAR)");
                    ts.execute("INSERT INTO t SELECT x, x, 'row ' || x FROM generate_series(1, " + rows + ") AS g(x)");
                    ts.execute("CREATE TABLE ins (id BIGINT PRIMARY KEY, v BIGINT)");
                    long[] nextId = {1};
                    // warm-up: the first seconds of a fresh JVM measure the JIT, not the backfill
                    inserts(insert, nextId, () -> false, idleMs);
                    latencies = latencyLog == null ? null : InsertLatencyLog.open(latencyLog);
                    if (!part.equals("views")) {
                        List<RemoteSinkReport.SinkRound> done = new ArrayList<>();
                        for (int r = 1; r <= rounds; r++) {
                            done.add(round(r, insert, nextId, ts, ps, pg));
                        }
                        RemoteSinkReport.print(System.out, rows, serverCore, workerCore, done);
                    }
                    if (!part.equals("sinks")) {
                        RemoteViewRounds views = new RemoteViewRounds(
                                rows,
                                idleMs,
                                insert,
                                nextId,
                                ts,
                                children.get(0).toHandle(),
                                () -> children.stream()
                                        .skip(1)
                                        .mapToDouble(w -> w.toHandle()
                                                .info()
                                                .totalCpuDuration()
                                                .map(d -> d.toNanos() / 1e9)
                                                .orElse(0.0))
                                        .sum(),
                                latencies,
                                backfillRateLimit);
                        views.load(ps);
                        PooledLatencies pooled = new PooledLatencies();
                        List<RemoteViewReport.ViewRound> one = new ArrayList<>();
                        for (int r = 1; r <= rounds; r++) {
                            one.add(viewRound("1w" + r, views, true, ps, pooled));
                        }
                        children.add(BenchChildProcesses.child(
                                workerCore,
                                workerPolicy,
                                dir.resolve("worker2.log"),
                                workerJvm,
                                "worker",
                                "--jobs-url",
                                jobsUrl,
                                "--name",
                                "bench2",
                                "--slots",
                                "1"));
                        awaitWorkers(ts, 2);
                        List<RemoteViewReport.ViewRound> two = new ArrayList<>();
                        for (int r = 1; r <= rounds; r++) {
                            two.add(viewRound("2w" + r, views, false, ps, pooled));
                        }
                        if (backfillRateLimit >= 0) {
                            System.out.println("bench remote views: every backfill limited to " + backfillRateLimit
                                    + " rows/s (--backfill-rate-limit)");
                        }
                        RemoteViewReport.print(System.out, rows, serverCore, workerCore, one, two, pooled);
                    }
                } finally {
                    if (latencies != null) {
                        latencies.close();
                    }
                }
            } finally {
                for (Process child : children) {
                    child.destroy();
                    child.waitFor(30, TimeUnit.SECONDS);
                }
                Runtime.getRuntime().removeShutdownHook(reaper);
            }
            return 0;
        }
    }

    private RemoteSinkReport.SinkRound round(
            int r, PreparedStatement insert, long[] nextId, Statement ts, Statement ps, BenchTarget pg)
            throws SQLException {
        double cpu0 = serverCpuSeconds();
        double[] idle = inserts(
                insert,
                nextId,
                () -> {
                    complete(ps, "idle_sink" + r);
                    return false;
                },
                idleMs,
                latencies,
                "idle" + r);
        double cpu1 = serverCpuSeconds();
        long start = System.nanoTime();
        ts.execute(sink(pg, "local_sink" + r, "local_out" + r, false));
        double[] local = inserts(insert, nextId, () -> complete(ps, "local_sink" + r), 600_000, latencies, "local" + r);
        double localSeconds = (System.nanoTime() - start) / 1e9;
        double cpu2 = serverCpuSeconds();
        start = System.nanoTime();
        ts.execute(sink(pg, "remote_sink" + r, "remote_out" + r, true));
        double[] remote =
                inserts(insert, nextId, () -> complete(ps, "remote_sink" + r), 600_000, latencies, "remote" + r);
        double remoteSeconds = (System.nanoTime() - start) / 1e9;
        double cpu3 = serverCpuSeconds();
        double idleCpuPerInsert = (cpu1 - cpu0) / idle.length;
        RemoteSinkReport.SinkRound round = new RemoteSinkReport.SinkRound(
                LatencySummary.of(idle),
                LatencySummary.of(local),
                LatencySummary.of(remote),
                rows / localSeconds,
                rows / remoteSeconds,
                cpu2 - cpu1 - idleCpuPerInsert * local.length,
                cpu3 - cpu2 - idleCpuPerInsert * remote.length);
        System.err.printf(
                "round %d: INSERT p99 idle %.2f ms (%d), local backfill %.2f ms (%d), remote backfill %.2f ms (%d);"
                        + " p99 remote/idle %.2f; rows/s local %,.0f, remote %,.0f;"
                        + " server CPU s idle %.2f, local %.2f, remote %.2f;"
                        + " beyond the INSERTs at idle's %.3f CPU ms each: local %.2f, remote %.2f%n",
                r,
                round.idle().p99Ms(),
                round.idle().samples(),
                round.local().p99Ms(),
                round.local().samples(),
                round.remote().p99Ms(),
                round.remote().samples(),
                round.remote().p99Ms() / round.idle().p99Ms(),
                round.localRowsPerSecond(),
                round.remoteRowsPerSecond(),
                cpu1 - cpu0,
                cpu2 - cpu1,
                cpu3 - cpu2,
                idleCpuPerInsert * 1e3,
                round.localExtraCpuSeconds(),
                round.remoteExtraCpuSeconds());
        return round;
    }

    /** The server process's CPU seconds so far (user and system, every thread); 0 where not known. */
    private double serverCpuSeconds() {
        return server.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(0.0);
    }

    /**
     * Also adds the round's latencies to {@code pooled}: idle and local rounds under {@code idle} and
     * {@code local}, remote ones under {@code remote1} or {@code remote2} by the tag's worker count.
     */
    private static RemoteViewReport.ViewRound viewRound(
            String tag, RemoteViewRounds views, boolean withLocal, Statement ps, PooledLatencies pooled)
            throws SQLException {
        double[] idleMs = views.idle("vi" + tag);
        pooled.add("idle", idleMs);
        LatencySummary idle = LatencySummary.of(idleMs);
        RemoteViewRounds.Phase local = withLocal ? views.backfill("l" + tag, false) : null;
        if (local != null) {
            pooled.add("local", local.latenciesMs());
        }
        RemoteViewRounds.Phase remote = views.backfill("r" + tag, true);
        pooled.add("remote" + tag.charAt(0), remote.latenciesMs());
        double pgSeconds = views.postgresSeconds(ps);
        System.err.printf(
                "view round %s: INSERT p50 idle %.2f ms, local %s ms, remote %.2f ms; INSERT p99 idle %.2f ms,"
                        + " local %s ms, remote %.2f ms; p99 remote/idle %.2f; rows/s local %s, remote %,.0f;"
                        + " server CPU s local %s, remote %.1f; worker CPU s %.1f; PostgreSQL CMV %.1f s%n",
                tag,
                idle.p50Ms(),
                local == null ? "-" : String.format("%.2f", local.inserts().p50Ms()),
                remote.inserts().p50Ms(),
                idle.p99Ms(),
                local == null ? "-" : String.format("%.2f", local.inserts().p99Ms()),
                remote.inserts().p99Ms(),
                remote.inserts().p99Ms() / idle.p99Ms(),
                local == null ? "-" : String.format("%,.0f", local.rowsPerSecond()),
                remote.rowsPerSecond(),
                local == null ? "-" : String.format("%.1f", local.serverCpuSeconds()),
                remote.serverCpuSeconds(),
                remote.workerCpuSeconds(),
                pgSeconds);
        return new RemoteViewReport.ViewRound(idle, local, remote, pgSeconds);
    }

    private static void awaitWorkers(Statement ts, int count) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < end) {
            try (ResultSet rs = ts.executeQuery("SELECT count(*) FROM tributary_catalog.workers"
                    + " WHERE last_heartbeat > now() - INTERVAL '20 seconds'")) {
                rs.next();
                if (rs.getLong(1) >= count) {
                    return;
                }
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the second worker did not register within 120 s");
    }

    /** Whether what the INSERTs wait for has happened. */
    interface Done {
        boolean yet() throws SQLException;
    }

    /**
     * How often {@link #inserts} asks whether it is done. The question is a query of its own on the
     * server (a plan, an allocation burst): asked every 20 INSERTs (about 100 a second) it was itself
     * a load the idle phase did not carry, so phases that wait for a backfill measured it too.
     */
    static final long DONE_CHECK_MS = 100;

    /**
     * Single-row INSERTs back to back until {@code done} (checked every {@link #DONE_CHECK_MS}) or the
     * time is up; latencies in ms. An idle phase passes a {@code done} that asks the same question and
     * answers false, so every phase carries the same probes.
     */
    static double[] inserts(PreparedStatement insert, long[] nextId, Done done, long maxMs) throws SQLException {
        return inserts(insert, nextId, done, maxMs, null, null);
    }

    /** Like {@link #inserts(PreparedStatement, long[], Done, long)}, each INSERT also written to {@code log} when not null. */
    static double[] inserts(
            PreparedStatement insert, long[] nextId, Done done, long maxMs, InsertLatencyLog log, String phase)
            throws SQLException {
        double[] out = new double[4096];
        int count = 0;
        long end = System.nanoTime() + maxMs * 1_000_000;
        long nextCheck = System.nanoTime() + DONE_CHECK_MS * 1_000_000;
        while (System.nanoTime() < end) {
            if (System.nanoTime() >= nextCheck) {
                if (done.yet()) {
                    break;
                }
                nextCheck = System.nanoTime() + DONE_CHECK_MS * 1_000_000;
            }
            insert.setLong(1, nextId[0]++);
            long startMillis = System.currentTimeMillis();
            long began = System.nanoTime();
            insert.executeUpdate();
            if (count == out.length) {
                out = java.util.Arrays.copyOf(out, count * 2);
            }
            out[count] = (System.nanoTime() - began) / 1e6;
            if (log != null) {
                log.add(phase, startMillis, out[count]);
            }
            count++;
        }
        return java.util.Arrays.copyOf(out, count);
    }

    private static boolean complete(Statement ps, String sink) throws SQLException {
        try (ResultSet rs = ps.executeQuery("SELECT count(*) FROM backfill_processor_status WHERE backfill_alias = '"
                + sink + "_backfill' AND backfill_status = 'complete'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    private static String sink(BenchTarget pg, String name, String table, boolean remote) {
        return "CREATE SINK " + name + " FROM t WITH (connector = 'jdbc', jdbc.url = '" + pg.jdbcUrl()
                + "', table.name = '" + table + "', create_table_if_not_exists = 'true', backfill.remote = '" + remote
                + "', backfill.fallback_to_local = 'false')";
    }
}
