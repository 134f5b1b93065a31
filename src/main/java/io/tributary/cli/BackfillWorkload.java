package io.tributary.cli;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.postgresql.PGConnection;

/**
 * What {@code bench backfill} does on one target. Both targets load {@code customers} and
 * {@code orders 1..rows} with COPY. Tributary then, per {@link BackfillQuery}, measures the latency
 * of single-row INSERTs into {@code orders} with no job running, creates the view with
 * {@code background_ddl} on while the INSERTs go on, polls {@code SHOW JOBS} until the job is gone,
 * checks and drops the view. PostgreSQL then gets the same orders, inserted by COPY up to the last
 * one Tributary had when its view was done, and times {@code CREATE MATERIALIZED VIEW} on them, so
 * that both views hold the same rows. Progress goes to the given stream.
 */
final class BackfillWorkload {
    /** How long the INSERT latency without a job is sampled before each view. */
    /** At {@link PacedInserts#PACE_MS} apart, enough INSERTs for a meaningful idle p99. */
    private static final long IDLE_MS = 5000;
    /** How often the job list is polled; the backfill time is this precise. */
    private static final long POLL_MS = 100;
    /** The warm-up's copy of orders, and how many rows it holds: enough for the JIT's thresholds. */
    private static final String WARM_UP_TABLE = "backfill_warm_up_orders";

    private static final long WARM_UP_ORDERS = 200_000;
    /** How often the job's progress is printed. */
    private static final long PROGRESS_EVERY_MS = 5000;

    /**
     * Figures of one view on one target; NaN where the target has none. Latencies in ms.
     *
     * @param lastOrderId the last order id the view covers
     * @param fingerprint the view's {@link BackfillQuery#fingerprintSql()} row
     * @param stateBytes the target's state on disk after the view was dropped, or -1 if not measured
     * @param cpuSeconds CPU seconds the server's process used from CREATE until the job was done
     *     (Tributary runs in-process; NaN for PostgreSQL)
     * @param jobCpuSeconds of those, the view's job threads' ({@link JobThreadsCpu}); NaN for PostgreSQL
     * @param jobWaitSeconds how long the job threads were ready to run but waited for a core ({@link
     *     JobThreadsWait}); NaN for PostgreSQL or where the system cannot tell
     * @param jitSeconds the JIT compilers' time meanwhile; NaN for PostgreSQL or where the JVM cannot tell
     * @param gcSeconds the collector's time meanwhile ({@link HeapWatch#pauseMillis}); NaN for PostgreSQL or
     *     where the JVM cannot tell
     * @param cpuByGroup the process's CPU seconds meanwhile by thread group ({@link ThreadGroupsCpu}); empty for
     *     PostgreSQL or where the system cannot tell
     */
    record Figures(
            double seconds,
            double cpuSeconds,
            double jobCpuSeconds,
            double jobWaitSeconds,
            double jitSeconds,
            double gcSeconds,
            Map<ThreadCpuGroup, Double> cpuByGroup,
            LatencySummary idle,
            LatencySummary during,
            long lastOrderId,
            List<BigDecimal> fingerprint,
            long stateBytes) {}

    /**
     * Tributary's figures.
     *
     * @param loadedStateBytes its state on disk after the load, before the first view
     */
    record TributaryRun(long loadedStateBytes, Map<BackfillQuery, Figures> views) {}

    private final long rows;
    private final int customers;
    private final BackfillRows data;
    private final PrintStream progress;

    BackfillWorkload(long rows, int customers, PrintStream progress) {
        this.rows = rows;
        this.customers = customers;
        this.data = new BackfillRows(customers);
        this.progress = progress;
    }

    /** Runs Tributary's side on {@code target}; {@code stateBytes} tells the size of its state on disk now. */
    TributaryRun runTributary(BenchTarget target, LongSupplier stateBytes) throws Exception {
        Map<BackfillQuery, Figures> figures = new EnumMap<>(BackfillQuery.class);
        long loadedBytes;
        try (Connection c = target.connect();
                Statement st = c.createStatement();
                PacedInserts inserts = new PacedInserts(target, data, rows + 1)) {
            load(target, c);
            loadedBytes = stateBytes.getAsLong();
            st.execute("SET background_ddl = true");
            warmUp(target, st, inserts);
            for (BackfillQuery query : BackfillQuery.values()) {
                figures.put(query, tributaryView(target, st, inserts, query, stateBytes));
            }
        }
        return new TributaryRun(loadedBytes, figures);
    }

