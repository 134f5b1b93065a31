package io.tributary.cli;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.postgresql.PGConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench ingest}: rows per second a connector feeds into a Tributary table, alone
 * and with an aggregation view over it, next to an embedded PostgreSQL copying the same rows
 * (COPY FROM STDIN) into the same table, alone and followed by REFRESH MATERIALIZED VIEW of the
 * same query. Tributary's time runs from CREATE TABLE (or, for input that arrives only after it,
 * from its first arrival: see {@link IngestWorkload#feed}) until every row is committed (the view
 * commits in the same epochs); its view is created right after the table, so it backfills what
 * arrived meanwhile. One target runs at a time so that they do not compete for cores (CDC's
 * upstream PostgreSQL runs beside Tributary, as it must).
 */
@Command(
        name = "ingest",
        mixinStandardHelpOptions = true,
        description = "Connector ingestion rows/s into a table with a view: Tributary vs PostgreSQL COPY (+ REFRESH).")
final class IngestBenchmark implements Callable<Integer> {
    /** The sources this benchmark knows; a connector's workload is one line here. */
    static final Map<String, Supplier<IngestWorkload>> WORKLOADS =
            Map.of("datagen", DatagenIngest::new, "files", FilesIngest::new, "postgres-cdc", CdcIngest::new);

    private static final String VIEW_QUERY = "SELECT g, count(*) AS c, sum(v) AS s FROM %s GROUP BY g";
    private static final long WARM_UP_ROWS = 100_000;
    private static final int METRIC_WIDTH = 40;

    @Option(names = "--rows", defaultValue = "2000000", description = "Rows per round (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--splits", description = "Splits of the source (default: one per core).")
    Integer splits;

    @Option(
            names = "--source",
            defaultValue = "datagen",
            split = ",",
            description =
                    "Sources to measure, comma-separated, from: datagen, files, postgres-cdc (default: ${DEFAULT-VALUE}).")
    List<String> sources;

    @Option(
            names = "--data-dir",
            description =
                    "New directory for both databases' state, kept after the run (default: a temporary one, deleted after).")
    Path dataDir;

    private record Figures(double tableOnly, double withView, List<String> view) {}

