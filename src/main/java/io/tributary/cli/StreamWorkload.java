package io.tributary.cli;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What {@code bench stream} does on one target: preloads {@code orders} and {@code customers},
 * runs warm-up rounds of changes and two rounds with no view (the cost of the DML itself, prepared
 * and literal-laden), then per {@link StreamView} creates the view, runs one round of changes from
 * concurrent clients, checks the view, measures freshness with probes while nothing else runs, and
 * drops the view; last, with all three views at once, one prepared and one literal-laden round.
 * Every target gets the same statements (one {@link ChangeScript} generated up front), so the views'
 * fingerprints must agree. Progress goes to the given stream.
 */
final class StreamWorkload {
    private static final long SEED = 20_240_601L;
    /** Unmeasured changes before the first view, so that planning and the JIT are not charged to it. */
    private static final int WARM_UP_DIVISOR = 10;

    private static final int WARM_UP_PROBES = 20;
    /** PostgreSQL's freshness costs a refresh of the whole view each, so it is taken a few times only. */
    private static final int POSTGRES_FRESHNESS_REPEATS = 5;

    /**
     * Figures of one view on one target; NaN where the target has no such figure. Latencies in ms.
     * On Tributary the view is up to date when the DML returns, so both changes/s are the same.
     *
     * @param firstPollPercent the share of probes that the first poll after the INSERT returned saw
     * @param fingerprint the view's {@link StreamView#fingerprintSql()} row after the changes
     */
    record ViewFigures(
            double createMs,
            double dmlChangesPerSecond,
            double absorbedChangesPerSecond,
            double refreshMs,
            double firstPollPercent,
            double returnedP50Ms,
            double returnedP99Ms,
            double sentP50Ms,
            double sentP99Ms,
            double queuedSentP50Ms,
            double queuedSentP99Ms,
            List<BigDecimal> fingerprint) {}

    /**
     * Changes/s of one round and, on Tributary, the CPU time the whole process (server and
     * clients, which share it) spent per 1,000 changes; NaN where the target has no such figure.
     * The CPU figure is what stays comparable between runs on a machine that other work loads.
     */
    record RoundFigures(double absorbedChangesPerSecond, double cpuMsPerThousand) {}

    /**
     * Figures of one target: the rounds with no view and with all three views, each prepared and
     * literal-laden; per view, its own round.
     *
     * @param allViewsFingerprints each view's fingerprint after the rounds with all three views
     */
    record Figures(
            RoundFigures noViewPrepared,
            RoundFigures noViewLiterals,
            Map<StreamView, ViewFigures> views,
            RoundFigures allViewsPrepared,
            RoundFigures allViewsLiterals,
            Map<StreamView, List<BigDecimal>> allViewsFingerprints) {}

    private final long rows;
    private final int customers;
    private final long changes;
    private final int probes;
    private final int queuedProbes;
    private final int clients;
    /**
     * Whether the rounds of single views send statements as text with their constants instead of
     * prepared with parameters; the rounds with no view and with all views measure both.
     */
    private final boolean literals;

    private final PrintStream progress;
    private final ChangeScript script;
    private final List<List<ChangeScript.Change>> warmUp;
    private final List<List<ChangeScript.Change>> warmUpLiterals;
    private final List<List<ChangeScript.Change>> noView;
    private final List<List<ChangeScript.Change>> noViewLiterals;
    private final Map<StreamView, List<List<ChangeScript.Change>>> rounds = new EnumMap<>(StreamView.class);
    private final List<List<ChangeScript.Change>> allViews;
    private final List<List<ChangeScript.Change>> allViewsLiterals;

