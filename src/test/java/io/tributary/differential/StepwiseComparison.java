package io.tributary.differential;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedded PostgreSQL and an in-process Tributary given the same set-up, on which statements
 * run one by one, as text and prepared: after each, its outcome (count, rows or SQLSTATE) and the
 * listed queries' results (the tables it may have changed) must be the same on both. Shared by
 * the differential tests of DML paths that Tributary runs without Calcite. One test thread.
 */
final class StepwiseComparison implements AutoCloseable {
    /** A statement prepared with {@code params}, bound in order by {@code setObject}. */
    record Prepared(String sql, List<Object> params) {}

    private final Connection pg;
    private final InProcessTributary tributary;
    private final List<String> checks;

    private StepwiseComparison(Connection pg, InProcessTributary tributary, List<String> checks) {
        this.pg = pg;
        this.tributary = tributary;
        this.checks = checks;
    }

    /**
     * Starts both servers and runs {@code setup} on each.
     *
     * @param dataDirPrefix the prefix of Tributary's temporary data directory
     * @param checks the queries compared after each statement (each with an ORDER BY)
     */
    static StepwiseComparison start(String dataDirPrefix, List<String> setup, List<String> checks) throws Exception {
        Connection pg = DifferentialPostgres.freshDev();
        InProcessTributary tributary = InProcessTributary.temporary(dataDirPrefix, 20, "postgres", "", 60);
        for (Connection c : List.of(pg, tributary.connection)) {
            try (Statement s = c.createStatement()) {
                for (String sql : setup) {
                    s.execute(sql);
                }
            }
        }
        return new StepwiseComparison(pg, tributary, checks);
    }

    /** Runs {@code literal}, then {@code prepared}, in order; one line per statement that differs. */
    List<String> mismatches(List<String> literal, List<Prepared> prepared) {
        List<String> mismatches = new ArrayList<>();
        for (String sql : literal) {
            compare(
                    sql,
                    StatementOutcome.of(pg, sql, false),
                    StatementOutcome.of(tributary.connection, sql, false),
                    mismatches);
        }
        for (Prepared p : prepared) {
            compare(
                    p.sql() + " " + p.params(),
                    StatementOutcome.ofPrepared(pg, p.sql(), p.params()),
                    StatementOutcome.ofPrepared(tributary.connection, p.sql(), p.params()),
                    mismatches);
        }
        return mismatches;
    }

    private void compare(String what, String pgOutcome, String tribOutcome, List<String> mismatches) {
        String expected = pgOutcome + " " + results(pg);
        String actual = tribOutcome + " " + results(tributary.connection);
        if (!expected.equals(actual)) {
            mismatches.add(what + "\n  postgres:  " + expected + "\n  tributary: " + actual);
        }
    }

    private String results(Connection c) {
        StringBuilder out = new StringBuilder();
        for (String query : checks) {
            out.append(StatementOutcome.of(c, query, false));
        }
        return out.toString();
    }

    @Override
    public void close() {
        Cleanup.closeAll(pg, tributary);
    }
}
