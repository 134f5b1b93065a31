package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tributary.differential.ViewCorpus.Table;
import io.tributary.differential.ViewCorpus.View;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Differential test of incremental materialized views: random schemas, views from every template of
 * {@link ViewCorpus} (views on views included) and rounds of random INSERT/UPDATE/DELETE run on Tributary
 * (in-process) and on an embedded PostgreSQL. On PostgreSQL each view is a plain {@code CREATE VIEW} of the same
 * query, so reading it runs the query on the current tables; after each round every Tributary view must hold the
 * same rows as a multiset.
 *
 * <p>Half of each case's views are created on empty tables and follow the initial inserts; the other half are
 * created over the filled tables. Each case also runs with a random {@code STREAMING_PARALLELISM} of 1 to 4.
 *
 * <p>Deterministic for a seed: {@code -Dviewdiff.seed=N} replays a run, {@code -Dviewdiff.case=C} only its case C
 * (both are printed with every failure); {@code -Dviewdiff.cases} and {@code -Dviewdiff.rounds} size the run.
 */
class ViewDifferentialTest {
    private static final long DEFAULT_SEED = 20260301L;
    private static final int CASES = Integer.getInteger("viewdiff.cases", 5);
    private static final int ROUNDS = Integer.getInteger("viewdiff.rounds", 4);
    /** Random template instances per case on top of one instance of every template. */
    private static final int EXTRA_INSTANCES = 4;

    private static final int MAX_REPORTED = 25;
    private static final Pattern VIEW_NAME = Pattern.compile("\\bc\\d+_v\\d+\\b");

    private static Connection pg;
    private static InProcessTributary tributary;
    private static Connection trib;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        // DML forces its own early barrier; a long interval keeps idle barriers through ~40 jobs from eating the CPU.
        tributary = InProcessTributary.temporary("viewdiff-", 1000, "root", "", 60);
        trib = tributary.connection;
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void viewsMatchPostgres() throws Exception {
        long seed = Long.getLong("viewdiff.seed", DEFAULT_SEED);
        int only = Integer.getInteger("viewdiff.case", -1);
        System.out.println("view differential: seed " + seed + " (-Dviewdiff.seed=" + seed + ")");
        Run run = new Run(seed);
        long started = System.nanoTime();
        for (int c = 0; c < CASES; c++) {
            if (only < 0 || only == c) {
                run.runCase(c);
            }
        }
        System.out.printf(
                "view differential: seed=%d cases=%d views=%d view checks=%d mismatching views=%d"
                        + " time=%d ms (create %d, dml %d, compare %d)%n",
                seed,
                only < 0 ? CASES : 1,
                run.views,
                run.checks,
                run.failures.size(),
                (System.nanoTime() - started) / 1_000_000,
                run.createNanos / 1_000_000,
                run.dmlNanos / 1_000_000,
                run.compareNanos / 1_000_000);
        if (!run.failures.isEmpty()) {
            StringBuilder sb = new StringBuilder(run.failures.size() + " views differ from PostgreSQL (seed " + seed
                    + "); templates: " + run.failingTemplates + "\n");
            run.failures.values().stream()
                    .limit(MAX_REPORTED)
                    .forEach(f -> sb.append(f).append('\n'));
            fail(sb.toString());
        }
    }