    private Figures tributaryView(
            BenchTarget target, Statement st, PacedInserts inserts, BackfillQuery query, LongSupplier stateBytes)
            throws Exception {
        inserts.start();
        Thread.sleep(IDLE_MS);
        double[] idle = inserts.stop();
        inserts.start();
        long start = System.nanoTime();
        long cpuStart = ProcessCpu.nanos();
        long jitStart = ProcessCpu.jitMillis();
        long gcStart = HeapWatch.pauseMillis();
        JobThreadsCpu jobCpu = new JobThreadsCpu(query.viewName());
        JobThreadsWait jobWait = new JobThreadsWait(query.viewName());
        ThreadGroupsCpu groups = ThreadGroupsCpu.start();
        st.execute(query.createSql());
        progress.printf(
                "%s: %s: CREATE returned after %.0f ms%n",
                target.name(), query.label(), (System.nanoTime() - start) / 1e6);
        awaitJob(target, st, query, start, jobCpu, jobWait, groups);
        double seconds = (System.nanoTime() - start) / 1e9;
        long cpuEnd = ProcessCpu.nanos();
        long jitEnd = ProcessCpu.jitMillis();
        long gcEnd = HeapWatch.pauseMillis();
        Map<ThreadCpuGroup, Double> cpuByGroup = target.inProcess() ? groups.end() : Map.of();
        double cpuSeconds = cpuStart < 0 || !target.inProcess() ? Double.NaN : (cpuEnd - cpuStart) / 1e9;
        double jobCpuSeconds = target.inProcess() ? jobCpu.seconds() : Double.NaN;
        double jobWaitSeconds = target.inProcess() ? jobWait.seconds() : Double.NaN;
        double jitSeconds = jitStart < 0 || !target.inProcess() ? Double.NaN : (jitEnd - jitStart) / 1e3;
        double gcSeconds = gcStart < 0 || !target.inProcess() ? Double.NaN : (gcEnd - gcStart) / 1e3;
        double[] during = inserts.stop();
        progress.printf(
                "%s: %s: backfill of %,d rows took %.1f s (%,.0f rows/s), %.1f CPU s (job threads %.1f, waiting for a core %.1f,"
                        + " JIT %.1f), %.1f s in the collector; %d INSERTs meanwhile%n",
                target.name(),
                query.label(),
                rows,
                seconds,
                rows / seconds,
                cpuSeconds,
                jobCpuSeconds,
                jobWaitSeconds,
                jitSeconds,
                gcSeconds,
                during.length);
        progress.printf(
                "%s: %s: CPU s by thread group: %s%n",
                target.name(), query.label(), ThreadGroupsCpu.topGroups(cpuByGroup, ThreadCpuGroup.values().length));
        List<BigDecimal> fingerprint = Fingerprint.read(st, query.fingerprintSql());
        st.execute(query.dropSql());
        long bytes = stateBytes.getAsLong();
        progress.printf("%s: %s: state on disk after DROP: %,.1f MB%n", target.name(), query.label(), bytes / 1e6);
        return new Figures(
                seconds,
                cpuSeconds,
                jobCpuSeconds,
                jobWaitSeconds,
                jitSeconds,
                gcSeconds,
                cpuByGroup,
                LatencySummary.of(idle),
                LatencySummary.of(during),
                inserts.nextId() - 1,
                fingerprint,
                bytes);
    }

    /**
     * Polls SHOW JOBS (and {@code jobCpu}, {@code jobWait}, {@code groups}) until the view's job is gone, printing its progress now
     * and then; then WAITs for the view.
     */
    private void awaitJob(
            BenchTarget target,
            Statement st,
            BackfillQuery query,
            long start,
            JobThreadsCpu jobCpu,
            JobThreadsWait jobWait,
            ThreadGroupsCpu groups)
            throws Exception {
        String statement = query.createSql();
        long lastPrint = start;
        while (true) {
            String jobProgress = null;
            try (ResultSet rs = st.executeQuery("SHOW JOBS")) {
                while (rs.next()) {
                    if (rs.getString(2).equals(statement)) {
                        jobProgress = rs.getString(3);
                    }
                }
            }
            jobCpu.poll();
            jobWait.poll();
            groups.poll();
            if (jobProgress == null) {
                break;
            }
            long now = System.nanoTime();
            if (now - lastPrint >= PROGRESS_EVERY_MS * 1_000_000) {
                progress.printf("%s: %s: %.0f s: %s%n", target.name(), query.label(), (now - start) / 1e9, jobProgress);
                lastPrint = now;
            }
            Thread.sleep(POLL_MS);
        }
        st.execute("WAIT MATERIALIZED VIEW " + query.viewName());
        jobCpu.poll();
        jobWait.poll();
    }

