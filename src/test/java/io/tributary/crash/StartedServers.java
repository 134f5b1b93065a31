package io.tributary.crash;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * The child servers a crash test started, killed after each test method whether it passed or
 * failed, so no server outlives its test and holds its data directory or ports. A test registers
 * one as an instance field with {@code @RegisterExtension} and starts every server through it.
 *
 * <p>Each server's output goes to {@code target/crash-logs/<TestClass>-<n>.log} (n counts the
 * class's servers in this JVM), kept after the run; when the test method fails, the last
 * {@value #TAIL_LINES} lines of every log it wrote are attached to the failure as suppressed
 * exceptions, so they show in Surefire's console report and XML without the log files.
 */
final class StartedServers implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {
    static final int TAIL_LINES = 60;

    private static final Path LOG_DIR = Path.of(System.getProperty("basedir", "."), "target", "crash-logs");
    /** Servers started per test class in this JVM, so that a class's logs do not overwrite each other. */
    private static final Map<String, AtomicInteger> STARTS = new ConcurrentHashMap<>();

    private final List<ServerProcess> running = new ArrayList<>();
    /** Every server of the current test method, stopped or not: their logs explain a failure. */
    private final List<ServerProcess> started = new ArrayList<>();

    private String owner = "unknown";

    /**
     * Starts a server on {@code dataDir} with the given barrier interval, on a JVM tuned for a
     * short life: C1 only and the serial collector, since the server lives for seconds, so a faster
     * warm-up lets more statements run before the kill; neither affects what is durable.
     */
    ServerProcess start(Path dataDir, long barrierIntervalMs) throws Exception {
        return start(dataDir, barrierIntervalMs, List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), List.of());
    }

    /**
     * Starts a server with extra JVM options and server flags, as {@link ServerProcess#start}.
     *
     * @throws AssertionError with the server's output when it exits or is not ready within 60 s
     */
    ServerProcess start(Path dataDir, long barrierIntervalMs, List<String> jvmOptions, List<String> serverFlags)
            throws Exception {
        int n = STARTS.computeIfAbsent(owner, o -> new AtomicInteger()).incrementAndGet();
        ServerProcess server = ServerProcess.start(
                dataDir, barrierIntervalMs, jvmOptions, serverFlags, LOG_DIR.resolve(owner + "-" + n + ".log"));
        running.add(server);
        started.add(server);
        return server;
    }

    /** Kills every server still running; a test calls it where it needs the data directory free. */
    void stopAll() throws InterruptedException {
        for (ServerProcess server : running) {
            server.close();
        }
        running.clear();
    }

    /** Names the logs of this test method's servers after its class. */
    @Override
    public void beforeEach(ExtensionContext context) {
        owner = context.getRequiredTestClass().getSimpleName();
        started.clear();
    }

    /** Attaches the end of each server's log to the failure, then lets it fail the test. */
    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        for (ServerProcess server : started) {
            failure.addSuppressed(new ServerLogTail(server));
        }
        throw failure;
    }

    /** Kills every server still running; called by JUnit after each test method. */
    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        stopAll();
    }

    /** Carries a server's last log lines into a test failure's report; its stack says nothing. */
    private static final class ServerLogTail extends Exception {
        ServerLogTail(ServerProcess server) {
            super(
                    "last " + TAIL_LINES + " lines of " + server.log() + " (pid " + server.pid() + ", "
                            + server.state() + "):\n"
                            + server.outputTail(TAIL_LINES),
                    null,
                    false,
                    false);
        }
    }
}
