package io.tributary.differential;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.core.BaseConnection;

/**
 * Steps of transaction-block scripts run on PostgreSQL and Tributary with two sessions each (A runs
 * the blocks, B is another session), compared step by step with the transaction state each server
 * reported, and a materialized view over the script's table compared with PostgreSQL's answer to
 * its query. Used by the transaction and savepoint differential tests from their test thread.
 *
 * @param viewQuery the query the view {@code viewName} is created with on Tributary
 */
record BlockSteps(
        PostgresPair pair,
        Connection pgOther,
        Connection tributaryOther,
        ComparedOutcomes outcomes,
        String viewQuery,
        String viewName) {

    /** One step: session 'A' or 'B' runs {@code sql}; 'M' creates the view on Tributary; 'V' compares it. */
    record Step(char session, String sql) {}

    static Step a(String sql) {
        return new Step('A', sql);
    }

    static Step b(String sql) {
        return new Step('B', sql);
    }

    static final Step VIEW = new Step('V', null);

    /** Runs {@code steps} in order; one line per step whose outcomes differ (empty when all agree). */
    List<String> mismatches(List<Step> steps) throws SQLException {
        List<String> mismatches = new ArrayList<>();
        for (Step step : steps) {
            String expected;
            String actual;
            switch (step.session()) {
                case 'A' -> {
                    expected = outcomes.of(pair.pg, step.sql()) + state(pair.pg);
                    actual = outcomes.of(pair.tributary.connection, step.sql()) + state(pair.tributary.connection);
                }
                case 'B' -> {
                    expected = outcomes.of(pgOther, step.sql()) + state(pgOther);
                    actual = outcomes.of(tributaryOther, step.sql()) + state(tributaryOther);
                }
                case 'M' -> {
                    expected = "count 0";
                    actual = outcomes.of(tributaryOther, step.sql()).replaceFirst("count \\d+", "count 0");
                }
                default -> {
                    expected = outcomes.of(pgOther, viewQuery + " ORDER BY owner");
                    actual = outcomes.of(tributaryOther, "SELECT * FROM " + viewName + " ORDER BY owner");
                }
            }
            if (!expected.equals(actual)) {
                mismatches.add(step + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        return mismatches;
    }

    /** The transaction state the server's last ReadyForQuery reported. */
    static String state(Connection c) throws SQLException {
        return " [" + c.unwrap(BaseConnection.class).getTransactionState() + "]";
    }
}
