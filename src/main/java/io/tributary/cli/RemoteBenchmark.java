package io.tributary.cli;

import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
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
 * {@code tributary bench remote}: a sink backfill run in the server versus on a worker. The server
 * runs pinned to core 0 and the worker to core 1 ({@code taskset}, when present); an embedded
 * PostgreSQL is the jobs database and the sinks' target. Single-row INSERT latency into another
 * table is measured idle, during a local backfill and during a remote one, with each backfill's
 * rows/s.
 */
@Command(
        name = "remote",
        mixinStandardHelpOptions = true,
        description = "INSERT p50/p99 idle, during a local and during a remote sink backfill; backfill rows/s.")
final class RemoteBenchmark implements Callable<Integer> {
    private static final int METRIC_WIDTH = 40;

    @Option(
            names = "--rows",
            defaultValue = "300000",
            description = "Rows each backfill copies (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(
            names = "--idle-ms",
            defaultValue = "3000",
            description = "How long INSERTs are timed with no backfill (default: ${DEFAULT-VALUE}).")
    long idleMs;

    @Override
    public Integer call() throws Exception {
        try (BenchDirectory dir = BenchDirectory.of(null);
                BenchTarget pg = BenchTarget.postgres(dir.resolve("postgresql"), System.err)) {
            try (Connection c = pg.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE jobs");
            }
            String jobsUrl = pg.jdbcUrl().replace("/postgres?", "/jobs?");
            int port = freePort();
            List<Process> children = new ArrayList<>();
            try {
                children.add(child(
                        "0",
                        dir.resolve("server.log"),
                        "server",
                        "--port",
                        Integer.toString(port),
                        "--http-port",
                        "0",
                        "--data-dir",
                        dir.resolve("tributary").toString(),
                        "--jobs-url",
                        jobsUrl));
                String url = "jdbc:postgresql://127.0.0.1:" + port + "/dev?user=root";
                Connection t = awaitServer(url);
                children.add(child("1", dir.resolve("worker.log"), "worker", "--jobs-url", jobsUrl, "--name", "bench"));
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
                    double[] idle = inserts(insert, nextId, () -> false, idleMs);
                    long start = System.nanoTime();
                    ts.execute(sink(pg, "local_sink", "local_out", false));
                    double[] local = inserts(insert, nextId, () -> complete(ps, "local_sink"), 600_000);
                    double localRate = rows / ((System.nanoTime() - start) / 1e9);
                    start = System.nanoTime();
                    ts.execute(sink(pg, "remote_sink", "remote_out", true));
                    double[] remote = inserts(insert, nextId, () -> complete(ps, "remote_sink"), 600_000);
                    double remoteRate = rows / ((System.nanoTime() - start) / 1e9);
                    System.out.printf(
                            "bench remote: %,d rows per backfill; server on core 0, worker on core 1; %d/%d/%d INSERTs%n",
                            rows, idle.length, local.length, remote.length);
                    BenchTable table = new BenchTable(System.out, METRIC_WIDTH);
                    table.row("INSERT p50 idle (ms)", Percentiles.of(idle, 50), Double.NaN, "%12.2f");
                    table.row("INSERT p99 idle (ms)", Percentiles.of(idle, 99), Double.NaN, "%12.2f");
                    table.row("INSERT p50 local backfill (ms)", Percentiles.of(local, 50), Double.NaN, "%12.2f");
                    table.row(
                            "INSERT p99 local backfill vs idle",
                            Percentiles.of(local, 99),
                            Percentiles.of(idle, 99),
                            "%12.2f");
                    table.row("INSERT p50 remote backfill (ms)", Percentiles.of(remote, 50), Double.NaN, "%12.2f");
                    table.row(
                            "INSERT p99 remote backfill vs idle",
                            Percentiles.of(remote, 99),
                            Percentiles.of(idle, 99),
                            "%12.2f");
                    table.row("backfill rows/s remote vs local", remoteRate, localRate, "%,12.0f");
                }
            } finally {
                for (Process child : children) {
                    child.destroy();
                    child.waitFor(30, TimeUnit.SECONDS);
                }
            }
            return 0;
        }
    }

    private interface Done {
        boolean yet() throws SQLException;
    }

    /** Single-row INSERTs back to back until {@code done} (checked every 20) or the time is up; latencies in ms. */
    private static double[] inserts(PreparedStatement insert, long[] nextId, Done done, long maxMs)
            throws SQLException {
        List<Double> out = new ArrayList<>();
        long end = System.nanoTime() + maxMs * 1_000_000;
        while (System.nanoTime() < end && (out.size() % 20 != 0 || !done.yet())) {
            insert.setLong(1, nextId[0]++);
            long began = System.nanoTime();
            insert.executeUpdate();
            out.add((System.nanoTime() - began) / 1e6);
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
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

    /** This JVM's main class in a child process pinned to {@code core} when taskset exists. */
    private static Process child(String core, Path log, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        if (new File("/usr/bin/taskset").canExecute()) {
            command.addAll(List.of("/usr/bin/taskset", "-c", core));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static Connection awaitServer(String url) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            try {
                return DriverManager.getConnection(url);
            } catch (SQLException e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
