package io.tributary.cli;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Callable;
import org.postgresql.PGConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench sink}: a sink from Tributary to an embedded PostgreSQL. The snapshot's
 * rows per second (CREATE SINK until the target's {@code backfill_processor_status} says complete)
 * and the head's changes per second (UPDATE statements of {@code --batch} rows each committed
 * while the sink is paused; from resuming it until the target holds the last change) are printed next to PostgreSQL's own COPY of
 * the same rows into the same kind of table; the head's latency (a one-row UPDATE's return, i.e.
 * its epoch's durable commit, until the row is visible in the target) as p50 and p99.
 */
@Command(
        name = "sink",
        mixinStandardHelpOptions = true,
        description = "Sink to PostgreSQL: snapshot rows/s and head changes/s vs PostgreSQL COPY; head latency.")
final class SinkBenchmark implements Callable<Integer> {
    private static final int METRIC_WIDTH = 40;

    @Option(
            names = "--rows",
            defaultValue = "500000",
            description = "Rows in the snapshot (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(
            names = "--changes",
            defaultValue = "200000",
            description = "Rows the head delivers in the throughput round (default: ${DEFAULT-VALUE}).")
    long changes;

    @Option(
            names = "--batch",
            defaultValue = "1000",
            description = "Rows per UPDATE statement (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(
            names = "--latency-samples",
            defaultValue = "100",
            description = "One-row updates timed to visibility (default: ${DEFAULT-VALUE}).")
    int samples;

    @Override
    public Integer call() throws Exception {
        if (rows < 1 || changes < 1 || batch < 1 || samples < 1 || changes > rows) {
            System.err.println(
                    "--rows, --changes, --batch and --latency-samples must be positive, --changes <= --rows");
            return 2;
        }
        try (BenchDirectory dir = BenchDirectory.of(null);
                BenchTarget pg = BenchTarget.postgres(dir.resolve("postgresql"), System.err);
                BenchTarget trib = BenchTarget.tributary(dir.resolve("tributary"));
                Connection t = trib.connect();
                Statement ts = t.createStatement();
                Connection p = pg.connect();
                Statement ps = p.createStatement()) {
            ts.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT, s VARCHAR)");
            ts.execute("INSERT INTO t SELECT x, x, 'row ' || x FROM generate_series(1, " + rows + ") AS g(x)");
            double copyRate = copy(p, ps, "copy_snapshot", rows);

            long start = System.nanoTime();
            ts.execute("CREATE SINK k FROM t WITH (connector = 'jdbc', jdbc.url = '" + pg.jdbcUrl()
                    + "', table.name = 't_out', create_table_if_not_exists = 'true')");
            long created = System.nanoTime();
            System.err.printf("tributary: CREATE SINK returned after %.2f s%n", (created - start) / 1e9);
            while (scalar(
                            ps,
                            "SELECT count(*) FROM backfill_processor_status WHERE backfill_alias = 'k_backfill' "
                                    + "AND backfill_status = 'complete'")
                    == 0) {
                Thread.sleep(5);
            }
            long done = System.nanoTime();
            double snapshotRate = rows / ((done - start) / 1e9);
            double copyPhaseRate = rows / ((done - created) / 1e9);
            check(ps, "SELECT count(*) FROM t_out", rows);
            System.err.printf("tributary: snapshot of %,d rows: %,.0f rows/s%n", rows, snapshotRate);

            double copyChanges = copy(p, ps, "copy_changes", changes);
            // the sink is paused while the changes commit, so the round times the sink, not the UPDATEs
            ts.execute("ALTER SINK k SET SINK_RATE_LIMIT = 0");
            long updating = System.nanoTime();
            for (long first = 1; first <= changes; first += batch) {
                long last = Math.min(changes, first + batch - 1);
                ts.executeUpdate("UPDATE t SET v = -v WHERE id BETWEEN " + first + " AND " + last);
            }
            System.err.printf(
                    "tributary: %,d changes committed in %.1f s (sink paused)%n",
                    changes, (System.nanoTime() - updating) / 1e9);
            start = System.nanoTime();
            ts.execute("ALTER SINK k SET SINK_RATE_LIMIT = DEFAULT");
            while (scalar(ps, "SELECT v FROM t_out WHERE id = " + changes) != -changes) {
                Thread.sleep(1);
            }
            double headRate = changes / ((System.nanoTime() - start) / 1e9);
            check(ps, "SELECT count(*) FROM t_out WHERE v < 0", changes);
            System.err.printf("tributary: head, %,d changes: %,.0f changes/s%n", changes, headRate);

            double[] latencies = new double[samples];
            for (int i = 0; i < samples; i++) {
                long id = 1 + i;
                long value = 1_000_000_000L + i;
                ts.executeUpdate("UPDATE t SET v = " + value + " WHERE id = " + id);
                long committed = System.nanoTime();
                while (scalar(ps, "SELECT v FROM t_out WHERE id = " + id) != value) {
                    Thread.onSpinWait();
                }
                latencies[i] = (System.nanoTime() - committed) / 1e6;
            }

            System.out.printf(
                    "bench sink: %,d snapshot rows, %,d head changes in UPDATEs of %,d rows, %d latency samples, "
                            + "barrier interval %d ms, %d cores%n",
                    rows,
                    changes,
                    batch,
                    samples,
                    BenchTarget.BARRIER_INTERVAL_MS,
                    Runtime.getRuntime().availableProcessors());
            BenchTable table = new BenchTable(System.out, METRIC_WIDTH);
            table.row("snapshot incl. CREATE (rows/s) vs COPY", snapshotRate, copyRate, "%,12.0f");
            table.row("snapshot after CREATE (rows/s) vs COPY", copyPhaseRate, copyRate, "%,12.0f");
            table.row("head (changes/s) vs COPY", headRate, copyChanges, "%,12.0f");
            table.row("head latency p50 (ms)", Percentiles.of(latencies, 50), Double.NaN, "%12.1f");
            table.row("head latency p99 (ms)", Percentiles.of(latencies, 99), Double.NaN, "%12.1f");
            System.out.println("postgresql: COPY FROM STDIN of the same rows into a table with the same primary key;"
                    + " ratio = tributary / postgresql");
            return 0;
        }
    }

    /** PostgreSQL's COPY of {@code n} rows like t's into a new table with the same key; rows/s. */
    private static double copy(Connection c, Statement st, String table, long n) throws Exception {
        st.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, v BIGINT, s VARCHAR)");
        StringBuilder text = new StringBuilder();
        for (long x = 1; x <= n; x++) {
            text.append(x).append('\t').append(x).append("\trow ").append(x).append('\n');
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        long start = System.nanoTime();
        c.unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY " + table + " FROM STDIN", new ByteArrayInputStream(bytes));
        double rate = n / ((System.nanoTime() - start) / 1e9);
        System.err.printf("postgresql: COPY of %,d rows: %,.0f rows/s%n", n, rate);
        return rate;
    }

    private static void check(Statement st, String sql, long expected) throws SQLException {
        long got = scalar(st, sql);
        if (got != expected) {
            throw new IllegalStateException(sql + " returned " + got + ", expected " + expected);
        }
    }

    private static long scalar(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : Long.MIN_VALUE;
        }
    }
}