    /**
     * @param probes probes per view with implicit flush on
     * @param queuedProbes probes per view with implicit flush off, about a barrier interval each
     */
    StreamWorkload(
            long rows,
            long changes,
            int probes,
            int queuedProbes,
            int clients,
            boolean literals,
            PrintStream progress) {
        this.literals = literals;
        this.rows = rows;
        this.customers = (int) Math.max(1, rows / 20);
        this.changes = changes;
        this.probes = probes;
        this.queuedProbes = queuedProbes;
        this.clients = clients;
        this.progress = progress;
        this.script = new ChangeScript(rows, customers, clients, SEED);
        this.warmUp = script.nextRound(Math.max(clients, changes / WARM_UP_DIVISOR));
        this.warmUpLiterals = script.nextRound(Math.max(clients, changes / WARM_UP_DIVISOR));
        this.noView = script.nextRound(changes);
        this.noViewLiterals = script.nextRound(changes);
        for (StreamView view : StreamView.values()) {
            rounds.put(view, script.nextRound(changes));
        }
        this.allViews = script.nextRound(changes);
        this.allViewsLiterals = script.nextRound(changes);
    }

    int customers() {
        return customers;
    }

    Figures runTributary(BenchTarget target) throws Exception {
        Map<StreamView, ViewFigures> figures = new EnumMap<>(StreamView.class);
        Map<StreamView, List<BigDecimal>> allFingerprints = new EnumMap<>(StreamView.class);
        try (Connection c = target.connect();
                Statement st = c.createStatement()) {
            preload(target, st);
            try (ChangeRunner runner = warmUp(target, st)) {
                RoundFigures prepared = measured(target, runner, "no view", noView, false);
                RoundFigures literal = measured(target, runner, "no view", noViewLiterals, true);
                SplittableRandom pauses = new SplittableRandom(SEED);
                for (StreamView view : StreamView.values()) {
                    figures.put(view, tributaryView(target, st, runner, view, pauses));
                }
                createAll(target, st);
                RoundFigures allPrepared = measured(target, runner, "three views", allViews, false);
                RoundFigures allLiterals = measured(target, runner, "three views", allViewsLiterals, true);
                dropAll(st, allFingerprints);
                return new Figures(prepared, literal, figures, allPrepared, allLiterals, allFingerprints);
            }
        }
    }

    /**
     * Runs a round of changes and measures it: on Tributary, whose views are current when the DML
     * returns, that is the absorbed rate; on PostgreSQL the rate of the DML alone.
     */
    private RoundFigures measured(
            BenchTarget target,
            ChangeRunner runner,
            String label,
            List<List<ChangeScript.Change>> round,
            boolean literal)
            throws Exception {
        long cpuBefore = ProcessCpu.nanos();
        double seconds = runner.run(round, literal) / 1e9;
        long cpu = ProcessCpu.nanos() - cpuBefore;
        double perSecond = changes / seconds;
        double cpuMsPerThousand = target.inProcess() && cpuBefore >= 0 ? cpu / 1e6 / (changes / 1000.0) : Double.NaN;
        progress.printf(
                "%s: %s: %,d %s changes from %d clients took %.1f s (%,.0f changes/s, %.0f ms CPU per 1,000)%n",
                target.name(),
                label,
                changes,
                literal ? "literal-laden" : "prepared",
                clients,
                seconds,
                perSecond,
                cpuMsPerThousand);
        return new RoundFigures(perSecond, cpuMsPerThousand);
    }

    /** Creates all three views, for the rounds that change a table with all of them at once. */
    private void createAll(BenchTarget target, Statement st) throws SQLException {
        for (StreamView view : StreamView.values()) {
            create(target, st, view);
        }
    }

    /** Reads each view's fingerprint into {@code fingerprints} and drops the view. */
    private static void dropAll(Statement st, Map<StreamView, List<BigDecimal>> fingerprints) throws SQLException {
        for (StreamView view : StreamView.values()) {
            fingerprints.put(view, Fingerprint.read(st, view.fingerprintSql()));
            st.execute(view.dropSql());
        }
    }

