package io.tributary.crash;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Tributary playground running as a child JVM, so that it can be killed with SIGKILL without
 * taking the test down. It listens on port 0 and the test learns the real port from the ready
 * line, which avoids racing other processes for a "free" port. The child writes its stdout and
 * stderr straight into a log file (no pipe, so a slow test can never stall it on a full buffer),
 * which outlives the test for reading after a failure.
 */
final class ServerProcess implements AutoCloseable {
    /** Exit status Java reports for a child that died of signal 9 (128 + signal number). */
    static final int SIGKILL_EXIT_STATUS = 128 + 9;

    private static final Pattern READY = Pattern.compile("is ready on [^ ]+:(\\d+) ");
    private static final long READY_TIMEOUT_SECONDS = 60;
    private static final long READY_POLL_MS = 20;

    private final Process process;
    private final Path log;
    /** Whether the test killed it: a server that died otherwise was killed by the system or crashed. */
    private volatile boolean killedByTest;

    private int port;

    private ServerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts a playground on {@code dataDir} with extra JVM options (e.g. a small {@code -Xmx})
     * and extra server flags, its output going to {@code log} (replaced if it exists), and returns
     * once it accepts connections. Tests start servers through {@link StartedServers}, which names
     * the log and shows its end when the test fails.
     *
     * @throws AssertionError with the server's output when it exits or is not ready within 60 s
     */
    static ServerProcess start(
            Path dataDir, long barrierIntervalMs, List<String> jvmOptions, List<String> serverFlags, Path log)
            throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                "io.tributary.cli.Main",
                "playground",
                "--port",
                "0",
                "--http-port",
                "0", // off: concurrent servers would share the default HTTP port
                "--data-dir",
                dataDir.toString(),
                "--barrier-interval-ms",
                Long.toString(barrierIntervalMs)));
        command.addAll(serverFlags);
        Files.createDirectories(log.getParent());
        ServerProcess server = new ServerProcess(
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start(),
                log);
        server.awaitReady();
        return server;
    }

    /**
     * Polls the log until the ready line shows the port; the log is small before it.
     *
     * @throws AssertionError with the output when the server exits first or takes over 60 s
     */
    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_TIMEOUT_SECONDS);
        while (true) {
            // read before checking liveness, so a ready line written just before an exit is seen
            boolean alive = process.isAlive();
            Matcher m = READY.matcher(output());
            if (m.find()) {
                port = Integer.parseInt(m.group(1));
                return;
            }
            if (!alive) {
                throw new AssertionError("server exited with " + process.exitValue() + " before it was ready; log "
                        + log + ":\n" + output());
            }
            if (System.nanoTime() > deadline) {
                close();
                throw new AssertionError("server did not become ready in " + READY_TIMEOUT_SECONDS + " s; log " + log
                        + ":\n" + output());
            }
            Thread.sleep(READY_POLL_MS);
        }
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/dev?user=root&connectTimeout=10&socketTimeout=60";
    }

    long pid() {
        return process.pid();
    }

    /** The file the server's stdout and stderr go to. */
    Path log() {
        return log;
    }

    /** Everything the server printed so far (stdout and stderr, interleaved as written). */
    String output() {
        try {
            // bytes, not readString: the child may be in the middle of writing a multi-byte character
            return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "[cannot read " + log + ": " + e + "]";
        }
    }

    /**
     * Whether the server runs, or how it ended and whether the test ended it, for a failure report:
     * a server that died of SIGKILL without the test killing it was most likely taken by the
     * kernel's OOM killer, one that exited otherwise crashed or shut down (its log says which).
     */
    String state() {
        if (process.isAlive()) {
            return "running";
        }
        return "exited with " + process.exitValue()
                + (killedByTest ? ", killed by the test" : ", NOT killed by the test");
    }

    /** The last {@code lines} lines the server printed, for a failure report. */
    String outputTail(int lines) {
        List<String> all = output().lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /**
     * Kills the server with SIGKILL (no shutdown hook runs, nothing is flushed) and waits for it.
     *
     * @throws AssertionError when the process did not die of SIGKILL
     */
    void kill9() throws InterruptedException {
        killedByTest = true;
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("server " + pid() + " survived destroyForcibly");
        }
        if (process.exitValue() != SIGKILL_EXIT_STATUS) {
            throw new AssertionError("server " + pid() + " exited with " + process.exitValue()
                    + " instead of dying of SIGKILL; output:\n" + output());
        }
    }

    /** Kills the server if it is still running; safe to call repeatedly. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            killedByTest = true;
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Runs all writers, kills the server with SIGKILL {@code delayMs} after every writer had a
     * statement acknowledged, and waits for the writers to stop. Counting from the first
     * acknowledgement keeps the fresh server's warm-up (its first statements take seconds) from
     * eating the delay, so the kill lands among steadily committing statements.
     */
    void writeThenKill(List<? extends CrashWriter> writers, long delayMs) throws Exception {
        AtomicBoolean killing = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(writers.size());
        ExecutorService pool = Executors.newFixedThreadPool(writers.size());
        try {
            List<Future<?>> running = new ArrayList<>();
            for (CrashWriter w : writers) {
                running.add(pool.submit(() -> w.run(jdbcUrl(), killing, started)));
            }
            // On timeout a writer has failed; its future reports why below.
            started.await(60, TimeUnit.SECONDS);
            Thread.sleep(delayMs);
            // Set before the kill: from now on a failing statement is the crash, not a bug.
            killing.set(true);
            kill9();
            for (Future<?> f : running) {
                try {
                    f.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof AssertionError a) {
                        throw a;
                    }
                    throw e;
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
