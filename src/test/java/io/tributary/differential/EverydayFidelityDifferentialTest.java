package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Everyday SQL whose answers, types or SQLSTATEs Tributary got wrong, against embedded PostgreSQL:
 * {@code ::} after a window function's {@code OVER (...)} or an aggregate's {@code WITHIN GROUP (...)};
 * calls PostgreSQL has no function for (a bigint count, a float for numeric: 42883); arrays of
 * intervals printed and typed as PostgreSQL's.
 * Compared exactly: rows with labels and type names, or SQLSTATE and message.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EverydayFidelityDifferentialTest {
    private static final String SETUP = "CREATE TABLE t (id INT PRIMARY KEY, iv INTERVAL, n NUMERIC, y INT, x INT);"
            + "INSERT INTO t VALUES (1, INTERVAL '1 day', 1.5, 10, 3);"
            + "INSERT INTO t VALUES (2, INTERVAL '2 hours', 2.25, 20, 4);"
            + "INSERT INTO t VALUES (3, NULL, NULL, 30, NULL);"
            + "INSERT INTO t VALUES (4, INTERVAL '1 year 2 mons -3 days 04:05:06.5', -7, 20, 5)";

    @RegisterExtension
    static final ComparedPair BOTH = new ComparedPair("fidelity-diff-", SETUP, new ComparedOutcomes(false, false));

    @Test
    void aCastAfterOverIsAccepted() {
        assertEquals(
                List.of(),
                BOTH.mismatches(List.of(
                        "SELECT id, sum(x) OVER (ORDER BY y, id)::text AS s FROM t ORDER BY id",
                        "SELECT id, rank() OVER (ORDER BY y)::int AS r, row_number() OVER w::text AS n FROM t"
                                + " WINDOW w AS (ORDER BY id) ORDER BY id",
                        "SELECT id, count(*) OVER (PARTITION BY y)::numeric + 1 AS c FROM t ORDER BY id",
                        "SELECT pg_catalog.max(x) OVER ()::int8, x FROM t ORDER BY id",
                        "SELECT id FROM t ORDER BY rank() OVER (ORDER BY x DESC)::int, id",
                        "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x)::text FROM t",
                        "SELECT sum(x) OVER (ORDER BY id)::int2::text AS s, 'a' AS b FROM t ORDER BY id")));
    }

    @Test
    void callsPostgresHasNoFunctionForAre42883() {
        assertEquals(
                List.of(),
                BOTH.mismatches(List.of(
                        "SELECT min_scale(1.5::float8)",
                        "SELECT trim_scale(x::float4) FROM t",
                        "SELECT div(1.5::float8, 1)",
                        "SELECT scale(2::float8)",
                        "SELECT left('abc', 2::bigint)",
                        "SELECT right('abc', 2::bigint)",
                        "SELECT left('abc', count(*)) FROM t",
                        "SELECT lpad('a', 3::bigint, 'x')",
                        "SELECT rpad('a', 3::bigint)",
                        "SELECT repeat('ab', 2::bigint)",
                        "SELECT ltrim('xxa', 'x'), rtrim('axx', 'x'), btrim('xax', 'x'), lpad('a', 3), rpad('a', 3, 'y'),"
                                + " ltrim(5::text, '5') AS l, quote_nullable(5) AS q, starts_with('ab', 'a') AS s",
                        "SELECT min_scale(2) AS m, scale(1.50) AS s, trim_scale(2.500) AS t, repeat('ab', 2::smallint) AS p,"
                                + " lpad('a', '3') AS q")));
    }

    @Test
    void arraysOfIntervalsPrintAsPostgres() {
        assertEquals(
                List.of(),
                BOTH.mismatches(List.of(
                        "SELECT array_agg(iv ORDER BY id) AS a FROM t",
                        "SELECT y, array_agg(iv ORDER BY id) AS a FROM t GROUP BY y ORDER BY y",
                        "SELECT id, ARRAY[iv, iv] AS a FROM t ORDER BY id",
                        "SELECT array_agg(iv ORDER BY id) FILTER (WHERE id > 1) AS a, array_agg(iv) FILTER (WHERE id > 9)"
                                + " AS e FROM t")));
    }
}
