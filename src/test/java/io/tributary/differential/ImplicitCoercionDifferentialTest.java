package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Implicit type coercion against embedded PostgreSQL: a typed string (a column, a cast, a
 * function's result) is never converted to a number, date or interval for a function or operator,
 * nor a number to a string, so {@code upper(int)}, {@code sum(text)} and {@code text = integer}
 * are 42883 with PostgreSQL's message and HINT; a string constant still takes the type its use
 * needs ({@code i = '5'}, {@code i + '5'}), and the functions PostgreSQL declares over any type
 * ({@code concat}, {@code ||} beside a string) still take numbers. Each statement's outcome is
 * compared exactly: rows with labels and JDBC types, or SQLSTATE, message and HINT. Queries and
 * materialized views alike.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ImplicitCoercionDifferentialTest {
    private static final String SETUP =
            "CREATE TABLE t (id INT PRIMARY KEY, i INT, b BIGINT, tx TEXT, nu NUMERIC(10, 2),"
                    + " d DOUBLE PRECISION, iv INTERVAL, dt DATE, ts TIMESTAMP, bo BOOLEAN, vc VARCHAR(10));"
                    + "INSERT INTO t VALUES (1, 5, 7, '12', 3.5, 2.5, INTERVAL '1 day', DATE '2020-01-01',"
                    + " TIMESTAMP '2020-01-01 10:00:00', true, '3'), (2, 6, 8, 'abc', 4.25, 1.5, INTERVAL '2 hours',"
                    + " DATE '2021-01-01', TIMESTAMP '2021-01-01 10:00:00', false, 'x')";

    /** Calls PostgreSQL has no function or operator for: 42883 with its message and HINT. */
    private static final List<String> REFUSED = List.of(
            "SELECT upper(i) FROM t",
            "SELECT upper(5)",
            "SELECT lower(nu) FROM t",
            "SELECT substring(i, 1, 1) FROM t",
            "SELECT lpad(i, 5, 'x') FROM t",
            "SELECT replace(i, '1', '2') FROM t",
            "SELECT sum(tx) FROM t",
            "SELECT avg(tx) FROM t",
            "SELECT variance(tx) FROM t",
            "SELECT stddev(tx) FROM t",
            "SELECT sum(vc) FROM t",
            "SELECT abs(tx) FROM t",
            "SELECT abs(vc) FROM t",
            "SELECT sqrt(tx) FROM t",
            "SELECT round(tx, 2) FROM t",
            "SELECT mod(tx, 2) FROM t",
            "SELECT power(i, tx) FROM t",
            "SELECT upper(tx::int) FROM t",
            "SELECT i + tx FROM t",
            "SELECT tx + 1 FROM t",
            "SELECT -tx FROM t",
            "SELECT i || i FROM t",
            "SELECT ('1' || 2) + 3",
            "SELECT id FROM t WHERE tx = 5",
            "SELECT id FROM t WHERE tx <> 5",
            "SELECT id FROM t WHERE tx < 20",
            "SELECT id FROM t WHERE i = tx",
            "SELECT id FROM t WHERE dt = tx",
            "SELECT id FROM t WHERE tx IN (1, 2)",
            "SELECT id FROM t WHERE i IN (SELECT tx FROM t)",
            "SELECT bo = 1 FROM t",
            "SELECT nullif(i, tx) FROM t",
            // Tributary's own text functions took a number cast to text; a count or position that is
            // not an integer was an internal error
            "SELECT ltrim(5, '5')",
            "SELECT rtrim(i, '5') FROM t",
            "SELECT btrim(nu, '5') FROM t",
            "SELECT length(12345)",
            "SELECT length(d) FROM t",
            "SELECT translate(123, '2', 'x')",
            "SELECT lpad('a', 3::numeric)",
            "SELECT lpad('a', 3.7)",
            "SELECT rpad('a', 3::numeric)",
            "SELECT lpad('a', 3::float8)",
            "SELECT lpad(tx, nu::numeric, 'x') FROM t",
            "SELECT substr('abc', 1.5)",
            "SELECT substring(tx, 1, d) FROM t");

    /**
     * CASE, COALESCE, GREATEST, LEAST, UNION, INTERSECT, EXCEPT and VALUES over a typed string and
     * a number: no common type, 42804 with PostgreSQL's message.
     */
    private static final List<String> UNMATCHED = List.of(
            "SELECT CASE WHEN id = 1 THEN i ELSE tx END FROM t",
            "SELECT CASE WHEN id = 1 THEN tx WHEN id = 2 THEN vc ELSE nu END FROM t",
            "SELECT CASE id WHEN 1 THEN '1' WHEN 2 THEN i ELSE tx END FROM t",
            "SELECT coalesce(i, tx) FROM t",
            "SELECT coalesce(NULL, tx, '1', d) FROM t",
            "SELECT greatest(i, tx) FROM t",
            "SELECT least(tx, nu) FROM t",
            "SELECT greatest(tx, 1) FROM t",
            "SELECT least(i, '3', tx) FROM t",
            "SELECT i FROM t UNION SELECT tx FROM t",
            "SELECT i FROM t INTERSECT SELECT tx FROM t",
            "SELECT tx FROM t EXCEPT ALL SELECT i FROM t",
            "SELECT id, tx FROM t UNION ALL SELECT 1, 2",
            "SELECT '1' UNION SELECT '2' UNION SELECT 3",
            "SELECT i FROM t UNION (SELECT b FROM t INTERSECT SELECT vc FROM t)",
            "SELECT * FROM (SELECT dt FROM t UNION SELECT tx FROM t) x",
            "VALUES (1), (2::text)",
            "VALUES (1), (true)",
            "SELECT dt FROM t UNION SELECT i FROM t",
            "SELECT bo FROM t UNION SELECT i FROM t",
            "SELECT ts FROM t UNION SELECT iv FROM t",
            "SELECT greatest(dt, 1) FROM t",
            "SELECT CASE WHEN id = 1 THEN dt ELSE 1 END FROM t",
            "SELECT coalesce(iv, 1) FROM t",
            "SELECT * FROM (VALUES ('a', 1), ('b', '2'), ('c'::text, 3), (4, 4)) v(x, y)");

    /** Coercions PostgreSQL makes too: the same rows. */
    private static final List<String> KEPT = List.of(
            "SELECT upper('5')",
            "SELECT min(tx), max(tx), min(vc) FROM t",
            "SELECT sum(iv), avg(iv) FROM t",
            "SELECT id, i + '5' AS a FROM t ORDER BY id",
            "SELECT id FROM t WHERE i = '5'",
            "SELECT id FROM t WHERE tx = '12'",
            "SELECT id FROM t WHERE dt = '2020-01-01'",
            "SELECT id FROM t WHERE ts > '2020-06-01'",
            "SELECT id FROM t WHERE i IN ('5', '6') ORDER BY id",
            "SELECT id FROM t WHERE tx IN ('12', 'a')",
            "SELECT id FROM t WHERE i BETWEEN '1' AND '5'",
            "SELECT id, bo = 'true' AS t FROM t ORDER BY id",
            "SELECT concat(1, 'a')",
            "SELECT id, concat(i, tx) AS c FROM t ORDER BY id",
            "SELECT 'a' || 5",
            "SELECT '1' || 2 + 3, 2 * 3 || 'a', 'x' || 1 || 2 + 3 || 'y'",
            "SELECT id, tx || i AS a, i || tx AS b FROM t ORDER BY id",
            "SELECT id, i::text AS s, length(tx) AS l, round(nu, 1) AS r FROM t ORDER BY id",
            "SELECT sqrt('4'), round('2.345', 2), abs(-5)",
            "SELECT id, tx LIKE 'a%' AS l FROM t ORDER BY id",
            "SELECT id, nullif(i, '5') AS n FROM t ORDER BY id",
            "SELECT id FROM t WHERE nu > i ORDER BY id",
            "SELECT id FROM t WHERE ts > dt ORDER BY id",
            "SELECT sum(i) FROM t WHERE vc = tx",
            "SELECT id, dt + 1 AS d, iv * 2 AS v, tx::int + 1 AS n FROM t WHERE id = 1",
            "SELECT id, coalesce(i, '0') AS c, coalesce('0', i) AS r, coalesce(tx, '0') AS s FROM t ORDER BY id",
            "SELECT id, coalesce(NULL, i, '0', b) AS c FROM t ORDER BY id",
            "SELECT coalesce('a', 'b'), coalesce(NULL, 'b')",
            "SELECT id, CASE WHEN id = 1 THEN i ELSE '0' END AS c FROM t ORDER BY id",
            "SELECT id, CASE WHEN id = 1 THEN '7' WHEN id = 2 THEN NULL ELSE i END AS c FROM t ORDER BY id",
            "SELECT id, CASE id WHEN 1 THEN dt ELSE '2000-01-01' END AS c FROM t ORDER BY id",
            "SELECT id, CASE WHEN id = 1 THEN tx ELSE vc END AS c FROM t ORDER BY id",
            "SELECT id, tx FROM t UNION SELECT 3, 'z' ORDER BY 1",
            "SELECT i FROM t UNION ALL SELECT '7' ORDER BY 1",
            "SELECT '7' UNION SELECT i FROM t ORDER BY 1",
            "SELECT id, tx FROM t UNION SELECT '3', 'z' ORDER BY 1",
            "SELECT i FROM t INTERSECT SELECT '5'",
            "SELECT i FROM t EXCEPT SELECT '5'",
            "SELECT '4' UNION SELECT i FROM t UNION SELECT b FROM t ORDER BY 1",
            "SELECT i FROM t UNION SELECT b FROM t ORDER BY 1",
            "SELECT i FROM t UNION SELECT d FROM t ORDER BY 1",
            "SELECT dt FROM t UNION SELECT '2022-02-02' ORDER BY 1",
            "SELECT '9' UNION SELECT '8' ORDER BY 1",
            "SELECT dt FROM t UNION SELECT ts FROM t ORDER BY 1",
            "SELECT id, coalesce(i, nu) AS a, coalesce(nu, b) AS b, CASE WHEN id = 1 THEN nu ELSE 0 END AS c,"
                    + " coalesce(nu, 0.5) AS d, coalesce(NULL, nu, 1) AS e, coalesce(i, 2.125) AS f FROM t ORDER BY id",
            "SELECT id, CASE WHEN bo THEN i WHEN id = 2 THEN nu ELSE NULL END AS a, coalesce(nu, nu) AS b,"
                    + " coalesce(i, d) AS c, coalesce(nu, d) AS e, coalesce(i, b) AS f FROM t ORDER BY id",
            "SELECT id, coalesce(dt, ts) AS c, CASE WHEN id = 1 THEN i ELSE b END AS w FROM t ORDER BY id",
            "SELECT NULL UNION SELECT i FROM t ORDER BY 1",
            "VALUES (1), ('2')",
            "VALUES ('a'), ('b')",
            "SELECT * FROM (VALUES (1, 'a'), ('2', 'b'), (NULL, 'c')) v(x, y) ORDER BY x",
            "SELECT id, greatest(i, '3') AS g, least(i, '6') AS l, greatest('4', i, b) AS m FROM t ORDER BY id",
            "SELECT greatest(tx, '1') AS g, least('b', 'a') AS l FROM t ORDER BY id",
            "SELECT id, lpad(tx, '5', 'x') AS p, rpad(tx, '4') AS r FROM t ORDER BY id");

    /** The same in materialized views: refused at CREATE, or kept and read back. */
    private static final List<String> VIEWS = List.of(
            "CREATE MATERIALIZED VIEW v_sum AS SELECT sum(tx) AS s FROM t",
            "CREATE MATERIALIZED VIEW v_avg AS SELECT avg(tx) AS a FROM t",
            "CREATE MATERIALIZED VIEW v_upper AS SELECT id, upper(i) AS u FROM t",
            "CREATE MATERIALIZED VIEW v_eq AS SELECT id FROM t WHERE tx = 5",
            "CREATE MATERIALIZED VIEW v_in AS SELECT id FROM t WHERE tx IN (1, 2)",
            "CREATE MATERIALIZED VIEW v_plus AS SELECT id, i + tx AS s FROM t",
            "CREATE MATERIALIZED VIEW v_stddev AS SELECT stddev(iv) AS s FROM t",
            "CREATE MATERIALIZED VIEW v_case AS SELECT id, CASE WHEN id = 1 THEN i ELSE tx END AS c FROM t",
            "CREATE MATERIALIZED VIEW v_coalesce AS SELECT id, coalesce(i, tx) AS c FROM t",
            "CREATE MATERIALIZED VIEW v_greatest AS SELECT id, greatest(tx, i) AS c FROM t",
            "CREATE MATERIALIZED VIEW v_unknown AS SELECT id, coalesce(i, '0') AS c,"
                    + " CASE WHEN id = 1 THEN i ELSE '0' END AS w, lpad(tx, '5', 'x') AS p FROM t",
            "SELECT * FROM v_unknown ORDER BY id",
            "CREATE MATERIALIZED VIEW v_union AS SELECT id, i FROM t UNION ALL SELECT id, tx FROM t",
            "CREATE MATERIALIZED VIEW v_union_kept AS SELECT id, i FROM t UNION ALL SELECT id + 10, '7' FROM t",
            "SELECT * FROM v_union_kept ORDER BY id",
            "CREATE MATERIALIZED VIEW v_scale AS SELECT id, coalesce(i, nu) AS a, CASE WHEN bo THEN nu ELSE 0 END AS c"
                    + " FROM t",
            "SELECT * FROM v_scale ORDER BY id",
            "CREATE MATERIALIZED VIEW v_greatest_kept AS SELECT id, greatest(i, '6') AS g FROM t",
            "SELECT * FROM v_greatest_kept ORDER BY id",
            "CREATE MATERIALIZED VIEW v_kept AS SELECT id, i + '5' AS a, concat(i, tx) AS c, tx || i AS d,"
                    + " length(tx) AS l, round(nu, 1) AS r FROM t WHERE i = '5' OR tx = 'abc'",
            "SELECT * FROM v_kept ORDER BY id");

    /** PostgreSQL and Tributary, outcomes compared with types by JDBC number, errors with their hint. */
    @RegisterExtension
    static final ComparedPair BOTH = new ComparedPair("coercion-diff-", SETUP, new ComparedOutcomes(true, true));

    @Test
    void callsWithoutPostgresSignatureAreUndefinedFunctionLikePostgres() {
        assertEquals(List.of(), BOTH.mismatches(REFUSED));
        for (String sql : REFUSED) {
            // the oracle agrees they fail; this checks the list still says what it claims
            assertEquals("42883", BOTH.onPostgres(sql).split(" ")[1], sql);
        }
    }

    @Test
    void mixedTypesWithoutCommonTypeAreDatatypeMismatchLikePostgres() {
        assertEquals(List.of(), BOTH.mismatches(UNMATCHED));
        for (String sql : UNMATCHED) {
            assertEquals("42804", BOTH.onPostgres(sql).split(" ")[1], sql);
        }
    }

    @Test
    void coercionsPostgresMakesStillAnswerLikePostgres() {
        assertEquals(List.of(), BOTH.mismatches(KEPT));
    }

    @Test
    void materializedViewsRefuseAndKeepTheSameCoercions() throws SQLException {
        assertEquals(List.of(), BOTH.mismatches(VIEWS));
        // PostgreSQL's view is a snapshot: Tributary's, kept through a write, equals its query
        String row = "INSERT INTO t VALUES (3, 7, 9, 'abc', 1.25, 0.5, INTERVAL '3 days', DATE '2022-01-01',"
                + " TIMESTAMP '2022-01-01 10:00:00', NULL, 'y')";
        BOTH.runOnBoth(row);
        String query = VIEWS.get(VIEWS.size() - 2).substring("CREATE MATERIALIZED VIEW v_kept AS ".length());
        assertEquals(BOTH.onPostgres(query + " ORDER BY id"), BOTH.onTributary("SELECT * FROM v_kept ORDER BY id"));
        BOTH.runOnBoth("DELETE FROM t WHERE id = 3");
    }
}