    /**
     * EXPLAIN CREATE MATERIALIZED VIEW prints the stream plan (one text column, {@code QUERY PLAN}) naming its
     * operators, and creates nothing; SHOW MATERIALIZED VIEWS has one column, {@code Name}.
     */
    @Test
    void explainPrintsTheStreamPlanAndCreatesNothing() throws SQLException {
        exec(trib, "CREATE TABLE ex_t (id INT PRIMARY KEY, g INT, v INT)");
        exec(trib, "CREATE TABLE ex_u (id INT PRIMARY KEY, g INT)");
        Map<String, List<String>> plans = new LinkedHashMap<>();
        plans.put("SELECT id, v FROM ex_t WHERE v > 0", List.of("Materialize"));
        plans.put("SELECT g, count(*) AS c, sum(v) AS s FROM ex_t GROUP BY g", List.of("HashAgg", "Materialize"));
        plans.put(
                "SELECT t.id, u.id AS uid FROM ex_t t LEFT JOIN ex_u u ON t.g = u.g AND t.v > u.id",
                List.of("HashJoin", "Materialize"));
        plans.put("SELECT id, v FROM ex_t ORDER BY v DESC, id LIMIT 3", List.of("TopN", "Materialize"));
        plans.put(
                "SELECT u.g, count(*) AS c FROM ex_t t JOIN ex_u u ON t.g = u.g GROUP BY u.g",
                List.of("HashJoin", "HashAgg", "Materialize"));
        try (Statement st = trib.createStatement()) {
            for (Map.Entry<String, List<String>> e : plans.entrySet()) {
                StringBuilder text = new StringBuilder();
                try (ResultSet rs = st.executeQuery("EXPLAIN CREATE MATERIALIZED VIEW ex_v AS " + e.getKey())) {
                    assertEquals(1, rs.getMetaData().getColumnCount(), e.getKey());
                    assertEquals("QUERY PLAN", rs.getMetaData().getColumnLabel(1), e.getKey());
                    while (rs.next()) {
                        text.append(rs.getString(1)).append('\n');
                    }
                }
                for (String operator : e.getValue()) {
                    assertTrue(
                            text.indexOf(operator) >= 0, "plan of " + e.getKey() + " lacks " + operator + ":\n" + text);
                }
            }
            exec(trib, "CREATE MATERIALIZED VIEW ex_real AS SELECT g FROM ex_t");
            List<String> names = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SHOW MATERIALIZED VIEWS")) {
                assertEquals(1, rs.getMetaData().getColumnCount());
                assertEquals("Name", rs.getMetaData().getColumnLabel(1));
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            assertTrue(names.contains("ex_real"), names.toString());
            assertFalse(names.contains("ex_v"), "EXPLAIN created a view: " + names);
        } finally {
            exec(trib, "DROP TABLE ex_u");
            exec(trib, "DROP TABLE ex_t CASCADE");
        }
    }

    /** One run over all cases of a seed, collecting the first difference of every failing view. */
    private static final class Run {
        private final long seed;
        /** View name (or a case-level key) to its first failure. */
        private final Map<String, String> failures = new LinkedHashMap<>();

        private final Set<String> failingTemplates = new TreeSet<>();
        private final Map<String, View> byName = new TreeMap<>();
        private int views;
        private int checks;
        /** Nanoseconds spent creating views, running DML and comparing views, for the summary line. */
        private long createNanos;

        private long dmlNanos;
        private long compareNanos;

        Run(long seed) {
            this.seed = seed;
        }

        void runCase(int caseNo) throws SQLException {
            Random r = new Random(seed * 1_000_003L + caseNo);
            ViewCorpus corpus = new ViewCorpus(r, "c" + caseNo);
            String where = "seed " + seed + " case " + caseNo + " (-Dviewdiff.seed=" + seed + " -Dviewdiff.case="
                    + caseNo + ")";
            int parallelism = 1 + r.nextInt(4);
            List<String> templates = new ArrayList<>(ViewCorpus.TEMPLATES);
            for (int i = 0; i < EXTRA_INSTANCES; i++) {
                templates.add(ViewCorpus.TEMPLATES.get(r.nextInt(ViewCorpus.TEMPLATES.size())));
            }
            Collections.shuffle(templates, r);
            List<List<View>> early = new ArrayList<>();
            List<List<View>> late = new ArrayList<>();
            for (String t : templates) {
                (r.nextBoolean() ? early : late).add(corpus.views(t));
            }

            String set = tryExec(trib, "SET STREAMING_PARALLELISM = " + parallelism);
            if (set != null) {
                failures.putIfAbsent("SET STREAMING_PARALLELISM", where + ": SET STREAMING_PARALLELISM failed: " + set);
            }
            for (Table t : corpus.tables()) {
                bothOrFail(where, ViewCorpus.ddl(t));
            }
            try {
                List<View> live = new ArrayList<>();
                create(where, early, live);
                for (Table t : corpus.tables()) {
                    for (String sql : corpus.inserts(t, 30 + r.nextInt(40))) {
                        if (!dml(where + " initial data", sql)) {
                            return;
                        }
                    }
                }
                create(where, late, live);
                compareAll(where + " after the initial data", live);
                for (int round = 1; round <= ROUNDS; round++) {
                    for (String sql : corpus.round()) {
                        if (!dml(where + " round " + round, sql)) {
                            return;
                        }
                    }
                    compareAll(where + " round " + round, live);
                }
            } finally {
                dropTables(where, corpus);
            }
        }

