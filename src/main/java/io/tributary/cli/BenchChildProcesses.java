package io.tributary.cli;

import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The child processes a benchmark runs beside itself ({@code tributary bench remote}'s server and
 * workers, its embedded PostgreSQL): starting them as this JVM's main class, pinning them to a core
 * with {@code taskset}, and waiting for a server to take connections.
 */
final class BenchChildProcesses {
    private BenchChildProcesses() {}

    /**
     * Pins the embedded PostgreSQL's postmaster and its current processes to {@code core}
     * ({@code taskset}); backends forked later inherit the postmaster's affinity. {@code st} is a
     * session of that PostgreSQL, whose backend's parent is the postmaster.
     */
    static void pinPostgres(Statement st, String core) throws Exception {
        long backend;
        try (ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            backend = rs.getLong(1);
        }
        ProcessHandle postmaster = ProcessHandle.of(backend)
                .flatMap(ProcessHandle::parent)
                .orElseThrow(() -> new IllegalStateException("PostgreSQL's postmaster is not visible"));
        List<ProcessHandle> all = new ArrayList<>();
        all.add(postmaster);
        postmaster.children().forEach(all::add);
        for (ProcessHandle h : all) {
            if (!pin(h, core) && h.equals(postmaster)) {
                throw new IllegalStateException("taskset could not pin PostgreSQL to core " + core);
            }
        }
        System.err.println("postgresql: pinned to core " + core + " (" + all.size() + " processes)");
    }

    /** Pins every thread of {@code process} to {@code core} with taskset; false when that failed. */
    static boolean pin(ProcessHandle process, String core) throws Exception {
        Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", core, Long.toString(process.pid()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        return taskset.waitFor() == 0;
    }

    /**
     * This JVM's main class in a child process pinned to {@code core} when taskset exists, under
     * {@code policy} ({@code idle}: {@code SCHED_IDLE} through chrt, which every thread the JVM
     * starts inherits), with the launcher's JVM options and then {@code jvm}.
     */
    static Process child(String core, String policy, Path log, List<String> jvm, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        if (policy.equals("idle")) {
            command.addAll(List.of("/usr/bin/chrt", "--idle", "0"));
        }
        if (new File("/usr/bin/taskset").canExecute()) {
            command.addAll(List.of("/usr/bin/taskset", "-c", core));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(LauncherOptions.javaOptions(System.getenv("TRIBUTARY_JAVA_OPTS")));
        command.addAll(jvm);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    static Connection awaitServer(String url) throws Exception {
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

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
