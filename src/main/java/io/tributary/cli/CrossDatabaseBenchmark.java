package io.tributary.cli;

import io.tributary.meta.Cluster;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.server.session.QueryLimits;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tributary bench crossdb}: freshness of a materialized view in database {@code b} over a table
 * of database {@code a} (docs/ARCHITECTURE.md, Cross-database views) next to the same view inside
 * {@code a}. Each probe inserts one row into {@code a.t} (the INSERT returns once committed), then polls
 * both views by key until each shows it; the figures are ms from the INSERT's return. Then one UPDATE
 * of every row measures how long each view takes to show a bulk change, per 1,000 changed rows, and
 * two more (after dropping the cross-database view, then the same-database one) give each view's
 * process CPU per changed row: the extra cost of reading across databases.
 */
@Command(
        name = "crossdb",
        mixinStandardHelpOptions = true,
        description = "Freshness p50/p99 of a cross-database view vs the same view in one database.")
final class CrossDatabaseBenchmark implements Callable<Integer> {
    @Option(names = "--rows", defaultValue = "100000", description = "Rows of a.t (default: ${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--probes", defaultValue = "200", description = "Single-row probes (default: ${DEFAULT-VALUE}).")
    int probes;

    @Option(
            names = "--barrier-interval-ms",
            defaultValue = "1000",
            description = "Epoch length of both databases (default: ${DEFAULT-VALUE}).")
    long barrierMs;

    @Override
    public Integer call() throws Exception {
        try (BenchDirectory dir = BenchDirectory.of(null);
                Cluster cluster = Cluster.open(dir.resolve("tributary"), barrierMs, CalciteViewPlanner::new)) {
            PgServer server =
                    new PgServer("127.0.0.1", 0, new EngineSessionFactory(cluster, QueryLimits.defaults()), null);
            server.start();
            try {
                run("jdbc:postgresql://127.0.0.1:" + server.port() + "/");
            } finally {
                server.close();
            }
        }
        return 0;
    }

