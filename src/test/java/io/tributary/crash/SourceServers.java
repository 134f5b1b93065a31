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
 * The servers of one source crash test: playgrounds started one after another on the same data
 * directory, each killed with SIGKILL while a source ingests. The test registers it as an instance
 * field with {@code @RegisterExtension}; after each test method (also when it failed) JUnit kills
 * whatever still runs. The servers' logs are kept and shown on failure as {@link StartedServers}'.
 */
final class SourceServers implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {
    private static final long PROGRESS_TIMEOUT_MS = 60_000;

    private final long barrierIntervalMs;
    private final StartedServers started = new StartedServers();
    private ServerProcess current;

    SourceServers(long barrierIntervalMs) {
        this.barrierIntervalMs = barrierIntervalMs;
    }

    /** Starts a server on {@code dataDir} (the same for every start of a test) and makes it the current one. */
    ServerProcess start(Path dataDir) throws Exception {
        current = started.start(dataDir, barrierIntervalMs);
        return current;
    }

    /** A new connection to the current server; the caller closes it. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(current.jdbcUrl());
    }

    /**
     * Kills the current server while its sources ingest: waits until {@code progressSql} (a query
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

    /** Kills every server still running; a test calls it where it needs the data directory free. */
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

    /** Kills every server still running; called by JUnit after each test method. */
    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        stopAll();
    }
}
