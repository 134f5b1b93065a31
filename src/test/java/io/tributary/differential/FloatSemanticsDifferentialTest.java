package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Float semantics PostgreSQL fixes where Java's differ: NaN equals NaN and sorts above every other
 * float (Infinity included) in comparisons, greatest/least, min/max and ORDER BY, for float8 and
 * real, over constants and columns; a float8 beyond real's range cast to real is 22003 (overflow or
 * underflow); a float8 cast to numeric reads the float's 15 significant digits. Run in order on Tributary and on an embedded PostgreSQL: each statement's rows
 * (labels, JDBC types and texts) or SQLSTATE must match.
 */
class FloatSemanticsDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE fs (id INT PRIMARY KEY, d DOUBLE PRECISION, r REAL)",
            "INSERT INTO fs VALUES (1, 'NaN', 'NaN'), (2, 1e300, 3e38), (3, 'Infinity', 'Infinity'),"
                    + " (4, '-Infinity', '-Infinity'), (5, 0, 0), (6, NULL, NULL), (7, 'NaN', 'NaN'), (8, -1.5, -1.5)",
            // constants
            "SELECT 'NaN'::float8 = 'NaN'::float8 AS a, 'NaN'::float8 > 1e300 AS b, 'NaN'::float8 < 'Infinity' AS c,"
                    + " 'NaN'::float8 <> 'NaN'::float8 AS d, 'NaN'::float8 >= 'Infinity' AS e, 'NaN'::float8 <= 0 AS f",
            "SELECT 'NaN'::real = 'NaN'::real AS a, 'NaN'::real > 'Infinity'::real AS b, 'NaN'::real < 1 AS c",
            // columns
            "SELECT id FROM fs WHERE d = 'NaN'::float8 ORDER BY id",
            "SELECT id FROM fs WHERE d > 1e300 ORDER BY id",
            "SELECT id FROM fs WHERE d >= 'Infinity' ORDER BY id",
            "SELECT id FROM fs WHERE d < 'NaN' ORDER BY id",
            "SELECT id FROM fs WHERE d <= 0 ORDER BY id",
            "SELECT id FROM fs WHERE d <> 'NaN' ORDER BY id",
            "SELECT id FROM fs WHERE r = 'NaN'::real ORDER BY id",
            "SELECT id FROM fs WHERE r > 1 ORDER BY id",
            "SELECT id, d = d AS self, d < 'Infinity' AS lt FROM fs ORDER BY id",
            "SELECT greatest(d, 1e300), least(d, '-Infinity'), greatest(r, 1), least(r, 'NaN') FROM fs ORDER BY id",
            "SELECT max(d), min(d), max(r), min(r) FROM fs",
            "SELECT max(d), min(d) FROM fs WHERE id IN (1, 2, 3)",
            "SELECT id, d FROM fs ORDER BY d, id",
            "SELECT id, r FROM fs ORDER BY r DESC, id",
            // one float sort key (Calcite's comparator failed on NaN), DISTINCT, GROUP BY, LIMIT
            "SELECT d FROM fs ORDER BY d",
            "SELECT r FROM fs ORDER BY r DESC",
            "SELECT DISTINCT d FROM fs ORDER BY d",
            "SELECT r, count(*) FROM fs GROUP BY r ORDER BY r DESC",
            "SELECT id FROM fs ORDER BY d DESC NULLS LAST, id LIMIT 3",
            "SELECT id % 2 AS k, max(d) AS hi, min(d) AS lo, max(r) AS rhi, min(r) AS rlo FROM fs GROUP BY id % 2 ORDER BY k",
            "SELECT max(d) FILTER (WHERE id > 2) AS a, min(r) FILTER (WHERE id = 1) AS b FROM fs",
            // IN lists and BETWEEN (Calcite folds them into ranges of Java's order)
            "SELECT id FROM fs WHERE d IN ('NaN', 0) ORDER BY id",
            "SELECT id FROM fs WHERE d NOT IN ('NaN', 0) ORDER BY id",
            "SELECT id FROM fs WHERE d BETWEEN 0 AND 'NaN' ORDER BY id",
            "SELECT id FROM fs WHERE d BETWEEN 0 AND CAST('NaN' AS float8) ORDER BY id",
            "SELECT id FROM fs WHERE r BETWEEN 'Infinity' AND 'NaN' ORDER BY id",
            "SELECT id FROM fs WHERE d BETWEEN -1.5 AND 'Infinity' ORDER BY id",
            "SELECT id FROM fs WHERE d NOT BETWEEN -1.5 AND 1e300 ORDER BY id",
            // a multi-row INSERT assigns 'NaN' to the float column beside number constants
            "CREATE TABLE fi (id INT PRIMARY KEY, d DOUBLE PRECISION, r REAL)",
            "INSERT INTO fi VALUES (1, 'NaN', 'NaN'), (2, 1e300, 1.5), (3, 'Infinity', '-Infinity')",
            "INSERT INTO fi VALUES (4, 'NaN', 2), (5, 1 + 1, 'NaN'), (6, -2.5e-3, 1e3)",
            "SELECT * FROM fi ORDER BY id",
            // real to numeric: the real's 6 significant digits
            "SELECT 3.4e38::real::numeric AS a, 1.5::real::numeric AS b, 0.1::real::numeric AS c",
            "SELECT r::numeric FROM fs WHERE id IN (2, 5, 8) ORDER BY id",
            "SELECT d % 2 FROM fs",
            "SELECT (r * 3)::numeric AS n, (r / 7)::numeric(10, 4) AS m FROM fs WHERE id = 8",
            "SELECT 0.1::float8::numeric + 0.2::float8::numeric AS a, (0.1::float8 + 0.2::float8)::numeric AS b",
            // float8 to real beyond real's range
            "SELECT 1.7976931348623157e308::float8::real",
            "SELECT (d / 1e300 / 1e300)::real FROM fs WHERE id = 2",
            "SELECT 3e38::float8::real AS a, 'Infinity'::float8::real AS b, 'NaN'::float8::real AS c, 0::float8::real AS d",
            "SELECT d::real FROM fs WHERE id = 2",
            // floats to numeric
            "SELECT 0.1::float8::numeric AS a, 1e300::float8::numeric = 1e300 AS b, 1e-20::float8::numeric AS e",
            "SELECT d::numeric FROM fs WHERE id IN (5, 8) ORDER BY id",
            // a written float8::numeric is a numeric: its remainder is numeric's (d % 2 above is 42883)
            "SELECT d::numeric % 2 AS m, (d * 3)::numeric % 1 AS f FROM fs WHERE id IN (5, 8) ORDER BY id",
            "SELECT (0.1::float8 + 0.2::float8)::numeric AS a, (0.1::float8 + 0.2::float8)::numeric(20, 18) AS b,"
                    + " (1::float8 / 3)::numeric AS c, 1e16::float8::numeric AS d, 123456789.123456789::float8::numeric AS e",
            // cbrt
            "SELECT cbrt(8::float8) AS a, cbrt(64::float8) AS c, cbrt(1000::float8) AS d, cbrt(0.001::float8) AS f",
            "SELECT variance(DISTINCT i) AS v FROM (VALUES (1), (2), (2), (4)) t(i)",
            // glibc's cbrt is off by an ulp where Java's is exact (27, -27, 2, 0.125): a README deviation
            "SELECT cbrt(-8::float8) AS g, cbrt(125::float8) AS h, cbrt(-1000::float8) AS i",
            "SELECT cbrt(d) FROM fs WHERE id <> 8 ORDER BY id",
            "SELECT variance(DISTINCT d) AS v, stddev(DISTINCT d) AS s, var_pop(DISTINCT d) AS vp, stddev_pop(DISTINCT d) AS sp"
                    + " FROM (VALUES (0.1::float8), (0.2), (0.2), (0.7), (1e10)) t(d)",
            "SELECT variance(DISTINCT r) AS v, stddev(DISTINCT r) AS s, var_pop(DISTINCT r) AS p, stddev_pop(DISTINCT r) AS q"
                    + " FROM (VALUES (0.1::real), (0.2::real), (0.2::real), (0.7::real), (-0.7::real)) t(r)",
            "SELECT id % 2 AS k, variance(DISTINCT r) AS v, stddev_samp(DISTINCT r) AS s FROM fs WHERE id IN (2, 5, 8)"
                    + " GROUP BY id % 2 ORDER BY k",
            "SELECT variance(DISTINCT d) AS v, stddev_samp(DISTINCT d) AS s FROM (VALUES (1.5::float8), (1.5)) t(d)",
            // a real beside a numeric constant is real in PostgreSQL's common type (double beside a double)
            "SELECT pg_typeof(x)::text AS t, x FROM (VALUES (0.1::real), (0.2)) v(x) ORDER BY x",
            "SELECT pg_typeof(x)::text AS t, x FROM (SELECT 0.1::real AS x UNION SELECT 0.2) v ORDER BY x",
            "SELECT pg_typeof(x)::text AS t, x FROM (SELECT r AS x FROM fs WHERE id = 8 UNION ALL SELECT 2.5) v ORDER BY x",
            "SELECT pg_typeof(CASE WHEN id > 0 THEN r ELSE 0.2 END)::text AS t, CASE WHEN id > 0 THEN r ELSE 0.2 END AS c"
                    + " FROM fs WHERE id = 8",
            "SELECT pg_typeof(coalesce(0.1::real, 0.2))::text AS t, coalesce(0.1::real, 0.2) AS c,"
                    + " coalesce(r, 2.5) AS d FROM fs WHERE id IN (6, 8) ORDER BY id",
            "SELECT pg_typeof(greatest(0.1::real, 2.5))::text AS t, greatest(0.1::real, 2.5) AS g,"
                    + " pg_typeof(array[0.1::real, 2.5])::text AS a",
            "SELECT pg_typeof(x)::text AS t, x FROM (VALUES (0.1::real), (0.2::float8)) v(x) ORDER BY x",
            "SELECT pg_typeof(0.1::real * 3.0)::text AS m, pg_typeof(0.1::real + 1)::text AS p");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("floatsem-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void answersAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * Views over a float column keep every row of multi-row INSERTs holding NaN, group and dedupe
     * NaN as one value and keep min/max through inserts and deletes of NaN, as PostgreSQL's
     * queries give.
     */
    @Test
    void viewsKeepNaNRows() throws Exception {
        pair.both("CREATE TABLE fn (id INT PRIMARY KEY, k INT, d DOUBLE PRECISION, r REAL)");
        List<String> queries = List.of(
                "SELECT * FROM fn",
                "SELECT d, count(*) AS n FROM fn GROUP BY d",
                "SELECT DISTINCT r FROM fn",
                "SELECT k, max(d) AS hi, min(d) AS lo, max(r) AS rhi, min(r) AS rlo FROM fn GROUP BY k",
                "SELECT id FROM fn WHERE d IN ('NaN', 1.5) OR r BETWEEN 2 AND 'NaN'");
        for (int i = 0; i < queries.size(); i++) {
            String[] created = pair.both("CREATE MATERIALIZED VIEW fn_" + i + " AS " + queries.get(i));
            assertFalse(created[1].startsWith("ERROR"), created[1]);
        }
        List<String> changes = pair.mismatches(List.of(
                "INSERT INTO fn VALUES (1, 1, 'NaN', 'NaN'), (2, 1, 1.5, 1.5), (3, 2, 'NaN', 2)",
                "INSERT INTO fn VALUES (4, 2, 'Infinity', 'NaN'), (5, 1, -1, 'Infinity')",
                "DELETE FROM fn WHERE id = 1",
                "INSERT INTO fn VALUES (6, 3, 'NaN', 'NaN')",
                "DELETE FROM fn WHERE id = 4"));
        assertEquals(List.of(), changes, String.join("\n", changes));
        for (int i = 0; i < queries.size(); i++) {
            assertEquals(
                    SortedRows.withLabels(pair.pg, queries.get(i)),
                    SortedRows.withLabels(pair.tributary.connection, "SELECT * FROM fn_" + i),
                    queries.get(i));
        }
    }

    /**
     * A view created now groups by a float8 cast to numeric (its 15 significant digits: 0.1 + 0.2
     * and 0.3 are one group) under a comparison with NaN, as PostgreSQL's query gives; a view an
     * earlier build created keeps that build's answers (StoredPlanTest).
     */
    @Test
    void viewGroupsByAFloatsNumericDigits() throws Exception {
        pair.both("CREATE TABLE fd (id INT PRIMARY KEY, d DOUBLE PRECISION)");
        String query =
                "SELECT d::numeric AS n, count(*) AS c, sum(id) AS s FROM fd WHERE d < 'NaN' GROUP BY d::numeric";
        String[] created = pair.both("CREATE MATERIALIZED VIEW fd_n AS " + query);
        assertFalse(created[1].startsWith("ERROR"), created[1]);
        pair.both("INSERT INTO fd VALUES (1, 0.1::float8 + 0.2::float8), (2, 0.3), (3, 'NaN'), (4, 1::float8 / 3)");
        pair.both("INSERT INTO fd VALUES (5, 0.1::float8 + 0.2::float8), (6, 0.333333333333333)");
        pair.both("DELETE FROM fd WHERE id = 1");
        pair.both("UPDATE fd SET d = 0.30000000000000004 WHERE id = 2");
        assertEquals(
                SortedRows.withLabels(pair.pg, query),
                SortedRows.withLabels(pair.tributary.connection, "SELECT * FROM fd_n"));
    }

    /** A view comparing NaN holds what PostgreSQL's query gives after inserts, an update and a delete. */
    @Test
    void viewHoldsWhatPostgresQueryGives() throws Exception {
        pair.both("CREATE TABLE fv (id INT PRIMARY KEY, d DOUBLE PRECISION)");
        String query = "SELECT id, d = 'NaN' AS nan, d > 1e300 AS big, d <= 0 AS low, greatest(d, 0) AS top FROM fv";
        String[] created = pair.both("CREATE MATERIALIZED VIEW fv_cmp AS " + query);
        assertFalse(created[1].startsWith("ERROR"), created[1]);
        pair.both("INSERT INTO fv VALUES (1, 'NaN'), (2, 1e300), (3, 'Infinity')");
        pair.both("INSERT INTO fv VALUES (4, 'NaN'), (5, 0)");
        pair.both("UPDATE fv SET d = 'NaN' WHERE id = 5");
        pair.both("DELETE FROM fv WHERE id = 1");
        assertEquals(
                SortedRows.withLabels(pair.pg, query),
                SortedRows.withLabels(pair.tributary.connection, "SELECT * FROM fv_cmp"));
    }
}