    private ViewFigures tributaryView(
            BenchTarget target, Statement st, ChangeRunner runner, StreamView view, SplittableRandom pauses)
            throws Exception {
        double createMs = create(target, st, view);
        double perSecond = changes / changes(target, runner, view);
        List<BigDecimal> fingerprint = Fingerprint.read(st, view.fingerprintSql());
        FreshnessProbe.Series committed;
        FreshnessProbe.Series queued;
        try (FreshnessProbe probe = new FreshnessProbe(target, view, customers)) {
            probe.run(WARM_UP_PROBES, 0, pauses);
            committed = probe.run(probes, 0, pauses);
            probe.setImplicitFlush(false);
            queued = probe.run(queuedProbes, BenchTarget.BARRIER_INTERVAL_MS, pauses);
            probe.setImplicitFlush(true);
            probe.deleteProbes();
        }
        st.execute(view.dropSql());
        double[] returned = committed.returnedToVisibleMs();
        double[] sent = committed.sentToVisibleMs();
        return new ViewFigures(
                createMs,
                perSecond,
                perSecond,
                Double.NaN,
                100.0 * committed.visibleAtFirstPoll() / probes,
                Percentiles.of(returned, 50),
                Percentiles.of(returned, 99),
                Percentiles.of(sent, 50),
                Percentiles.of(sent, 99),
                Percentiles.of(queued.sentToVisibleMs(), 50),
                Percentiles.of(queued.sentToVisibleMs(), 99),
                fingerprint);
    }

    Figures runPostgres(BenchTarget target) throws Exception {
        Map<StreamView, ViewFigures> figures = new EnumMap<>(StreamView.class);
        Map<StreamView, List<BigDecimal>> allFingerprints = new EnumMap<>(StreamView.class);
        try (Connection c = target.connect();
                Statement st = c.createStatement()) {
            preload(target, st);
            // Plans of the refreshes are only as good as the statistics, which autovacuum may not have yet.
            st.execute("VACUUM ANALYZE orders");
            st.execute("VACUUM ANALYZE customers");
            try (ChangeRunner runner = warmUp(target, st)) {
                RoundFigures prepared = measured(target, runner, "no view", noView, false);
                RoundFigures literal = measured(target, runner, "no view", noViewLiterals, true);
                for (StreamView view : StreamView.values()) {
                    figures.put(view, postgresView(target, st, runner, view));
                }
                createAll(target, st);
                for (StreamView view : StreamView.values()) {
                    st.execute(view.postgresIndexSql());
                }
                RoundFigures allPrepared = postgresAllViews(target, st, runner, allViews, false);
                RoundFigures allLiterals = postgresAllViews(target, st, runner, allViewsLiterals, true);
                dropAll(st, allFingerprints);
                return new Figures(prepared, literal, figures, allPrepared, allLiterals, allFingerprints);
            }
        }
    }

    /** A round with all three views on PostgreSQL: absorbed when the DML and the three REFRESHes are done. */
    private RoundFigures postgresAllViews(
            BenchTarget target,
            Statement st,
            ChangeRunner runner,
            List<List<ChangeScript.Change>> round,
            boolean literal)
            throws Exception {
        double dmlSeconds = runner.run(round, literal) / 1e9;
        long start = System.nanoTime();
        for (StreamView view : StreamView.values()) {
            st.execute("REFRESH MATERIALIZED VIEW " + view.viewName());
        }
        double refreshSeconds = (System.nanoTime() - start) / 1e9;
        double absorbed = changes / (dmlSeconds + refreshSeconds);
        progress.printf(
                "%s: three views: %,d %s changes took %.1f s, the REFRESHes %.1f s (%,.0f changes/s absorbed)%n",
                target.name(), changes, literal ? "literal-laden" : "prepared", dmlSeconds, refreshSeconds, absorbed);
        return new RoundFigures(absorbed, Double.NaN);
    }

