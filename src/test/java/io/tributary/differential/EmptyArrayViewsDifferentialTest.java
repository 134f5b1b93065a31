package io.tributary.differential;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Empty arrays and array text in materialized views (issue 12): {@code '{}'::int[]}, {@code
 * ARRAY[]::text[]} and {@code CAST(ARRAY[] AS numeric[])} as columns, {@code '{}'} and {@code
 * '{1,2}'} compared with array columns and as a COALESCE's or CASE's result beside one, and the
 * array functions over empty and NULL arrays. Each view, created over rows and kept through inserts,
 * updates and deletes, equals PostgreSQL's answer to its query after each step: column labels and
 * every row as text, exactly.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EmptyArrayViewsDifferentialTest {
    private static final String[] QUERIES = {
        "SELECT id, '{}'::int[] AS a, ARRAY[]::text[] AS t, CAST(ARRAY[] AS numeric[]) AS n, '{}'::date[] AS d FROM t",
        "SELECT id, COALESCE(a, '{}') AS a, COALESCE(s, '{}') AS s, COALESCE(a, ARRAY[]::int[]) AS a2,"
                + " COALESCE(s, '{x,NULL}') AS s2, CASE WHEN id = 1 THEN a ELSE '{}' END AS c FROM t",
        "SELECT id, a = '{}' AS e, s <> '{}' AS ne, a = '{1,2}' AS e2, s = '{a,bb}' AS e3, '{}' = a AS e4,"
                + " a IS DISTINCT FROM '{}' AS e5 FROM t",
        "SELECT id, a || ARRAY[]::int[] AS a, cardinality('{}'::int[] || a) AS c, cardinality(a) AS ca,"
                + " array_length(a, 1) AS l, array_position(a, 2) AS p FROM t",
        "SELECT id FROM t WHERE a = '{}' OR s = '{}'",
    };

    private static final String[] STEPS = {
        "INSERT INTO t VALUES (5, '{}', '{}'), (6, '{1,2}', '{a,bb}'), (7, NULL, '{c}')",
        "UPDATE t SET a = '{}', s = '{}' WHERE id = 2",
        "UPDATE t SET a = NULL, s = NULL WHERE id = 1",
        "UPDATE t SET a = '{2}' WHERE id = 5",
        "DELETE FROM t WHERE id IN (3, 6)",
    };

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("emptyarrayviews-", 200, 120);

    @Test
    void viewsOfEmptyArraysEqualPostgres() throws Exception {
        String setup = "CREATE TABLE t (id INT PRIMARY KEY, a INT[], s TEXT[]);"
                + "INSERT INTO t VALUES (1, '{}', '{}'), (2, '{1,2}', '{a,bb}'), (3, NULL, NULL), (4, '{3}', '{NULL}')";
        databases.compareViewsThroughSteps(setup, "eav", QUERIES, STEPS);
    }
}
