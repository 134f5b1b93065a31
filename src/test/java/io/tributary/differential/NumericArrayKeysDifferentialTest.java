package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Numeric arrays whose elements differ only in scale ({@code {2}}, {@code {2.0}}, {@code
 * {2.00,NULL}}) against embedded PostgreSQL, where numeric equality ignores scale inside arrays too:
 * {@code =}, {@code <>}, IS [NOT] DISTINCT FROM, {@code <} of arrays, IN lists, {@code IN} and
 * {@code = ANY} of sub-queries, GROUP BY, DISTINCT, {@code count(DISTINCT)}, joins, UNION,
 * INTERSECT and EXCEPT over {@code numeric[]} and {@code numeric(10,2)[]} columns; each statement's
 * rows compared with their labels and type names. A group of arrays of several scales prints the
 * first one met, which depends on the plan in both systems, so such groups print their elements as
 * float8.
 */
class NumericArrayKeysDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE na (id INT PRIMARY KEY, a NUMERIC[], b NUMERIC(10,2)[])",
            "INSERT INTO na VALUES (1, '{2}', '{2}'), (2, '{2.0}', '{3}'), (3, '{2.00,NULL}', '{2,NULL}'),"
                    + " (4, '{2,NULL}', NULL), (5, NULL, '{1.5}'), (6, '{1.50}', '{1.5}'), (7, '{1.5,2}', '{1.5,2.0}')");

    private static final List<String> STATEMENTS = List.of(
            "SELECT ARRAY[1.5, 2.0] = '{1.5,2}' AS e, ARRAY[1.50] <> '{1.5}' AS ne",
            "SELECT ARRAY[2.0] IS DISTINCT FROM '{2}' AS d, ARRAY[2.0] IS NOT DISTINCT FROM ARRAY[2.00] AS nd",
            "SELECT ARRAY[2.0] < '{2}' AS lt, ARRAY[2.0] <= '{2}' AS le, ARRAY[2.0] >= ARRAY[2.00] AS ge",
            "SELECT ARRAY[1.5, NULL] = ARRAY[1.50, NULL] AS n",
            "SELECT id, a = b AS e, a <> b AS ne, a IS DISTINCT FROM b AS d, a IS NOT DISTINCT FROM b AS nd,"
                    + " a < b AS lt, a >= b AS ge FROM na ORDER BY id",
            "SELECT id FROM na WHERE a = '{2.000}' ORDER BY id",
            "SELECT id FROM na WHERE a <> '{2.000}' ORDER BY id",
            "SELECT id FROM na WHERE a IN ('{2.000}', '{1.5}') ORDER BY id",
            "SELECT id FROM na WHERE a IN (SELECT b FROM na) ORDER BY id",
            "SELECT id FROM na WHERE a = ANY (SELECT b FROM na WHERE id > 2) ORDER BY id",
            "SELECT cardinality(a) AS c, a[1]::float8 AS k, count(*) AS n, sum(id) AS s FROM na GROUP BY a ORDER BY s, k",
            "SELECT b, count(*) AS n FROM na GROUP BY b ORDER BY b",
            "SELECT DISTINCT b FROM na ORDER BY b",
            "SELECT count(*) AS n FROM (SELECT DISTINCT a FROM na) d",
            "SELECT count(DISTINCT a) AS n, count(DISTINCT b) AS m FROM na",
            "SELECT x.id AS x, y.id AS y FROM na x JOIN na y ON x.a = y.b ORDER BY 1, 2",
            "SELECT x.id AS x, y.id AS y FROM na x LEFT JOIN na y ON x.a = y.a AND x.id <> y.id ORDER BY 1, 2",
            "SELECT count(*) AS n FROM (SELECT a FROM na UNION SELECT b FROM na) u",
            "SELECT count(*) AS n FROM (SELECT a FROM na INTERSECT SELECT b FROM na) u",
            "SELECT count(*) AS n FROM (SELECT a FROM na EXCEPT SELECT b FROM na) u",
            "SELECT b FROM na UNION SELECT b FROM na ORDER BY 1");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("numeric-array-keys-");
        pair.setUpAlike(SETUP);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void numericArraysCompareByValueAsInPostgres() {
        List<String> mismatches = StatementOutcome.mismatches(
                pair.pg, pair.tributary.connection, STATEMENTS, StatementOutcome::withTypeNames);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
