package io.tributary.cli;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The view half of {@code tributary bench remote}: a GROUP BY view and a join view over the same
 * table, created together in the background, backfilled in the server or on workers, while
 * single-row INSERTs into another table are timed; and PostgreSQL's {@code CREATE MATERIALIZED
 * VIEW} of the same two views over the same rows, for scale. Used by one thread.
 */
final class RemoteViewRounds {
    private static final String AGG = "SELECT g, count(*) AS n, sum(v) AS s, max(v) AS hi FROM vt GROUP BY g";
    private static final String JOIN = "SELECT vt.id, d.name, vt.v FROM vt JOIN d ON vt.g = d.g";
    private static final int GROUPS = 1000;

    /**
     * How long a phase may take before it is given up (its views dropped, its figures left out):
     * the bench goes on to the next phase and reports rather than waiting for ever on a job that
     * cannot finish (the last trial's remote phase never did, at load 45–84).
     */
    private static final long PHASE_LIMIT_MS = 900_000;

    private final long rows;
    private final long idleMs;
    private final PreparedStatement insert;
    private final long[] nextId;
    /** A statement of {@link #insert}'s connection to Tributary, used between INSERTs. */
    private final Statement tributary;

    private final ProcessHandle server;
    /** CPU seconds of every worker process so far (workers started later included). */
    private final java.util.function.DoubleSupplier workersCpu;
    /** Where each timed INSERT is also written, or null. */
    private final InsertLatencyLog log;
    /** The views' backfill rate limit in rows/s, or a negative number for none. */
    private final long rateLimit;

    /**
     * One phase's INSERT latencies, the two backfills' rows/s together (NaN when the phase did not
     * finish within {@link #PHASE_LIMIT_MS}), the server's CPU seconds and the workers'.
     */
    record Phase(double[] latenciesMs, double rowsPerSecond, double serverCpuSeconds, double workerCpuSeconds) {
        LatencySummary inserts() {
            return LatencySummary.of(latenciesMs);
        }
    }

    /**
     * @param rows rows of the table the views read
     * @param insert the timed single-row INSERT (into a table no view reads), on Tributary
     * @param nextId the next id it inserts; advanced here
     * @param tributary a statement of the same connection
     * @param server the server process, whose CPU time each phase reports
     * @param workersCpu the worker processes' CPU seconds so far, which each phase reports too
     * @param log where each timed INSERT is also written (phases {@code vi<round>} idle, {@code
     *     vl<round>} local, {@code vr<round>} remote), or null
     * @param rateLimit the views' {@code backfill_rate_limit} in rows/s, or a negative number for none
     */
    RemoteViewRounds(
            long rows,
            long idleMs,
            PreparedStatement insert,
            long[] nextId,
            Statement tributary,
            ProcessHandle server,
            java.util.function.DoubleSupplier workersCpu,
            InsertLatencyLog log,
            long rateLimit) {
        this.rows = rows;
        this.idleMs = idleMs;
        this.insert = insert;
        this.nextId = nextId;
        this.tributary = tributary;
        this.server = server;
        this.workersCpu = workersCpu;
        this.log = log;
        this.rateLimit = rateLimit;
    }

    /** Creates and fills the views' tables in Tributary and in PostgreSQL ({@code postgres}). */
    void load(Statement postgres) throws SQLException {
        for (Statement st : List.of(tributary, postgres)) {
            st.execute("CREATE TABLE vt (id BIGINT PRIMARY KEY, g BIGINT, v BIGINT)");
            st.execute(
                    "INSERT INTO vt SELECT x, x % " + GROUPS + ", x * 7 FROM generate_series(1, " + rows + ") AS s(x)");
            st.execute("CREATE TABLE d (g BIGINT PRIMARY KEY, name VARCHAR)");
            st.execute("INSERT INTO d SELECT x, 'group ' || x FROM generate_series(0, " + (GROUPS - 1) + ") AS s(x)");
        }
        postgres.execute("ANALYZE vt");
        postgres.execute("ANALYZE d");
    }

    /** Seconds PostgreSQL takes to create both views (then dropped). */
    double postgresSeconds(Statement postgres) throws SQLException {
        long start = System.nanoTime();
        postgres.execute("CREATE MATERIALIZED VIEW pg_agg AS " + AGG);
        postgres.execute("CREATE MATERIALIZED VIEW pg_join AS " + JOIN);
        double seconds = (System.nanoTime() - start) / 1e9;
        postgres.execute("DROP MATERIALIZED VIEW pg_agg");
        postgres.execute("DROP MATERIALIZED VIEW pg_join");
        return seconds;
    }

    /** INSERT latencies (ms) with no backfill running, asking {@link #created} as the backfill phases do. */
    double[] idle(String phase) throws SQLException {
        return RemoteBenchmark.inserts(
                insert,
                nextId,
                () -> {
                    created();
                    return false;
                },
                idleMs,
                log,
                phase);
    }

    /**
     * Creates both views in the background, in the server or on workers ({@code remote}, without
     * fallback), times INSERTs until both are created, and drops them.
     */
    Phase backfill(String tag, boolean remote) throws SQLException {
        tributary.execute("SET background_ddl = true");
        tributary.execute("SET remote_backfill = " + remote);
        tributary.execute("SET fallback_to_local = false");
        tributary.execute("SET backfill_rate_limit = " + (rateLimit < 0 ? "DEFAULT" : Long.toString(rateLimit)));
        String agg = "agg_" + tag;
        String join = "join_" + tag;
        double cpuBefore = cpuSeconds();
        double workersBefore = workersCpu.getAsDouble();
        long start = System.nanoTime();
        tributary.execute("CREATE MATERIALIZED VIEW " + agg + " AS " + AGG);
        tributary.execute("CREATE MATERIALIZED VIEW " + join + " AS " + JOIN);
        double[] latencies = RemoteBenchmark.inserts(insert, nextId, this::created, PHASE_LIMIT_MS, log, "v" + tag);
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpu = cpuSeconds() - cpuBefore;
        double workers = workersCpu.getAsDouble() - workersBefore;
        if (!created()) {
            System.err.println("view phase " + tag + " did not finish in " + PHASE_LIMIT_MS / 1000 + " s; its jobs:");
            try (ResultSet rs = tributary.executeQuery(
                    "SELECT owner, worker, state, attempts, last_error" + " FROM tributary_catalog.remote_jobs")) {
                while (rs.next()) {
                    System.err.println("  " + rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3)
                            + " attempts " + rs.getInt(4) + " " + rs.getString(5));
                }
            }
            seconds = Double.NaN;
        }
        tributary.execute("SET background_ddl = false");
        tributary.execute("DROP MATERIALIZED VIEW " + agg);
        tributary.execute("DROP MATERIALIZED VIEW " + join);
        return new Phase(latencies, 2 * rows / seconds, cpu, workers);
    }

    /** Whether no view is being created any more. */
    private boolean created() throws SQLException {
        try (ResultSet rs = tributary.executeQuery("SELECT count(*) FROM tributary_catalog.ddl_progress")) {
            rs.next();
            return rs.getLong(1) == 0;
        }
    }

    private double cpuSeconds() {
        return server.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
    }
}
