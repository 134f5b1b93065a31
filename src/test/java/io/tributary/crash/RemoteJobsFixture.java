package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.connector.postgres.UpstreamPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the remote-job crash tests share: a jobs database and a target schema of their own in the
 * embedded PostgreSQL, Tributary servers and {@code tributary worker} child processes started
 * against it (each worker's output in {@code <name>.log} of the test's directory), and the waits
 * and reads the tests make. {@link #close} prints every process's output and kills what is left.
 * One per test; not thread-safe.
 */
final class RemoteJobsFixture implements AutoCloseable {
    private final Path dir;
    private final StartedServers started;
    private final List<ServerProcess> servers = new ArrayList<>();
    private final List<Process> workers = new ArrayList<>();
    private final String schema;
    private final String jobsUrl;

    /**
     * Creates schema {@code <prefix>_<tag>} and database {@code jobs_<tag>}; workers' logs go to
     * {@code dir}, servers are started through {@code started} (the test's extension).
     */
    RemoteJobsFixture(Path dir, String prefix, StartedServers started) throws Exception {
        this.dir = dir;
        this.started = started;
        String tag = Long.toHexString(System.nanoTime());
        schema = prefix + "_" + tag;
        UpstreamPostgres.execute("CREATE SCHEMA " + schema, "CREATE DATABASE jobs_" + tag);
        jobsUrl = "jdbc:postgresql://localhost:" + UpstreamPostgres.server().getPort() + "/jobs_" + tag
                + "?user=postgres";
    }

    String schema() {
        return schema;
    }

    String jobsUrl() {
        return jobsUrl;
    }

    /** A server on {@code dataDir} with the jobs database, falling back after 2 s without workers. */
    ServerProcess start(Path dataDir) throws Exception {
        ServerProcess s =
                started.start(dataDir, 20, List.of(), List.of("--jobs-url", jobsUrl, "--jobs-fallback-ms", "2000"));
        servers.add(s);
        return s;
    }

    /** A worker with one slot, named {@code name}, its JVM given {@code jvmOptions}. */
    Process worker(String name, String... jvmOptions) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                "io.tributary.cli.Main",
                "worker",
                "--jobs-url",
                jobsUrl,
                "--name",
                name,
                "--slots",
                "1"));
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile())
                .start();
        workers.add(p);
        return p;
    }

    /** Worker {@code name}'s output so far. */
    String workerLog(String name) throws Exception {
        return Files.readString(dir.resolve(name + ".log"));
    }

    static void signal(Process p, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).start();
        assertEquals(0, kill.waitFor(), "kill -" + signal);
    }

    /** SIGKILLs {@code p} and waits until it is gone. */
    static void kill(Process p) throws Exception {
        p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * The jobs worker {@code name} last reported running (its heartbeat): its count drops only
     * once an attempt's run has returned, after which that attempt commits nothing more; -1 when
     * unknown.
     */
    static int runningJobs(Connection c, String name) throws SQLException {
        List<String> r = rows(c, "SELECT running_jobs FROM tributary_catalog.workers WHERE name = '" + name + "'");
        return r.isEmpty()
                ? -1
                : Integer.parseInt(r.get(0).substring(0, r.get(0).length() - 1));
    }

    interface Check {
        boolean ok() throws Exception;
    }

    static void awaitTrue(Check check, String what) throws Exception {
        awaitTrue(check, what, 180_000);
    }

    static void awaitTrue(Check check, String what, long timeoutMs) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!check.ok()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(100);
        }
    }

    /** Every row of {@code sql}, each as its columns' text followed by {@code |}. */
    static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(rs.getString(i)).append('|');
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    /**
     * Samples a view's {@code ddl_progress} (rows done and placement) every 100 ms on a thread of
     * its own until {@link #stop}, over its own connection (reconnecting while the server is down).
     */
    static final class ProgressSamples {
        private final List<Long> rowsDone = new ArrayList<>();
        private final List<String> placements = new ArrayList<>();
        private final Thread thread;
        private volatile boolean stopped;

        ProgressSamples(String url, String view) {
            thread = new Thread(() -> {
                while (!stopped) {
                    try (Connection c = java.sql.DriverManager.getConnection(url)) {
                        while (!stopped) {
                            for (String row : rows(
                                    c,
                                    "SELECT rows_done, placement FROM tributary_catalog.ddl_progress WHERE view_name"
                                            + " = '" + view + "'")) {
                                String[] f = row.split("\\|");
                                synchronized (this) {
                                    rowsDone.add(Long.parseLong(f[0]));
                                    placements.add(f[1]);
                                }
                            }
                            Thread.sleep(100);
                        }
                    } catch (Exception e) {
                        // the server is down or restarting: sample again once it answers
                    }
                }
            });
            thread.setDaemon(true);
            thread.start();
        }

        /** Stops sampling; asserts the samples never went back, and returns the rows done on {@code placement}s like {@code prefix}. */
        synchronized long stopAndCheck(String placementPrefix) throws InterruptedException {
            stopped = true;
            thread.join(10_000);
            long most = 0;
            long onPlacement = 0;
            for (int i = 0; i < rowsDone.size(); i++) {
                long done = rowsDone.get(i);
                if (done < most) {
                    throw new AssertionError("rows done went back from " + most + " to " + done + " (sample " + i
                            + " of " + rowsDone.size() + ", placement " + placements.get(i) + ")");
                }
                most = done;
                if (placements.get(i).startsWith(placementPrefix)) {
                    onPlacement = Math.max(onPlacement, done);
                }
            }
            return onPlacement;
        }
    }

    @Override
    public void close() throws Exception {
        for (ServerProcess s : servers) {
            System.out.println("---- server output:\n" + s.output());
        }
        try (var logs = Files.newDirectoryStream(dir, "*.log")) {
            for (Path log : logs) {
                System.out.println("---- " + log.getFileName() + ":\n" + Files.readString(log));
            }
        }
        for (Process w : workers) {
            kill(w);
        }
        for (ServerProcess s : servers) {
            s.close();
        }
    }
}
