package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Materialized views under {@code kill -9}: writers run DML against the tables of aggregation, join, top-N,
 * window-function and stacked views in a child-process server that is killed at a random moment and restarted on the same data
 * directory. After every restart each view must equal its query run as a plain SELECT over the recovered tables
 * (the view contents commit in the same atomic epoch write as the tables, so nothing may be half applied), and
 * the views must keep following new writes. Writer 0 runs with {@code IMPLICIT_FLUSH = false}, so several of its
 * changes, often to the same rows, land in one epoch and some are still queued when the server dies. The kill
 * moment depends on timing, so a seed fixes the workload and the delays but cannot replay a run exactly; rerun a
 * seed with {@code -Dviewcrash.seed=N}.
 */
class ViewCrashTest {
    private static final int WRITERS = 3;
    private static final int TRIALS = 2;
    private static final int CYCLES_PER_TRIAL = 2;
    private static final long BARRIER_INTERVAL_MS = 20;
    /** Writer w owns account ids [w * ID_SPAN, (w + 1) * ID_SPAN). */
    private static final long ID_SPAN = 1_000_000_000L;

    private static final int REGIONS = 8;
    private static final String[] KINDS = {"buy", "sell", "fee"};

    /** View name to its query; the order is creation order (later views read earlier ones). */
    private static final Map<String, String> VIEWS = new LinkedHashMap<>();

    static {
        VIEWS.put(
                "by_region",
                "SELECT region, count(*) AS n, sum(balance) AS total, min(balance) AS lo,"
                        + " max(balance) AS hi FROM acct GROUP BY region");
        VIEWS.put("acct_events", "SELECT a.id, a.region, e.kind, e.amount FROM acct a JOIN events e ON e.acct = a.id");
        VIEWS.put(
                "region_kind",
                "SELECT a.region, e.kind, count(*) AS n, sum(e.amount) AS s, count(DISTINCT e.acct)"
                        + " AS accts FROM acct a JOIN events e ON a.id = e.acct AND e.amount > a.region GROUP BY a.region, e.kind");
        VIEWS.put(
                "event_counts",
                "SELECT a.id, count(e.acct) AS events FROM acct a LEFT JOIN events e"
                        + " ON e.acct = a.id GROUP BY a.id");
        VIEWS.put(
                "orphans",
                "SELECT e.acct, e.kind, e.amount FROM acct a RIGHT JOIN events e ON e.acct = a.id"
                        + " WHERE a.id IS NULL");
        VIEWS.put("richest", "SELECT id, balance FROM acct ORDER BY balance DESC, id LIMIT 5");
        // window functions (recomputed per touched partition) and a group top-N; updates move rows between regions
        VIEWS.put(
                "region_ranks",
                "SELECT id, region, rank() OVER (PARTITION BY region ORDER BY balance DESC) AS r,"
                        + " sum(balance) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)"
                        + " AS s2 FROM acct");
        VIEWS.put(
                "region_top2",
                "SELECT id, region, balance FROM (SELECT id, region, balance, row_number() OVER"
                        + " (PARTITION BY region ORDER BY balance DESC, id) AS rn FROM acct) x WHERE rn <= 2");
        VIEWS.put("totals", "SELECT count(*) AS regions, sum(total) AS total, max(hi) AS hi FROM by_region");
        // time windows over a time derived from the balance: a HOP expands each row into three windows
        VIEWS.put(
                "acct_times",
                "SELECT id, region, TIMESTAMP '2026-01-01 00:00:00' + balance * INTERVAL '1' SECOND AS ts FROM acct");
        VIEWS.put(
                "balance_windows",
                "SELECT window_start, count(*) AS n, sum(region) AS regions"
                        + " FROM HOP(acct_times, ts, INTERVAL '10' SECOND, INTERVAL '30' SECOND) GROUP BY window_start");
        VIEWS.put(
                "region_windows",
                "SELECT region, window_end, count(*) AS n"
                        + " FROM TUMBLE(acct_times, ts, INTERVAL '25' SECOND) GROUP BY region, window_end");
    }

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void viewsEqualTheirQueriesAfterKill9AndKeepUpdating() throws Exception {
        long baseSeed = Long.getLong("viewcrash.seed", System.nanoTime());
        for (int trial = 0; trial < TRIALS; trial++) {
            long seed = baseSeed + trial;
            System.out.println("view crash trial " + trial + ": seed " + seed);
            try {
                runTrial(seed, tempDir.resolve("trial-" + trial));
            } catch (AssertionError | Exception e) {
                throw new AssertionError(
                        "view crash trial failed with seed " + seed + " (-Dviewcrash.seed=" + seed + "): "
                                + e.getMessage(),
                        e);
            }
        }
    }

