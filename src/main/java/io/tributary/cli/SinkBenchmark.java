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
 *
 * <p>Each of {@code --repeat} rounds has its own relation, sink and target tables in the same two
 * servers; the table shows medians over the rounds and each round's ratios follow. For the
 * snapshot it also shows PostgreSQL's CPU time (from {@code /proc}) and this JVM's, each per
 * elapsed second, next to PostgreSQL's CPU during its own COPY: a figure near 1 is a side that was
 * busy the whole time, a low one a side that waited.
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

    @Option(
            names = "--repeat",
            defaultValue = "5",
            description = "Rounds, each with its own relation, sink and target tables; medians are printed"
                    + " (default: ${DEFAULT-VALUE}).")
    int repeat;

    /** One round's figures; CPU seconds are NaN where they could not be read. */
    private record Round(
            double copyRate,
            double snapshotRate,
            double copyPhaseRate,
            double copyChanges,
            double headRate,
            double p50,
            double p99,
            double copyPgCpu,
            double copyWall,
            double snapshotPgCpu,
            double snapshotTributaryCpu,
            double snapshotWall) {}

    @Override
    public Integer call() throws Exception {
        if (rows < 1 || changes < 1 || batch < 1 || samples < 1 || repeat < 1 || changes > rows) {
            System.err.println("--rows, --changes, --batch, --latency-samples and --repeat must be positive,"
                    + " --changes <= --rows");
            return 2;
        }
        try (BenchDirectory dir = BenchDirectory.of(null);
                BenchTarget pg = BenchTarget.postgres(dir.resolve("postgresql"), System.err);
                BenchTarget trib = BenchTarget.tributary(dir.resolve("tributary"));
                Connection t = trib.connect();
                Statement ts = t.createStatement();
                Connection p = pg.connect();
                Statement ps = p.createStatement()) {
            PostgresCpu pgCpu = PostgresCpu.of(dir.resolve("postgresql"));
            Round[] rounds = new Round[repeat];
            for (int r = 0; r < repeat; r++) {
                rounds[r] = round(r, pg, pgCpu, ts, p, ps);
            }
            System.out.printf(
                    "bench sink: %,d snapshot rows, %,d head changes in UPDATEs of %,d rows, %d latency samples, "
                            + "barrier interval %d ms, %d cores; median of %d rounds%n",
                    rows,
                    changes,
                    batch,
                    samples,
                    BenchTarget.BARRIER_INTERVAL_MS,
                    Runtime.getRuntime().availableProcessors(),
                    repeat);
            BenchTable table = new BenchTable(System.out, METRIC_WIDTH);
            table.row(
                    "snapshot incl. CREATE (rows/s) vs COPY",
                    median(rounds, Round::snapshotRate),
                    median(rounds, Round::copyRate),
                    "%,12.0f");
            table.row(
                    "snapshot after CREATE (rows/s) vs COPY",
                    median(rounds, Round::copyPhaseRate),
                    median(rounds, Round::copyRate),
                    "%,12.0f");
            table.row(
                    "head (changes/s) vs COPY",
                    median(rounds, Round::headRate),
                    median(rounds, Round::copyChanges),
                    "%,12.0f");
            table.row("head latency p50 (ms)", median(rounds, Round::p50), Double.NaN, "%12.1f");
            table.row("head latency p99 (ms)", median(rounds, Round::p99), Double.NaN, "%12.1f");
            table.row(
                    "snapshot: PostgreSQL CPU / elapsed",
                    median(rounds, x -> x.snapshotPgCpu() / x.snapshotWall()),
                    median(rounds, x -> x.copyPgCpu() / x.copyWall()),
                    "%12.2f");
            table.row(
                    "snapshot: PostgreSQL CPU us/row",
                    median(rounds, x -> x.snapshotPgCpu() * 1e6 / rows),
                    median(rounds, x -> x.copyPgCpu() * 1e6 / rows),
                    "%12.2f");
            table.row(
                    "snapshot: Tributary CPU / elapsed",
                    median(rounds, x -> x.snapshotTributaryCpu() / x.snapshotWall()),
                    Double.NaN,
                    "%12.2f");
            System.out.println("postgresql: COPY FROM STDIN (text) of the same rows into a table with the same primary"
                    + " key; ratio = tributary / postgresql of the medians");
            System.out.println("ratio per round, snapshot after CREATE: "
                    + ratios(rounds, x -> x.copyPhaseRate() / x.copyRate()) + "; median "
                    + String.format("%.3f", median(rounds, x -> x.copyPhaseRate() / x.copyRate())));
            System.out.println("ratio per round, snapshot incl. CREATE: "
                    + ratios(rounds, x -> x.snapshotRate() / x.copyRate()) + "; median "
                    + String.format("%.3f", median(rounds, x -> x.snapshotRate() / x.copyRate())));
            System.out.println("ratio per round, head: " + ratios(rounds, x -> x.headRate() / x.copyChanges())
                    + "; median " + String.format("%.3f", median(rounds, x -> x.headRate() / x.copyChanges())));
            return 0;
        }
    }

    /** One round: relation {@code t<r>}, sink {@code k<r>} into {@code t_out<r>}; dropped at its end. */
    private Round round(int r, BenchTarget pg, PostgresCpu pgCpu, Statement ts, Connection p, Statement ps)
            throws Exception {
        String rel = "t" + r;
        String sink = "k" + r;
        String out = "t_out" + r;
        ts.execute("CREATE TABLE " + rel + " (id BIGINT PRIMARY KEY, v BIGINT, s VARCHAR)");
        ts.execute("INSERT INTO " + rel + " SELECT x, x, 'row ' || x FROM generate_series(1, " + rows + ") AS g(x)");
        long cpu0 = cpu(pgCpu);
        long t0 = System.nanoTime();
        double copyRate = copy(p, ps, "copy_snapshot" + r, rows);
        double copyWall = (System.nanoTime() - t0) / 1e9;
        double copyPgCpu = seconds(pgCpu, cpu0);

        long start = System.nanoTime();
        ts.execute("CREATE SINK " + sink + " FROM " + rel + " WITH (connector = 'jdbc', jdbc.url = '" + pg.jdbcUrl()
                + "', table.name = '" + out + "', create_table_if_not_exists = 'true')");
        long created = System.nanoTime();
        long pgAtCreate = cpu(pgCpu);
        long tribAtCreate = ProcessCpu.nanos();
        System.err.printf("round %d: CREATE SINK returned after %.2f s%n", r, (created - start) / 1e9);
        while (scalar(
                        ps,
                        "SELECT count(*) FROM backfill_processor_status WHERE backfill_alias = '" + sink
                                + "_backfill' AND backfill_status = 'complete'")
                == 0) {
            // not more often: on a busy machine each probe takes the target's CPU from the COPY it times
            Thread.sleep(10);
        }
        long done = System.nanoTime();
        double snapshotPgCpu = seconds(pgCpu, pgAtCreate);
        double snapshotTributaryCpu = (ProcessCpu.nanos() - tribAtCreate) / 1e9;
        double snapshotRate = rows / ((done - start) / 1e9);
        double snapshotWall = (done - created) / 1e9;
        double copyPhaseRate = rows / snapshotWall;
        check(ps, "SELECT count(*) FROM " + out, rows);
        System.err.printf(
                "round %d: snapshot of %,d rows: %,.0f rows/s after CREATE (%.3f of COPY); %.2f s elapsed,"
                        + " PostgreSQL CPU %.2f s (its COPY: %.2f s in %.2f s), Tributary CPU %.2f s%n",
                r,
                rows,
                copyPhaseRate,
                copyPhaseRate / copyRate,
                snapshotWall,
                snapshotPgCpu,
                copyPgCpu,
                copyWall,
                snapshotTributaryCpu);

        double copyChanges = copy(p, ps, "copy_changes" + r, changes);
        // the sink is paused while the changes commit, so the round times the sink, not the UPDATEs
        ts.execute("ALTER SINK " + sink + " SET SINK_RATE_LIMIT = 0");
        long updating = System.nanoTime();
        for (long first = 1; first <= changes; first += batch) {
            long last = Math.min(changes, first + batch - 1);
            ts.executeUpdate("UPDATE " + rel + " SET v = -v WHERE id BETWEEN " + first + " AND " + last);
        }
        System.err.printf(
                "round %d: %,d changes committed in %.1f s (sink paused)%n",
                r, changes, (System.nanoTime() - updating) / 1e9);
        start = System.nanoTime();
        ts.execute("ALTER SINK " + sink + " SET SINK_RATE_LIMIT = DEFAULT");
        while (scalar(ps, "SELECT v FROM " + out + " WHERE id = " + changes) != -changes) {
            Thread.sleep(1);
        }
        double headRate = changes / ((System.nanoTime() - start) / 1e9);
        check(ps, "SELECT count(*) FROM " + out + " WHERE v < 0", changes);
        System.err.printf(
                "round %d: head, %,d changes: %,.0f changes/s (%.3f of COPY)%n",
                r, changes, headRate, headRate / copyChanges);

        double[] latencies = new double[samples];
        for (int i = 0; i < samples; i++) {
            long id = 1 + i;
            long value = 1_000_000_000L + i;
            ts.executeUpdate("UPDATE " + rel + " SET v = " + value + " WHERE id = " + id);
            long committed = System.nanoTime();
            while (scalar(ps, "SELECT v FROM " + out + " WHERE id = " + id) != value) {
                Thread.onSpinWait();
            }
            latencies[i] = (System.nanoTime() - committed) / 1e6;
        }
        ts.execute("DROP SINK " + sink);
        ts.execute("DROP TABLE " + rel);
        return new Round(
                copyRate,
                snapshotRate,
                copyPhaseRate,
                copyChanges,
                headRate,
                Percentiles.of(latencies, 50),
                Percentiles.of(latencies, 99),
                copyPgCpu,
                copyWall,
                snapshotPgCpu,
                snapshotTributaryCpu,
                snapshotWall);
    }

    private static long cpu(PostgresCpu pgCpu) {
        return pgCpu == null ? -1 : pgCpu.nanos();
    }

    /** PostgreSQL's CPU seconds since it had used {@code from} ns; NaN when it cannot be read. */
    private static double seconds(PostgresCpu pgCpu, long from) {
        long now = cpu(pgCpu);
        return from < 0 || now < 0 ? Double.NaN : (now - from) / 1e9;
    }

    private static double median(Round[] rounds, java.util.function.ToDoubleFunction<Round> figure) {
        double[] values = new double[rounds.length];
        for (int i = 0; i < rounds.length; i++) {
            values[i] = figure.applyAsDouble(rounds[i]);
        }
        return Percentiles.of(values, 50);
    }

    private static String ratios(Round[] rounds, java.util.function.ToDoubleFunction<Round> figure) {
        StringBuilder out = new StringBuilder();
        for (Round r : rounds) {
            out.append(out.length() == 0 ? "" : ", ").append(String.format("%.3f", figure.applyAsDouble(r)));
        }
        return out.toString();
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