    @Override
    public Integer call() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        int splitCount = splits != null ? splits : cores;
        if (rows < 1 || splitCount < 1) {
            System.err.println("--rows and --splits must be positive");
            return 2;
        }
        for (String s : sources) {
            if (!WORKLOADS.containsKey(s)) {
                System.err.println(
                        "unknown --source " + s + "; the sources are: " + String.join(", ", WORKLOADS.keySet()));
                return 2;
            }
        }
        try (BenchDirectory dir = BenchDirectory.of(dataDir)) {
            for (String s : sources) {
                try (IngestWorkload workload = WORKLOADS.get(s).get()) {
                    Path work = Files.createDirectories(dir.resolve("input-" + s));
                    Figures tributary;
                    try (BenchTarget target = BenchTarget.tributary(dir.resolve("tributary-" + s))) {
                        tributary = runTributary(target, workload, work, splitCount);
                    }
                    Figures postgres;
                    try (BenchTarget target = BenchTarget.postgres(dir.resolve("postgresql-" + s), System.err)) {
                        postgres = runPostgres(target, workload);
                    }
                    if (!tributary.view().equals(postgres.view())) {
                        throw new IllegalStateException(
                                "the views differ: tributary " + tributary.view() + " postgresql " + postgres.view());
                    }
                    print(workload, workload.splits(splitCount), cores, tributary, postgres);
                }
            }
            return 0;
        }
    }

    private Figures runTributary(BenchTarget target, IngestWorkload workload, Path work, int splitCount)
            throws Exception {
        try (Connection c = target.connect();
                Statement st = c.createStatement()) {
            long t0 = System.nanoTime();
            ingestTributary(st, workload, work, "warm_up", WARM_UP_ROWS, splitCount, true);
            System.err.printf(
                    "tributary: warm-up with %,d rows took %.1f s%n", WARM_UP_ROWS, (System.nanoTime() - t0) / 1e9);
            double tableOnly = ingestTributary(st, workload, work, "t1", rows, splitCount, false);
            double withView = ingestTributary(st, workload, work, "t2", rows, splitCount, true);
            return new Figures(tableOnly, withView, viewRows(st, "SELECT g, c FROM t2_view ORDER BY g"));
        }
    }

    /** One round: create the table (and the view), wait until every row is committed; rows/s. */
    private double ingestTributary(
            Statement st, IngestWorkload workload, Path work, String table, long n, int splitCount, boolean view)
            throws Exception {
        String clause = workload.prepare(work.resolve(table), table, n, splitCount);
        long created = System.nanoTime();
        st.execute("CREATE TABLE " + table + " " + workload.columns() + " " + clause);
        if (view) {
            st.execute("CREATE MATERIALIZED VIEW " + table + "_view AS " + VIEW_QUERY.formatted(table));
        }
        long start = workload.feed(st, table, n, created);
        while (committed(st, table) < n) {
            Thread.sleep(20);
        }
        double perSecond = n / ((System.nanoTime() - start) / 1e9);
        if (view) {
            long inView = scalar(st, "SELECT sum(c) FROM " + table + "_view");
            if (inView != n) {
                throw new IllegalStateException("the view counts " + inView + " rows of " + n);
            }
        }
        System.err.printf(
                "tributary: %s, %,d rows %s: %,.0f rows/s%n",
                workload.name(), n, view ? "with a view" : "into the table alone", perSecond);
        return perSecond;
    }

    private static long committed(Statement st, String table) throws SQLException {
        return scalar(
                st,
                "SELECT coalesce(sum(rows_ingested), 0) FROM tributary_catalog.source_progress"
                        + " WHERE table_name = '" + table + "'");
    }

    private Figures runPostgres(BenchTarget target, IngestWorkload workload) throws Exception {
        try (Connection c = target.connect();
                Statement st = c.createStatement()) {
            copyPostgres(c, st, workload, "warm_up", WARM_UP_ROWS, true);
            double tableOnly = copyPostgres(c, st, workload, "t1", rows, false);
            double withView = copyPostgres(c, st, workload, "t2", rows, true);
            return new Figures(tableOnly, withView, viewRows(st, "SELECT g, c FROM t2_view ORDER BY g"));
        }
    }

    /** One round: COPY the rows, then REFRESH the view when there is one; rows/s over both. */
    private double copyPostgres(Connection c, Statement st, IngestWorkload workload, String table, long n, boolean view)
            throws Exception {
        st.execute("CREATE TABLE " + table + " " + workload.columns());
        if (view) {
            st.execute("CREATE MATERIALIZED VIEW " + table + "_view AS " + VIEW_QUERY.formatted(table));
        }
        long start;
        long copied;
        try (Reader input = workload.copyInput(n)) {
            start = System.nanoTime();
            copied = c.unwrap(PGConnection.class)
                    .getCopyAPI()
                    .copyIn("COPY " + table + " FROM STDIN " + workload.copyOptions(), input);
        }
        if (view) {
            st.execute("REFRESH MATERIALIZED VIEW " + table + "_view");
        }
        double perSecond = n / ((System.nanoTime() - start) / 1e9);
        if (copied != n) {
            throw new IllegalStateException("postgresql copied " + copied + " rows of " + n);
        }
        System.err.printf(
                "postgresql: %s, %,d rows %s: %,.0f rows/s%n",
                workload.name(), n, view ? "COPY + REFRESH" : "COPY", perSecond);
        return perSecond;
    }

    private static long scalar(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> viewRows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + ":" + rs.getString(2));
            }
        }
        return out;
    }

    private void print(IngestWorkload workload, int splitCount, int cores, Figures t, Figures p) {
        System.out.printf(
                "bench ingest %s: %,d rows per round, %d split(s), %d cores; the views agree%n",
                workload.name(), rows, splitCount, cores);
        BenchTable table = new BenchTable(System.out, METRIC_WIDTH);
        table.row("table alone (rows/s)", t.tableOnly(), p.tableOnly(), "%,12.0f");
        table.row("table + GROUP BY view (rows/s)", t.withView(), p.withView(), "%,12.0f");
        table.row("table + GROUP BY view (rows/s per core)", t.withView() / cores, p.withView() / cores, "%,12.0f");
        System.out.println(workload.method());
        System.out.println("ratio = tributary / postgresql: above 1 is better");
    }
}
