package io.tributary.crash;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * One playground at a time on one data directory, killed with SIGKILL and restarted on it: the
 * harness of crash tests that write, kill, restart and compare step by step, and of source crash
 * tests that kill while a source ingests ({@link #killWhileProgressing}). The test registers it as
 * an instance field with {@code @RegisterExtension}; servers start through {@link StartedServers},
 * so their logs are kept and shown when the test fails, and JUnit kills whatever still runs after
 * each test method.
 */
final class RestartingServer implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {
    /** Statements a test runs over one connection, returning what it read. */
    @FunctionalInterface
    interface Reads<T> {
        T on(Statement st) throws Exception;
    }

    /** Statements a test runs over one connection. */
    @FunctionalInterface
    interface Steps {
        void on(Statement st) throws Exception;
    }

    private static final long PROGRESS_TIMEOUT_MS = 60_000;

    private final long barrierIntervalMs;
    private final StartedServers started = new StartedServers();
    private Path dataDir;
    private ServerProcess current;

    RestartingServer(long barrierIntervalMs) {
        this.barrierIntervalMs = barrierIntervalMs;
    }

    /**
     * Starts a server on {@code dataDir} and makes it the running one; {@link #killAndRestart}
     * reuses the directory. A test that killed the server itself starts the next one here.
     */
    void start(Path dataDir) throws Exception {
        this.dataDir = dataDir;
        current = started.start(dataDir, barrierIntervalMs);
    }

    /**
     * Kills the running server with SIGKILL and starts another on the same data directory.
     *
     * @throws AssertionError when the server did not die of SIGKILL or the new one is not ready
     */
    void killAndRestart() throws Exception {
        current.kill9();
        current = started.start(dataDir, barrierIntervalMs);
    }

    /** A new connection to the running server; the caller closes it. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(current.jdbcUrl());
    }

    /** Runs {@code reads} over a new connection to the running server, closed after it. */
    <T> T read(Reads<T> reads) throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            return reads.on(st);
        }
    }

    /** Runs {@code steps} over a new connection to the running server, closed after it. */
    void run(Steps steps) throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            steps.on(st);
        }
    }

    /**
     * Kills the running server while its sources ingest: waits until {@code progressSql} (a query
     * returning one number, e.g. a table's count) changes from its value at the call, so rows are
     * arriving right now, then sleeps a random time below {@code maxDelayMs} and kills. The wait
     * ends early once the value reaches {@code done}, so a source that finished is killed anyway.
     *
     * @return the value last seen before the kill
     * @throws AssertionError when the value did not move within a minute
     */
    long killWhileProgressing(String progressSql, long done, long maxDelayMs, Random random) throws Exception {
        long seen;
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            long before = Sql.scalar(st, progressSql);
            long deadline = System.currentTimeMillis() + PROGRESS_TIMEOUT_MS;
            while ((seen = Sql.scalar(st, progressSql)) == before && seen < done) {
                if (System.currentTimeMillis() > deadline) {
                    throw new AssertionError("no progress in a minute: " + progressSql + " stays " + seen
                            + "; server output:\n" + current.output());
                }
                Thread.sleep(20);
            }
        }
        Thread.sleep(random.nextInt((int) maxDelayMs));
        current.kill9();
        return seen;
    }

    /** Kills the server if it still runs; a test calls it where it needs the data directory free. */
    void stopAll() throws InterruptedException {
        started.stopAll();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        started.beforeEach(context);
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        started.handleTestExecutionException(context, failure);
    }

    /** Kills the server if it still runs; called by JUnit after each test method. */
    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        started.afterEach(context);
    }
}
