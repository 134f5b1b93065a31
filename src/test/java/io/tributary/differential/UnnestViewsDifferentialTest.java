package io.tributary.differential;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Array columns in materialized views (issue 12): {@code unnest} in a select list and as a lateral
 * item of FROM (with ORDINALITY, LEFT JOIN LATERAL, under a GROUP BY), the bounds functions
 * ({@code array_upper}, {@code array_lower}, {@code array_ndims}, {@code array_dims}, {@code
 * array_length}), and COALESCE and CASE over arrays with NULL elements and numeric elements of
 * different scales. Each view, created over rows and kept through inserts, updates (a row's array
 * growing, shrinking, becoming NULL or empty) and deletes, equals PostgreSQL's answer to its query
 * after each step: column labels and every row as text, exactly.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class UnnestViewsDifferentialTest {
    private static final String[] QUERIES = {
        "SELECT id, unnest(a) FROM t",
        "SELECT t.id, u.x FROM t, unnest(t.s) AS u(x)",
        "SELECT t.id, u.x, u.o FROM t, unnest(t.a) WITH ORDINALITY AS u(x, o)",
        "SELECT t.id, u.x FROM t LEFT JOIN LATERAL unnest(t.n) AS u(x) ON true",
        "SELECT u.x, count(*) AS c FROM t, unnest(t.s) AS u(x) GROUP BY u.x",
        "SELECT id, x * 10 AS y FROM t, unnest(a) AS x WHERE x > 1",
        "SELECT id, array_upper(a, 1) AS u, array_lower(a, 1) AS l, array_ndims(a) AS nd, array_dims(a) AS d,"
                + " cardinality(a) AS c, array_length(a, 1) AS l1, array_length(a, 2) AS l2, array_upper(s, 2) AS u2 FROM t",
        "SELECT id, COALESCE(a, ARRAY[1, NULL]) AS a, COALESCE(s, s) AS s, COALESCE(n, ARRAY[0.5]) AS n,"
                + " CASE WHEN id = 1 THEN ARRAY[1.5, 2.5] ELSE n END AS c FROM t",
    };

    private static final String[] STEPS = {
        "INSERT INTO t VALUES (5, '{7,7,NULL}', '{x,NULL}', '{1.10,2}'), (6, '{}', '{}', '{}'), (7, NULL, NULL, NULL)",
        "UPDATE t SET a = '{1,2,3,4}', s = '{a}' WHERE id = 2",
        "UPDATE t SET a = '{2}', n = '{3.000}' WHERE id = 1",
        "UPDATE t SET a = NULL, s = '{}', n = NULL WHERE id = 5",
        "UPDATE t SET a = '{9,NULL}', s = '{b,b}' WHERE id = 7",
        "DELETE FROM t WHERE id IN (3, 6)",
    };

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("unnestviews-", 200, 120);

    @Test
    void viewsOfArrayColumnsEqualPostgres() throws Exception {
        String setup = "CREATE TABLE t (id INT PRIMARY KEY, a INT[], s TEXT[], n NUMERIC[]);"
                + "INSERT INTO t VALUES (1, '{1,2,2}', '{a,bb}', '{1.5,2.25}'), (2, NULL, NULL, NULL),"
                + " (3, '{}', '{}', '{}'), (4, '{NULL,5}', '{NULL}', '{3.125,-0.5}')";
        databases.compareViewsThroughSteps(setup, "uv", QUERIES, STEPS);
    }
}
