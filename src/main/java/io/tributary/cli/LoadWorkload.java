package io.tributary.cli;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;

/**
 * The three loads of {@code bench load}, each into a fresh table of one target, over one
 * autocommit pgjdbc connection. Progress goes to the given stream.
 */
final class LoadWorkload {
    private static final String COLUMNS = "(id BIGINT PRIMARY KEY, v INT, w DOUBLE PRECISION)";
    /** The COPY rows: the values {@code INSERT ... SELECT x, x % 1000, x * 0.5} produces. */
    private static final GeneratedRowsReader.RowFormat ROW = (out, x) -> out.append(x)
            .append('\t')
            .append(x % 1000)
            .append('\t')
            .append(x * 0.5)
            .append('\n');

    /**
     * Figures of one target. Latencies in milliseconds; CPU in seconds used by the server during
     * the statement (NaN where it cannot be read).
     */
    record Result(
            double insertSelectRowsPerSecond,
            double copyRowsPerSecond,
            double singleInsertP50Ms,
            double singleInsertP99Ms,
            double insertSelectCpuSeconds,
            double copyCpuSeconds) {}

    /** CPU nanoseconds a target's server has used so far; -1 when it cannot tell. */
    interface ServerCpu {
        long nanos();
    }

    private final long rows;
    private final int singleInserts;
    private final PrintStream progress;

    LoadWorkload(long rows, int singleInserts, PrintStream progress) {
        this.rows = rows;
        this.singleInserts = singleInserts;
        this.progress = progress;
    }

    Result run(BenchTarget target, ServerCpu cpu) throws Exception {
        try (Connection c = target.connect()) {
            warmUp(c, target.name());
            long cpu0 = cpu.nanos();
            double insertSelect = insertSelect(c, target.name());
            long cpu1 = cpu.nanos();
            double copy = copy(c, target.name());
            long cpu2 = cpu.nanos();
            double[] latencies = singleInserts(c, target.name());
            return new Result(
                    insertSelect,
                    copy,
                    Percentiles.of(latencies, 50),
                    Percentiles.of(latencies, 99),
                    cpuSeconds(cpu0, cpu1),
                    cpuSeconds(cpu1, cpu2));
        }
    }

    private static double cpuSeconds(long from, long to) {
        return from < 0 || to < 0 ? Double.NaN : (to - from) / 1e9;
    }

    /**
     * Runs both bulk statements once on a few rows, so that one-off costs (Tributary plans and
     * compiles its first INSERT ... SELECT for seconds) are not charged to the throughput.
     */
    private void warmUp(Connection c, String name) throws Exception {
        long start = System.nanoTime();
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE warm_up " + COLUMNS);
            st.executeUpdate("INSERT INTO warm_up SELECT x, x % 1000, x * 0.5 FROM generate_series(1, 1000) AS s(x)");
            st.execute("CREATE TABLE warm_up2 " + COLUMNS);
        }
        c.unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY warm_up2 FROM STDIN", new GeneratedRowsReader(1, 1000, ROW));
        progress.printf("%s: warm-up took %.1f s%n", name, (System.nanoTime() - start) / 1e9);
    }

    private double insertSelect(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t " + COLUMNS);
            progress.printf("%s: INSERT ... SELECT of %,d rows%n", name, rows);
            long start = System.nanoTime();
            st.executeUpdate("INSERT INTO t SELECT x, x % 1000, x * 0.5 FROM generate_series(1, " + rows + ") AS s(x)");
            return report(name, "INSERT ... SELECT", rows, System.nanoTime() - start);
        }
    }

    private double copy(Connection c, String name) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t2 " + COLUMNS);
        }
        progress.printf("%s: COPY of %,d rows%n", name, rows);
        long start = System.nanoTime();
        long copied = c.unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY t2 FROM STDIN", new GeneratedRowsReader(1, rows, ROW));
        long elapsed = System.nanoTime() - start;
        if (copied != rows) {
            throw new IllegalStateException(name + " reported " + copied + " rows copied, expected " + rows);
        }
        return report(name, "COPY", rows, elapsed);
    }

    /** @return the latency of each measured statement in ms; the warm-up ones are not measured */
    private double[] singleInserts(Connection c, String name) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t3 " + COLUMNS);
        }
        // Enough for pgjdbc to switch to a server-side prepared statement and for the JIT to settle.
        int warmUp = Math.max(20, singleInserts / 10);
        progress.printf("%s: %,d single-row INSERTs after %,d warm-up ones%n", name, singleInserts, warmUp);
        double[] latencies = new double[singleInserts];
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO t3 VALUES (?, ?, ?)")) {
            for (int i = -warmUp; i < singleInserts; i++) {
                ps.setLong(1, i + warmUp);
                ps.setInt(2, i % 1000);
                ps.setDouble(3, i * 0.5);
                long start = System.nanoTime();
                ps.executeUpdate();
                if (i >= 0) {
                    latencies[i] = (System.nanoTime() - start) / 1e6;
                }
            }
        }
        progress.printf("%s: single-row INSERTs done%n", name);
        return latencies;
    }

    private double report(String name, String what, long count, long elapsedNanos) {
        double perSecond = count / (elapsedNanos / 1e9);
        progress.printf("%s: %s took %.1f s (%,.0f rows/s)%n", name, what, elapsedNanos / 1e9, perSecond);
        return perSecond;
    }
}