        /** Drops the case's tables and, by CASCADE, its views, so that later cases do not pay for their jobs. */
        private void dropTables(String where, ViewCorpus corpus) throws SQLException {
            for (Table t : corpus.tables()) {
                exec(pg, "DROP TABLE " + t.name() + " CASCADE");
                String drop = tryExec(trib, "DROP TABLE " + t.name() + " CASCADE");
                if (drop != null) {
                    failures.putIfAbsent(
                            "drop " + t.name(), where + ": DROP TABLE " + t.name() + " CASCADE failed: " + drop);
                }
            }
        }

        /** Creates the views on both sides; a view Tributary refuses is a failure, and the rest of its chain is skipped. */
        private void create(String where, List<List<View>> instances, List<View> live) throws SQLException {
            long t0 = System.nanoTime();
            for (List<View> chain : instances) {
                for (View v : chain) {
                    String pgError = tryExec(pg, "CREATE VIEW " + v.name() + " AS " + v.sql());
                    if (pgError != null) {
                        throw new AssertionError(
                                where + ": the generator made a query PostgreSQL rejects (a test bug): " + pgError
                                        + "\n  " + v.sql());
                    }
                    byName.put(v.name(), v);
                    views++;
                    String error = tryExec(trib, "CREATE MATERIALIZED VIEW " + v.name() + " AS " + v.sql());
                    if (error != null) {
                        fail(where, v, "CREATE MATERIALIZED VIEW failed: " + error);
                        break;
                    }
                    live.add(v);
                }
            }
            createNanos += System.nanoTime() - t0;
        }

        private void compareAll(String where, List<View> live) {
            long t0 = System.nanoTime();
            for (View v : live) {
                checks++;
                String diff = ViewResults.difference(
                        ViewResults.read(pg, "SELECT * FROM " + v.name()),
                        ViewResults.read(trib, "SELECT * FROM " + v.name()),
                        v.approxNumeric());
                if (diff != null) {
                    fail(where, v, diff);
                }
            }
            compareNanos += System.nanoTime() - t0;
        }

        /** Runs a DML statement on both sides; false (and a failure) when the outcomes differ. */
        private boolean dml(String where, String sql) {
            long t0 = System.nanoTime();
            String p = outcome(pg, sql);
            String t = outcome(trib, sql);
            dmlNanos += System.nanoTime() - t0;
            if (p.startsWith("ERROR") && !t.startsWith("ERROR")) {
                throw new AssertionError(where + ": the generator made a statement PostgreSQL rejects (a test bug): "
                        + p + "\n  " + sql);
            }
            if (!p.equals(t) && !(p.startsWith("ERROR") && t.startsWith("ERROR"))) {
                failures.putIfAbsent(
                        "dml " + where,
                        where + ": DML outcome differs, case abandoned\n  " + sql + "\n  postgresql: " + p
                                + "\n  tributary:  " + t);
                return false;
            }
            return true;
        }

        private void bothOrFail(String where, String sql) throws SQLException {
            exec(pg, sql);
            String error = tryExec(trib, sql);
            if (error != null) {
                throw new AssertionError(where + ": " + sql + " failed on Tributary: " + error);
            }
        }

        private void fail(String where, View v, String what) {
            failingTemplates.add(v.template());
            failures.putIfAbsent(
                    v.name(),
                    where + " view " + v.name() + " (template " + v.template() + "): " + what
                            + "\n  CREATE MATERIALIZED VIEW " + v.name() + " AS " + v.sql() + readsFrom(v));
        }

        /** The definitions of the views {@code v} reads, so that a failure report is self-contained. */
        private String readsFrom(View v) {
            StringBuilder sb = new StringBuilder();
            Matcher m = VIEW_NAME.matcher(v.sql());
            while (m.find()) {
                View base = byName.get(m.group());
                if (base != null) {
                    sb.append("\n  reads CREATE MATERIALIZED VIEW ")
                            .append(base.name())
                            .append(" AS ")
                            .append(base.sql())
                            .append(readsFrom(base));
                }
            }
            return sb.toString();
        }
    }

    private static String outcome(Connection c, String sql) {
        try (Statement st = c.createStatement()) {
            return "count " + st.executeUpdate(sql);
        } catch (SQLException e) {
            return "ERROR [" + e.getSQLState() + "] " + e.getMessage();
        }
    }

    /** Null on success, otherwise the error. */
    private static String tryExec(Connection c, String sql) {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
            return null;
        } catch (SQLException e) {
            return "[" + e.getSQLState() + "] " + e.getMessage();
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