    private ViewFigures postgresView(BenchTarget target, Statement st, ChangeRunner runner, StreamView view)
            throws Exception {
        double createMs = create(target, st, view);
        st.execute(view.postgresIndexSql());
        double dmlSeconds = changes(target, runner, view);
        long start = System.nanoTime();
        st.execute("REFRESH MATERIALIZED VIEW " + view.viewName());
        double refreshMs = (System.nanoTime() - start) / 1e6;
        double absorbedPerSecond = changes / (dmlSeconds + refreshMs / 1e3);
        progress.printf(
                "%s: %s: REFRESH took %.0f ms, %,.0f changes/s absorbed%n",
                target.name(), view.label(), refreshMs, absorbedPerSecond);
        List<BigDecimal> fingerprint = Fingerprint.read(st, view.fingerprintSql());
        double[] freshness = new double[POSTGRES_FRESHNESS_REPEATS];
        try (FreshnessProbe probe = new FreshnessProbe(target, view, customers)) {
            probe.insertAndRefresh(); // unmeasured, as the first use of the connection's statements
            for (int i = 0; i < freshness.length; i++) {
                freshness[i] = probe.insertAndRefresh();
            }
            probe.deleteProbes();
        }
        st.execute(view.dropSql());
        return new ViewFigures(
                createMs,
                changes / dmlSeconds,
                absorbedPerSecond,
                refreshMs,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Percentiles.of(freshness, 50),
                Double.NaN,
                Double.NaN,
                Double.NaN,
                fingerprint);
    }

    /** Creates and fills both tables with {@code INSERT ... SELECT FROM generate_series}. */
    private void preload(BenchTarget target, Statement st) throws SQLException {
        long start = System.nanoTime();
        st.execute("CREATE TABLE customers (id INT PRIMARY KEY, name TEXT, region TEXT)");
        st.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id INT, amount NUMERIC(10,2), status TEXT)");
        st.executeUpdate("INSERT INTO customers SELECT x, 'customer ' || CAST(x AS VARCHAR), 'region '"
                + " || CAST(x % 8 AS VARCHAR) FROM generate_series(1, " + customers + ") AS s(x)");
        // One statement per status, as a CASE of string literals would have a padded CHAR type in some planners.
        for (int k = 0; k < ChangeScript.STATUSES.size(); k++) {
            st.executeUpdate("INSERT INTO orders SELECT x, x % " + customers
                    + " + 1, x % 100000 * 37 % 100000 * 0.01, '"
                    + ChangeScript.STATUSES.get(k) + "' FROM generate_series(1, " + rows + ") AS s(x) WHERE x % "
                    + ChangeScript.STATUSES.size() + " = " + k);
        }
        progress.printf(
                "%s: preloaded %,d orders and %,d customers in %.1f s%n",
                target.name(), rows, customers, (System.nanoTime() - start) / 1e9);
    }

    /**
     * Opens the clients and runs the warm-up round, and creates and drops a small view, so that
     * one-off costs (connections, planning, the JIT) are not charged to the first measured view.
     */
    private ChangeRunner warmUp(BenchTarget target, Statement st) throws Exception {
        long start = System.nanoTime();
        ChangeRunner runner = new ChangeRunner(target, script, clients);
        try {
            runner.run(warmUp, false);
            runner.run(warmUpLiterals, true);
            st.execute(
                    "CREATE MATERIALIZED VIEW bench_warm_up AS SELECT region, count(*) AS n FROM customers GROUP BY region");
            st.execute("DROP MATERIALIZED VIEW bench_warm_up");
        } catch (Exception e) {
            runner.close();
            throw e;
        }
        progress.printf("%s: warm-up took %.1f s%n", target.name(), (System.nanoTime() - start) / 1e9);
        return runner;
    }

    private double create(BenchTarget target, Statement st, StreamView view) throws SQLException {
        long start = System.nanoTime();
        st.execute(view.createSql());
        double ms = (System.nanoTime() - start) / 1e6;
        progress.printf("%s: %s: CREATE MATERIALIZED VIEW took %.0f ms%n", target.name(), view.label(), ms);
        return ms;
    }

    /** Runs the view's round of changes; returns the seconds until the last statement returned. */
    private double changes(BenchTarget target, ChangeRunner runner, StreamView view) throws Exception {
        double seconds = runner.run(rounds.get(view), literals) / 1e9;
        progress.printf(
                "%s: %s: %,d changes from %d clients took %.1f s (%,.0f changes/s)%n",
                target.name(), view.label(), changes, clients, seconds, changes / seconds);
        return seconds;
    }
}