    private void runTrial(long seed, Path dataDir) throws Exception {
        Random random = new Random(seed);
        List<ViewWriter> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            writers.add(new ViewWriter(w, seed * 31 + w));
        }
        ServerProcess server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE acct (id BIGINT PRIMARY KEY, region INT, balance INT)");
            st.execute("CREATE TABLE events (acct BIGINT, kind TEXT, amount INT)");
            // Some rows exist before the views, so their creation starts from a snapshot.
            for (ViewWriter w : writers) {
                st.executeUpdate(w.insertAccounts());
                st.executeUpdate(w.insertEvents());
            }
            for (Map.Entry<String, String> v : VIEWS.entrySet()) {
                st.execute("CREATE MATERIALIZED VIEW " + v.getKey() + " AS " + v.getValue());
            }
            checkViews(c, "after creating the views");
        }
        for (int cycle = 0; cycle < CYCLES_PER_TRIAL; cycle++) {
            long delayMs = 300 + random.nextInt(2000);
            server.writeThenKill(writers, delayMs);
            long t0 = System.nanoTime();
            server = start(dataDir);
            long restartMs = (System.nanoTime() - t0) / 1_000_000;
            try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                    Statement st = c.createStatement()) {
                checkViews(c, "after restart in cycle " + cycle);
                // The recovered jobs must keep maintaining the views.
                for (ViewWriter w : writers) {
                    for (int i = 0; i < 4; i++) {
                        st.executeUpdate(w.nextStatement());
                    }
                }
                checkViews(c, "after writes following the restart in cycle " + cycle);
                System.out.printf(
                        "  cycle %d: killed %d ms after the writers started, %d statements acknowledged so"
                                + " far, restart %d ms, %d accounts, %d events%n",
                        cycle,
                        delayMs,
                        writers.stream().mapToLong(ViewWriter::acknowledged).sum(),
                        restartMs,
                        count(st, "acct"),
                        count(st, "events"));
            }
        }
        server.close();
    }

    private ServerProcess start(Path dataDir) throws Exception {
        return servers.start(dataDir, BARRIER_INTERVAL_MS);
    }

    /** Every view must hold exactly the rows its query returns over the current tables. */
    private static void checkViews(Connection c, String when) throws SQLException {
        List<String> shown = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW MATERIALIZED VIEWS")) {
            while (rs.next()) {
                shown.add(rs.getString(1));
            }
        }
        assertEquals(VIEWS.keySet().stream().sorted().toList(), shown, "views listed " + when);
        for (Map.Entry<String, String> v : VIEWS.entrySet()) {
            List<String> view = sortedRows(c, "SELECT * FROM " + v.getKey());
            List<String> query = sortedRows(c, v.getValue());
            if (!view.equals(query)) {
                throw new AssertionError("view " + v.getKey() + " differs from its query " + when + ": "
                        + v.getValue() + "\n  view rows  (" + view.size() + "): " + preview(view)
                        + "\n  query rows (" + query.size() + "): " + preview(query));
            }
        }
    }

    private static List<String> sortedRows(Connection c, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringJoiner row = new StringJoiner("|");
                for (int i = 1; i <= n; i++) {
                    row.add(String.valueOf(rs.getString(i)));
                }
                rows.add(row.toString());
            }
        }
        rows.sort(null);
        return rows;
    }

    private static String preview(List<String> rows) {
        return String.join(" ", rows.subList(0, Math.min(10, rows.size()))) + (rows.size() > 10 ? " ..." : "");
    }

    private static long count(Statement st, String table) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * One client changing only its own accounts and events: inserts, updates that move accounts between regions,
     * deletes (leaving orphaned events), event inserts and deletes. It predicts nothing: the oracle is the views'
     * queries over whatever the recovered tables hold. Survives restarts: {@link #run} is called once per server
     * life.
     */
    private static final class ViewWriter implements CrashWriter {
        private final int id;
        /** Whether statements return once queued rather than once committed. */
        private final boolean queued;

        private final Random random;
        private long nextAccount;
        private long acknowledged;

        ViewWriter(int id, long seed) {
            this.id = id;
            this.queued = id == 0;
            this.random = new Random(seed);
            this.nextAccount = id * ID_SPAN;
        }

        long acknowledged() {
            return acknowledged;
        }

        /**
         * Writes until a statement fails; a failure after {@code killing} was set is the crash, one before it a bug.
         *
         * @throws AssertionError when a statement fails on a live server
         */
        @Override
        public void run(String jdbcUrl, AtomicBoolean killing, CountDownLatch firstAcknowledged) {
            try (Connection c = DriverManager.getConnection(jdbcUrl);
                    Statement st = c.createStatement()) {
                if (queued) {
                    st.execute("SET IMPLICIT_FLUSH = false");
                }
                while (true) {
                    String sql = nextStatement();
                    try {
                        st.executeUpdate(sql);
                    } catch (SQLException e) {
                        if (!killing.get()) {
                            throw new AssertionError("writer " + id + ": statement failed on a live server: " + sql, e);
                        }
                        return;
                    }
                    acknowledged++;
                    firstAcknowledged.countDown();
                }
            } catch (SQLException e) {
                if (!killing.get()) {
                    throw new AssertionError("writer " + id + ": cannot connect to a live server", e);
                }
            }
        }

        String nextStatement() {
            int dice = random.nextInt(100);
            if (nextAccount == id * ID_SPAN || dice < 20) {
                return insertAccounts();
            }
            if (dice < 45) {
                return insertEvents();
            }
            long from = ownedAccount();
            if (dice < 65) {
                return "UPDATE acct SET balance = balance + " + (random.nextInt(41) - 20) + ", region = (region + "
                        + random.nextInt(3) + ") % " + REGIONS + " WHERE id BETWEEN " + from + " AND "
                        + (from + random.nextInt(8));
            }
            if (dice < 80) {
                return "DELETE FROM acct WHERE id BETWEEN " + from + " AND " + (from + random.nextInt(3));
            }
            if (dice < 90) {
                return "UPDATE events SET amount = amount - 1, kind = '" + KINDS[random.nextInt(KINDS.length)]
                        + "' WHERE acct BETWEEN " + from + " AND " + (from + random.nextInt(4));
            }
            return "DELETE FROM events WHERE acct = " + from + " AND kind = '" + KINDS[random.nextInt(KINDS.length)]
                    + "'";
        }

        String insertAccounts() {
            StringJoiner values = new StringJoiner(", ", "INSERT INTO acct VALUES ", "");
            for (int i = 0; i < 5; i++) {
                values.add("(" + nextAccount++ + ", " + random.nextInt(REGIONS) + ", " + (random.nextInt(201) - 100)
                        + ")");
            }
            return values.toString();
        }

        String insertEvents() {
            StringJoiner values = new StringJoiner(", ", "INSERT INTO events VALUES ", "");
            for (int i = 0; i < 6; i++) {
                values.add("(" + ownedAccount() + ", '" + KINDS[random.nextInt(KINDS.length)] + "', "
                        + random.nextInt(50) + ")");
            }
            return values.toString();
        }

        /** An account id this writer has inserted at some point (it may have been deleted since). */
        private long ownedAccount() {
            long base = id * ID_SPAN;
            return base + (long) (random.nextDouble() * Math.max(1, nextAccount - base));
        }
    }
}