    /**
     * Builds each measured view's query over a small table shaped as orders ({@link #WARM_UP_ORDERS}
     * rows of the same data), then drops the views and the table, while the INSERTs run unmeasured,
     * so that one-off costs (planning, the JIT, pgjdbc's server-side prepare) are not charged to
     * the measured views. A view of another shape left them to the measured ones: async-profiler
     * of {@code --rows 1000000} put 30% of the GROUP BY view's process CPU and 35% of the join's in
     * the C2 compiler, compiling SUM/MAX, the join and the INSERT path (pgwire, DML, Netty).
     */
    private void warmUp(BenchTarget target, Statement st, PacedInserts inserts) throws Exception {
        long start = System.nanoTime();
        inserts.start();
        st.execute(BackfillRows.createOrders(WARM_UP_TABLE));
        copy(st.getConnection(), WARM_UP_TABLE, 1, Math.min(rows, WARM_UP_ORDERS), data::appendOrder);
        for (BackfillQuery query : BackfillQuery.values()) {
            String view = "backfill_warm_up_" + query.name().toLowerCase();
            st.execute(query.createSql(view, WARM_UP_TABLE));
            st.execute("WAIT MATERIALIZED VIEW " + view);
            st.execute("DROP MATERIALIZED VIEW " + view);
        }
        st.execute("DROP TABLE " + WARM_UP_TABLE);
        Thread.sleep(IDLE_MS);
        inserts.stop();
        progress.printf("%s: warm-up took %.1f s%n", target.name(), (System.nanoTime() - start) / 1e9);
    }

    /**
     * @param tributary Tributary's figures per view: PostgreSQL's view of each query covers the same orders
     * @return the figures per view; only the time and the fingerprint are measured
     */
    Map<BackfillQuery, Figures> runPostgres(BenchTarget target, Map<BackfillQuery, Figures> tributary)
            throws Exception {
        Map<BackfillQuery, Figures> figures = new EnumMap<>(BackfillQuery.class);
        try (Connection c = target.connect();
                Statement st = c.createStatement()) {
            load(target, c);
            long lastOrder = rows;
            for (BackfillQuery query : BackfillQuery.values()) {
                long upTo = tributary.get(query).lastOrderId();
                copy(c, "orders", lastOrder + 1, upTo, data::appendOrder);
                lastOrder = upTo;
                // Plans are only as good as the statistics, which autovacuum may not have yet.
                st.execute("VACUUM ANALYZE orders");
                st.execute("VACUUM ANALYZE customers");
                long start = System.nanoTime();
                st.execute(query.createSql());
                double seconds = (System.nanoTime() - start) / 1e9;
                progress.printf(
                        "%s: %s: CREATE MATERIALIZED VIEW over %,d rows took %.1f s (%,.0f rows/s)%n",
                        target.name(), query.label(), upTo, seconds, rows / seconds);
                List<BigDecimal> fingerprint = Fingerprint.read(st, query.fingerprintSql());
                st.execute(query.dropSql());
                figures.put(
                        query,
                        new Figures(
                                seconds,
                                Double.NaN,
                                Double.NaN,
                                Double.NaN,
                                Double.NaN,
                                Double.NaN,
                                Map.of(),
                                LatencySummary.NONE,
                                LatencySummary.NONE,
                                upTo,
                                fingerprint,
                                -1));
            }
        }
        return figures;
    }

    /** Creates both tables and fills them with COPY. */
    private void load(BenchTarget target, Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute(BackfillRows.CREATE_CUSTOMERS);
            st.execute(BackfillRows.CREATE_ORDERS);
        }
        long start = System.nanoTime();
        copy(c, "customers", 1, customers, data::appendCustomer);
        copy(c, "orders", 1, rows, data::appendOrder);
        double seconds = (System.nanoTime() - start) / 1e9;
        progress.printf(
                "%s: COPY of %,d orders and %,d customers took %.1f s (%,.0f rows/s)%n",
                target.name(), rows, customers, seconds, (rows + customers) / seconds);
    }

    private static void copy(Connection c, String table, long first, long last, GeneratedRowsReader.RowFormat format)
            throws Exception {
        long copied = c.unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY " + table + " FROM STDIN", new GeneratedRowsReader(first, last, format));
        if (copied != Math.max(0, last - first + 1)) {
            throw new IllegalStateException(
                    "COPY into " + table + " reported " + copied + " rows, expected " + (last - first + 1));
        }
    }
}
