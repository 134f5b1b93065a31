package io.tributary.differential;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Materialized views over numeric arrays whose elements differ only in scale ({@code {2}} and
 * {@code {2.0}} are one value in PostgreSQL): grouped by a {@code numeric[]} and a {@code
 * numeric(10,2)[]} column (their state keys), {@code count(DISTINCT)}, {@code =}, {@code <>} and IS
 * DISTINCT FROM of arrays in the select list and WHERE, and a join on numeric-array keys. Each view,
 * created over rows and kept through inserts, updates and deletes (the first array of a group
 * deleted while another of its scales stays), equals PostgreSQL's answer to its query after each
 * step: column labels and every row as text, exactly. A group of several scales prints its
 * elements as float8, as which one it shows depends on the plan.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NumericArrayKeyViewsDifferentialTest {
    private static final String[] QUERIES = {
        "SELECT cardinality(a) AS c, a[1]::float8 AS k, count(*) AS n, sum(id) AS s FROM t GROUP BY a",
        "SELECT b, count(*) AS n FROM t GROUP BY b",
        "SELECT count(DISTINCT a) AS n FROM t",
        "SELECT id, a = b AS e, a <> '{2}' AS ne, a IS DISTINCT FROM b AS d FROM t",
        "SELECT id FROM t WHERE a = '{2.000}' OR a IN ('{1.5}')",
        "SELECT x.id AS x, y.id AS y FROM t x JOIN t y ON x.a = y.b",
    };

    private static final String[] STEPS = {
        "INSERT INTO t VALUES (8, '{2.0000}', '{2.0}'), (9, '{1.500,NULL}', '{1.5,NULL}')",
        "DELETE FROM t WHERE id = 1",
        "UPDATE t SET a = '{1.5}' WHERE id = 2",
        "UPDATE t SET b = '{2}' WHERE id = 6",
        "DELETE FROM t WHERE id IN (3, 8)",
    };

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("numarraykeyviews-", 200, 120);

    @Test
    void viewsKeyedByNumericArraysEqualPostgres() throws Exception {
        String setup = "CREATE TABLE t (id INT PRIMARY KEY, a NUMERIC[], b NUMERIC(10,2)[]);"
                + "INSERT INTO t VALUES (1, '{2}', '{2}'), (2, '{2.0}', '{3}'), (3, '{2.00,NULL}', '{2,NULL}'),"
                + " (4, '{2,NULL}', NULL), (5, NULL, '{1.5}'), (6, '{1.50}', '{1.5}'), (7, '{1.5,2}', '{1.5,2.0}')";
        databases.compareViewsThroughSteps(setup, "nak", QUERIES, STEPS);
    }
}
