package io.tributary.crash;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Tributary playground running as a child JVM, so that it can be killed with SIGKILL without
 * taking the test down. It listens on port 0 and the test learns the real port from the ready
 * line, which avoids racing other processes for a "free" port.
 */
final class ServerProcess implements AutoCloseable {
    /** Exit status Java reports for a child that died of signal 9 (128 + signal number). */
    static final int SIGKILL_EXIT_STATUS = 128 + 9;

    private static final Pattern READY = Pattern.compile("is ready on [^ ]+:(\\d+) ");
    private static final long READY_TIMEOUT_SECONDS = 60;

    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final CompletableFuture<Integer> port = new CompletableFuture<>();

    private ServerProcess(Process process) {
        this.process = process;
        Thread pump = new Thread(this::pumpOutput, "server-output-" + process.pid());
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Starts a playground on {@code dataDir} and returns once it accepts connections.
     *
     * @throws AssertionError with the server's output when it exits or is not ready within 60 s
     */
    static ServerProcess start(Path dataDir, long barrierIntervalMs) throws IOException, InterruptedException {
        // C1 only and the serial collector: the server lives for seconds, so a faster warm-up
        // lets more statements run before the kill; neither affects what is durable.
        return start(dataDir, barrierIntervalMs, List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), List.of());
    }

    /**
     * Starts a playground with extra JVM options (e.g. a small {@code -Xmx}) and extra server
     * flags, and returns once it accepts connections.
     *
     * @throws AssertionError with the server's output when it exits or is not ready within 60 s
     */
    static ServerProcess start(Path dataDir, long barrierIntervalMs, List<String> jvmOptions, List<String> serverFlags)
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
        ServerProcess server = new ServerProcess(
                new ProcessBuilder(command).redirectErrorStream(true).start());
        try {
            server.port.get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            server.close();
            throw new AssertionError("server did not become ready (" + e + "); output:\n" + server.output(), e);
        }
        return server;
    }

    /** Reads the merged stdout/stderr until the process ends, completing {@link #port} on the ready line. */
    private void pumpOutput() {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                output.append(line).append('\n');
                Matcher m = READY.matcher(line);
                if (m.find()) {
                    port.complete(Integer.parseInt(m.group(1)));
                }
            }
        } catch (IOException e) {
            output.append("[reading output failed: ").append(e).append("]\n");
        }
        port.completeExceptionally(new IllegalStateException("server exited before it was ready"));
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port.join() + "/dev?user=root&connectTimeout=10&socketTimeout=60";
    }

    long pid() {
        return process.pid();
    }

    String output() {
        return output.toString();
    }

    /**
     * Kills the server with SIGKILL (no shutdown hook runs, nothing is flushed) and waits for it.
     *
     * @throws AssertionError when the process did not die of SIGKILL
     */
    void kill9() throws InterruptedException {
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