    private void run(String base) throws Exception {
        try (Connection dev = DriverManager.getConnection(base + "dev?user=root")) {
            exec(dev, "CREATE DATABASE a");
            exec(dev, "CREATE DATABASE b");
        }
        try (Connection a = DriverManager.getConnection(base + "a?user=root");
                Connection b = DriverManager.getConnection(base + "b?user=root")) {
            exec(a, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            exec(a, "INSERT INTO t SELECT x, x % 1000 FROM generate_series(1, " + rows + ") AS s(x)");
            String query = "SELECT id, v + 1 AS w FROM %s WHERE v >= 0";
            exec(a, "CREATE MATERIALIZED VIEW local_v AS " + String.format(Locale.ROOT, query, "t"));
            exec(b, "CREATE MATERIALIZED VIEW cross_v AS " + String.format(Locale.ROOT, query, "a.public.t"));
            double[] local = new double[probes];
            double[] cross = new double[probes];
            SplittableRandom random = new SplittableRandom(7);
            try (PreparedStatement insert = a.prepareStatement("INSERT INTO t VALUES (?, 1)");
                    PreparedStatement pollLocal = a.prepareStatement("SELECT 1 FROM local_v WHERE id = ?");
                    PreparedStatement pollCross = b.prepareStatement("SELECT 1 FROM cross_v WHERE id = ?")) {
                for (int i = 0; i < probes; i++) {
                    Thread.sleep(random.nextLong(Math.max(1, barrierMs)));
                    int id = rows + 1 + i;
                    insert.setInt(1, id);
                    insert.executeUpdate();
                    long returned = System.nanoTime();
                    pollLocal.setInt(1, id);
                    pollCross.setInt(1, id);
                    boolean seenLocal = false;
                    boolean seenCross = false;
                    while (!seenLocal || !seenCross) {
                        if (!seenLocal && exists(pollLocal)) {
                            seenLocal = true;
                            local[i] = (System.nanoTime() - returned) / 1e6;
                        }
                        if (!seenCross && exists(pollCross)) {
                            seenCross = true;
                            cross[i] = (System.nanoTime() - returned) / 1e6;
                        }
                    }
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "freshness (ms from the INSERT's return, %d probes, %d ms epochs):%n"
                            + "  same database   p50 %8.1f  p99 %8.1f%n"
                            + "  cross-database  p50 %8.1f  p99 %8.1f%n",
                    probes,
                    barrierMs,
                    Percentiles.of(local, 50),
                    Percentiles.of(local, 99),
                    Percentiles.of(cross, 50),
                    Percentiles.of(cross, 99));
            // three bulk UPDATEs: both views, then the same-database view alone, then no view; the
            // differences in process CPU are each view's cost per changed row
            Bulk both = bulkUpdate(a, b, 1, true, true);
            System.out.printf(
                    Locale.ROOT,
                    "bulk UPDATE of %d rows (statement %.0f ms), visible after: same database %.0f ms"
                            + " (%.2f ms/1000 rows), cross-database %.0f ms (%.2f ms/1000 rows)%n",
                    rows,
                    both.statementMs,
                    both.localMs,
                    both.localMs * 1000 / rows,
                    both.crossMs,
                    both.crossMs * 1000 / rows);
            exec(b, "DROP MATERIALIZED VIEW cross_v");
            Bulk localOnly = bulkUpdate(a, b, 2, true, false);
            exec(a, "DROP MATERIALIZED VIEW local_v");
            Bulk none = bulkUpdate(a, b, 3, false, false);
            double sameUs = (localOnly.cpuNanos - none.cpuNanos) / 1e3 / rows;
            double crossUs = (both.cpuNanos - localOnly.cpuNanos) / 1e3 / rows;
            System.out.printf(
                    Locale.ROOT,
                    "process CPU per changed row (bulk UPDATE with both views %.2f s, same-database view only"
                            + " %.2f s, no view %.2f s):%n"
                            + "  same-database view  %6.2f us%n"
                            + "  cross-database view %6.2f us  (extra %.2f us per change, %.2fx)%n",
                    both.cpuNanos / 1e9,
                    localOnly.cpuNanos / 1e9,
                    none.cpuNanos / 1e9,
                    sameUs,
                    crossUs,
                    crossUs - sameUs,
                    sameUs <= 0 ? Double.NaN : crossUs / sameUs);
        }
    }

    /** One bulk UPDATE's figures: ms to visible in each view (-1 without it) and process CPU. */
    private record Bulk(double statementMs, double localMs, double crossMs, long cpuNanos) {}

    /**
     * The {@code round}-th UPDATE of every row of {@code a.t}, timed until each view asked for shows
     * it (every rows-with-v-0 row at {@code w = round + 1}); the CPU is the whole process's from the
     * statement's start until then, so a view's own cost is a difference of two rounds.
     */
    private Bulk bulkUpdate(Connection a, Connection b, int round, boolean local, boolean cross) throws Exception {
        long cpu0 = ProcessCpu.nanos();
        long started = System.nanoTime();
        exec(a, "UPDATE t SET v = v + 1");
        long returned = System.nanoTime();
        String probe = "SELECT count(*) FROM %s WHERE w = " + (round + 1) + " AND id <= " + rows;
        long expected = rows / 1000;
        double localMs = local ? -1 : 0;
        double crossMs = cross ? -1 : 0;
        while (localMs < 0 || crossMs < 0) {
            if (localMs < 0 && count(a, String.format(Locale.ROOT, probe, "local_v")) == expected) {
                localMs = (System.nanoTime() - started) / 1e6;
            }
            if (crossMs < 0 && count(b, String.format(Locale.ROOT, probe, "cross_v")) == expected) {
                crossMs = (System.nanoTime() - started) / 1e6;
            }
            Thread.sleep(5);
        }
        if (!local && !cross) {
            // the change's commit, which the views' rounds include
            Thread.sleep(barrierMs);
        }
        return new Bulk(
                (returned - started) / 1e6, local ? localMs : -1, cross ? crossMs : -1, ProcessCpu.nanos() - cpu0);
    }

    private static boolean exists(PreparedStatement poll) throws SQLException {
        try (ResultSet rs = poll.executeQuery()) {
            return rs.next();
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
