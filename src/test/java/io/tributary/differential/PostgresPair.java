package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

/**
 * One fresh embedded PostgreSQL database and one temporary Tributary, for a test class that runs
 * statement scripts on both and compares what each statement gives (rows with labels and JDBC
 * types, update count, or SQLSTATE), or that compares views with PostgreSQL's queries
 * ({@link #forViews}). Made in a test's {@code @BeforeAll}, closed in its {@code @AfterAll}; used
 * from the test thread only.
 */
final class PostgresPair implements AutoCloseable {
    final Connection pg;
    final InProcessTributary tributary;

    private PostgresPair(Connection pg, InProcessTributary tributary) {
        this.pg = pg;
        this.tributary = tributary;
    }

    /** A fresh {@code dev} database on the shared PostgreSQL and a Tributary in a temporary directory. */
    static PostgresPair start(String dataDirPrefix) throws Exception {
        return start(dataDirPrefix, 20, "postgres", 60);
    }

    /**
     * A fresh {@code dev} database on the shared PostgreSQL and a Tributary for views over many
     * rows: epochs every 100 ms, the session as {@code root}, statements allowed two minutes.
     */
    static PostgresPair forViews(String dataDirPrefix) throws Exception {
        return start(dataDirPrefix, 100, "root", 120);
    }

    /** As {@link #forViews(String)} with epochs every {@code barrierIntervalMs} and statements allowed {@code timeoutSeconds}. */
    static PostgresPair forViews(String dataDirPrefix, long barrierIntervalMs, int timeoutSeconds) throws Exception {
        return start(dataDirPrefix, barrierIntervalMs, "root", timeoutSeconds);
    }

    private static PostgresPair start(String dataDirPrefix, long barrierIntervalMs, String user, int timeoutSeconds)
            throws Exception {
        Connection pg = DifferentialPostgres.freshDev();
        try {
            return new PostgresPair(
                    pg, InProcessTributary.temporary(dataDirPrefix, barrierIntervalMs, user, "", timeoutSeconds));
        } catch (Exception e) {
            Cleanup.closeAll(pg);
            throw e;
        }
    }

    /** The outcome of {@code sql} on both, PostgreSQL's first; the statement runs once on each. */
    String[] both(String sql) {
        return new String[] {StatementOutcome.of(pg, sql, true), StatementOutcome.of(tributary.connection, sql, true)};
    }

    /**
     * Runs {@code setup} in order on both, failing the test at the first statement whose outcomes
     * differ (rows with JDBC types, update count or SQLSTATE): a class's fixture, which must be the
     * same on both before anything is compared.
     */
    void setUpAlike(List<String> setup) {
        for (String sql : setup) {
            String[] outcome = both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
    }

    /**
     * Runs {@code statements} in order on both and returns one line per statement whose outcomes
     * differ (empty when all agree). A populated CREATE MATERIALIZED VIEW's tag counts no rows in
     * Tributary (README's known limits), so its tag alone is not compared: the SELECT after it
     * compares its rows.
     */
    List<String> mismatches(List<String> statements) {
        List<String> mismatches = new ArrayList<>();
        for (String sql : statements) {
            String[] outcome = both(sql);
            boolean tagOnly = sql.startsWith("CREATE MATERIALIZED VIEW") && outcome[1].equals("count 0");
            if (!outcome[0].equals(outcome[1]) && !tagOnly) {
                mismatches.add(sql + "\n  postgres:  " + outcome[0] + "\n  tributary: " + outcome[1]);
            }
        }
        return mismatches;
    }

    /**
     * Runs {@code reads} after {@code SET TIME ZONE zone} for each of {@code zones} (as SET TIME ZONE
     * takes them), returning each mismatch prefixed with its zone; sets both back to UTC after.
     */
    List<String> mismatchesInZones(List<String> zones, List<String> reads) {
        List<String> mismatches = new ArrayList<>();
        for (String zone : zones) {
            List<String> statements = new ArrayList<>();
            statements.add("SET TIME ZONE " + zone);
            statements.addAll(reads);
            for (String sql : mismatches(statements)) {
                mismatches.add(zone + ": " + sql);
            }
        }
        both("SET TIME ZONE 'UTC'");
        return mismatches;
    }

    /** A materialized view followed through writes: its name, its query, and the columns its rows are ordered by. */
    record FollowedView(String name, String query, String orderBy) {}

    /**
     * Creates each of {@code views} on Tributary as a materialized view, then runs each of {@code
     * writes} on both and, after each, compares every view's rows with PostgreSQL's answer to its
     * query; returns one line per view and write that differ (empty when all agree).
     */
    List<String> viewMismatches(List<FollowedView> views, List<String> writes) {
        for (FollowedView view : views) {
            StatementOutcome.of(
                    tributary.connection, "CREATE MATERIALIZED VIEW " + view.name() + " AS " + view.query(), true);
        }
        List<String> mismatches = new ArrayList<>();
        for (String write : writes) {
            both(write);
            for (FollowedView view : views) {
                String expected = StatementOutcome.of(pg, view.query() + " ORDER BY " + view.orderBy(), true);
                String actual = StatementOutcome.of(
                        tributary.connection, "SELECT * FROM " + view.name() + " ORDER BY " + view.orderBy(), true);
                if (!expected.equals(actual)) {
                    mismatches.add(view.name() + " after " + write + "\n  postgres:  " + expected + "\n  tributary: "
                            + actual);
                }
            }
        }
        return mismatches;
    }

    @Override
    public void close() {
        Cleanup.closeAll(pg, tributary);
    }
}
