package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The two databases of a differential test of views over many rows, as a JUnit extension: a test
 * class registers it as a static field with {@code @RegisterExtension}; before its tests JUnit
 * opens {@link PostgresPair#forViews} (a fresh PostgreSQL {@code dev} and a temporary Tributary),
 * after them closes it. Used from the test thread.
 */
final class ViewTestDatabases implements BeforeAllCallback, AfterAllCallback {
    private final String dataDirPrefix;
    private final long barrierIntervalMs;
    private final int timeoutSeconds;
    private PostgresPair pair;

    /** The databases of {@link PostgresPair#forViews(String)}. */
    ViewTestDatabases(String dataDirPrefix) {
        this(dataDirPrefix, 100, 120);
    }

    /** The same with epochs every {@code barrierIntervalMs} and statements allowed {@code timeoutSeconds}. */
    ViewTestDatabases(String dataDirPrefix, long barrierIntervalMs, int timeoutSeconds) {
        this.dataDirPrefix = dataDirPrefix;
        this.barrierIntervalMs = barrierIntervalMs;
        this.timeoutSeconds = timeoutSeconds;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        pair = PostgresPair.forViews(dataDirPrefix, barrierIntervalMs, timeoutSeconds);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Cleanup.closeAll(pair);
    }

    /** The PostgreSQL session, autocommit on. */
    Connection pg() {
        return pair.pg;
    }

    /** The Tributary server, for a test that opens sessions of its own. */
    InProcessTributary tributary() {
        return pair.tributary;
    }

    /** The Tributary session, as {@code root}, autocommit on. */
    Connection trib() {
        return pair.tributary.connection;
    }

    /**
     * Runs {@code setup} on both databases, creates a materialized view {@code viewPrefix + v} of
     * each of {@code queries} in Tributary, then runs {@code steps} on both one by one; after the
     * backfill and after each step, each view's rows (with their labels) must equal PostgreSQL's
     * answer to its query.
     */
    void compareViewsThroughSteps(String setup, String viewPrefix, String[] queries, String[] steps)
            throws SQLException {
        InProcessTributary.execScript(trib(), setup);
        InProcessTributary.execScript(pg(), setup);
        for (int v = 0; v < queries.length; v++) {
            InProcessTributary.execScript(trib(), "CREATE MATERIALIZED VIEW " + viewPrefix + v + " AS " + queries[v]);
        }
        compareViews(viewPrefix, queries, "after the backfill");
        for (String step : steps) {
            InProcessTributary.execScript(trib(), step);
            InProcessTributary.execScript(pg(), step);
            compareViews(viewPrefix, queries, "after " + step);
        }
    }

    private void compareViews(String viewPrefix, String[] queries, String when) throws SQLException {
        for (int v = 0; v < queries.length; v++) {
            assertEquals(
                    SortedRows.withLabels(pg(), queries[v]),
                    SortedRows.withLabels(trib(), "SELECT * FROM " + viewPrefix + v),
                    queries[v] + " " + when);
        }
    }
}
