package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A session's cached plans, by text and by lifted shape (numeric constants as parameters), across
 * the catalog changes that must make them stale: a materialized view created on and dropped from
 * the table, a plain view, the table dropped and created again with other column types and
 * another column order, and {@code search_path} pointing the same name at another table. Each
 * round repeats statement texts seen before (the text cache) and sends the same shapes with new
 * constants (the shape cache); every statement's outcome and both tables after it must be
 * PostgreSQL's. A stale plan would write the old column types or positions, miss the view, or
 * change the table the name meant before. Simple query protocol on one connection, so every
 * statement reuses the one session's cache, as psql's would.
 */
class PlanCacheDifferentialTest {
    /**
     * The same statement on both servers, or where Tributary's form differs, each its own; then
     * only the tables after it are compared, as the two forms' own outcomes differ.
     */
    private record Step(String tributary, String postgres) {
        static Step both(String sql) {
            return new Step(sql, sql);
        }

        boolean sameForm() {
            return tributary.equals(postgres);
        }
    }

    private static final List<String> SETUP = List.of(
            "CREATE SCHEMA other",
            "CREATE TABLE pc (id INT PRIMARY KEY, v INT, s TEXT)",
            "INSERT INTO pc VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'a'), (4, 40, NULL), (5, 50, 'c'), (6, 60, 'b')",
            "CREATE TABLE other.pc (id INT PRIMARY KEY, v INT, s TEXT)",
            "INSERT INTO other.pc VALUES (1, 100, 'x'), (2, 200, 'y'), (3, 300, 'x')");

    private static final List<String> CHECKS =
            List.of("SELECT * FROM public.pc ORDER BY 1", "SELECT * FROM other.pc ORDER BY 1");

    private Connection pg;
    private InProcessTributary tributary;

    @AfterEach
    void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void cachedPlansFollowTheCatalog() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("plan-cache-diff-", 20, "postgres", "?preferQueryMode=simple", 60);
        List<Step> steps = new ArrayList<>();
        SETUP.forEach(sql -> steps.add(Step.both(sql)));
        round(steps, 1);
        round(steps, 2);
        // PostgreSQL's materialized view is not maintained, so its plain view of the query stands in
        String groups = "SELECT s, count(*) AS n, sum(v) AS total FROM pc GROUP BY s";
        steps.add(new Step("CREATE MATERIALIZED VIEW pcm AS " + groups, "CREATE VIEW pcm AS " + groups));
        round(steps, 3);
        steps.add(Step.both("SELECT * FROM pcm ORDER BY s"));
        steps.add(new Step("DROP MATERIALIZED VIEW pcm", "DROP VIEW pcm"));
        round(steps, 4);
        steps.add(Step.both("CREATE VIEW pcv AS SELECT id, v FROM pc WHERE v > 20"));
        round(steps, 5);
        steps.add(Step.both("SELECT * FROM pcv ORDER BY id"));
        steps.add(Step.both("DROP VIEW pcv"));
        // the same name, other column types: a plan of the old table would write integers
        steps.add(Step.both("DROP TABLE pc"));
        steps.add(Step.both("CREATE TABLE pc (id INT PRIMARY KEY, v NUMERIC(10,2), s TEXT)"));
        steps.add(Step.both("INSERT INTO pc VALUES (1, 10.5, 'a'), (2, 20.25, 'b'), (3, 30, NULL), (7, 70.75, 'c')"));
        round(steps, 6);
        // and another column order: a plan of the old table would write the wrong columns
        steps.add(Step.both("DROP TABLE pc"));
        steps.add(Step.both("CREATE TABLE pc (id BIGINT PRIMARY KEY, s TEXT, v INT)"));
        steps.add(Step.both("INSERT INTO pc VALUES (1, 'a', 16), (2, 'b', 26), (9, 'c', 36)"));
        round(steps, 7);
        // the same texts now name other.pc, then public.pc again
        steps.add(Step.both("SET search_path = other, public"));
        round(steps, 8);
        steps.add(Step.both("SET search_path = public"));
        round(steps, 9);

        List<String> mismatches = new ArrayList<>();
        for (Step step : steps) {
            String expected = outcome(pg, step.postgres(), step.sameForm());
            String actual = outcome(tributary.connection, step.tributary(), step.sameForm());
            if (!expected.equals(actual)) {
                mismatches.add(step.tributary() + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), mismatches);
    }

    /**
     * Statements of the shapes the caches keep: two texts sent in every round (cached by text)
     * and shapes whose constants change with {@code k} (cached by shape).
     */
    private static void round(List<Step> steps, int k) {
        steps.add(Step.both("UPDATE pc SET v = v + 1 WHERE v > 15"));
        steps.add(Step.both("UPDATE pc SET v = v + " + k + " WHERE v > " + (20 + k)));
        steps.add(Step.both("SELECT id, v, s FROM pc WHERE v > 25 ORDER BY id"));
        steps.add(Step.both("UPDATE pc SET v = v * " + (k % 3 + 1) + " WHERE id <> " + k + " AND v < 40"));
        steps.add(Step.both("DELETE FROM pc WHERE v > " + (1000 + k) + " OR id = " + (100 + k)));
        steps.add(Step.both("UPDATE pc SET v = v - " + k + " WHERE v >= " + (200 - k)));
    }

    /** The statement's outcome (unless not {@code compared}: then only run), then every check's, as text. */
    private static String outcome(Connection c, String sql, boolean compared) {
        String own = StatementOutcome.of(c, sql, false);
        StringBuilder out = new StringBuilder(compared ? own : "-");
        for (String check : CHECKS) {
            out.append(" | ").append(StatementOutcome.of(c, check, false));
        }
        return out.toString();
    }
}
