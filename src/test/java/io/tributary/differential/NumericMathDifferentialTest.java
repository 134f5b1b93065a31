package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code sqrt}, {@code exp}, {@code ln}, {@code log} and {@code log10} of numerics: PostgreSQL picks
 * their numeric overloads, typed numeric with its own result scales (at least 16 significant
 * digits, or the argument's scale), where Calcite computed doubles. Run in order on Tributary and
 * on an embedded PostgreSQL over constants, columns with NULLs and edge values: each statement's
 * rows (labels, JDBC types and texts) or SQLSTATE must match; integers and floats keep double
 * precision. Number constants beyond the 38 integer digits of Calcite's exact types are numeric
 * all the same, and a numeric cast to a float is 22003 beyond the float's range. A materialized view with
 * the same functions holds what PostgreSQL's query gives after writes. Their results, and {@code
 * x::numeric} and {@code extract}, are unconstrained numerics, so a comparison with a constant that
 * has a fraction compares the fraction (issue 12: typed numeric(38,0), {@code 2.4::numeric > 2.5}
 * was true), in queries and in a view's filter, whose columns are {@code numeric} in pg_attribute.
 */
class NumericMathDifferentialTest {
    private static final String FUNCTIONS = "id, sqrt(abs(n)) AS sq, exp(n / 10) AS ex, ln(abs(n) + 1) AS ln1,"
            + " log(abs(n) + 0.5) AS lg, log10(abs(n) + 2) AS l10, sqrt(w) AS sw, ln(w + 1) AS lw";

    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE nm (id INT PRIMARY KEY, n NUMERIC(12,4), w NUMERIC, i INT, f DOUBLE PRECISION)",
            "INSERT INTO nm VALUES (1, 2, 2, 2, 2), (2, 37.5, 123456789.123456789, 100, 0.5),"
                    + " (3, NULL, NULL, NULL, NULL), (4, -0.0001, 0.00000001, 0, 1e-10),"
                    + " (5, 12345678.9999, 1, 7, 1e10)",
            "SELECT sqrt(2::numeric), ln(2::numeric), exp(1::numeric), log(2::numeric), log10(2::numeric)",
            "SELECT pg_typeof(sqrt(2::numeric))::text, pg_typeof(exp(1.0))::text, pg_typeof(ln(2.5))::text,"
                    + " pg_typeof(log(3.0))::text, pg_typeof(log10(3.0))::text, pg_typeof(sqrt(2))::text,"
                    + " pg_typeof(ln(2))::text, pg_typeof(exp(2::float8))::text",
            "SELECT " + FUNCTIONS + " FROM nm ORDER BY id",
            "SELECT id, sqrt(i), exp(i / 10), ln(i + 1), log(f), sqrt(f) FROM nm WHERE id <> 4 ORDER BY id",
            "SELECT sqrt(16::numeric), sqrt(0.0001), sqrt(0::numeric), sqrt(0.00::numeric), sqrt(1e20::numeric),"
                    + " sqrt(123456789.123456789), sqrt(0.0000000002)",
            "SELECT exp(-1.5), exp(0::numeric), exp(0.000001), exp(100::numeric), exp(-100::numeric),"
                    + " exp(12.345678901234567890)",
            "SELECT ln(1.0000001), ln(0.5), ln(1e-10::numeric), ln(1::numeric), ln(0.99999), ln(1e30::numeric)",
            "SELECT log(0.001), log(12345.678), log10(1.00001), log(1::numeric), log(2, 8::numeric)",
            "SELECT exp(-6000::numeric) = 0, exp(5000::numeric) > 0",
            // just beside a square: the root rounds once (0.99999... is not 1.0000...)
            "SELECT sqrt('0.9999999999999999999999999999999'::numeric) AS a, sqrt('1.00000000000000000001'::numeric)"
                    + " AS b, sqrt('0.99999999999999999999'::numeric) AS c, sqrt(15.9999999999999999999999) AS d",
            // where PostgreSQL's estimate of ln's weight (two base-10000 digits) changes the scale
            "SELECT ln(22026.466::numeric) AS a, ln(1.10518::numeric) AS b, log(22026.466::numeric) AS c,"
                    + " log(2, 22026.466::numeric) AS d, ln(12345678.5) AS e, ln(0.000123456789) AS f",
            "SELECT sqrt(NULL::numeric), exp(NULL::numeric), ln(NULL::numeric), log(NULL::numeric)",
            "SELECT sqrt(-1::numeric)",
            "SELECT ln(0::numeric)",
            "SELECT ln(-2.5)",
            "SELECT log(0::numeric)",
            "SELECT log10(-1.0)",
            "SELECT exp(6000::numeric)",
            "SELECT sqrt(n) FROM nm WHERE id = 4",
            "SELECT round(sqrt(n), 2) + 1, sqrt(n) * 2 FROM nm WHERE id = 2",
            // constants of more than 38 digits before the point (Calcite's exact literals): an internal error
            // without an exponent, a double with one
            "SELECT 10000000000000000000000000000000000000000 AS a, 1e39::numeric AS b, 1e100 AS c, -1e50 AS d,"
                    + " 123456789012345678901234567890123456789012345.5 AS f",
            "SELECT pg_typeof(1e100)::text, pg_typeof(100000000000000000000000000000000000000000)::text, 1e100 + 1",
            "SELECT id FROM nm WHERE n < 1e50 AND n > -1e50 AND w < 100000000000000000000000000000000000000000"
                    + " ORDER BY id",
            // numeric to a float: 22003 beyond its range (Infinity or 0 before)
            "SELECT 1e39::float8 AS a, 1e100::float8 AS b, 1e38::real AS c, n::float8 AS d, n::real AS e FROM nm"
                    + " WHERE id = 2",
            "SELECT 1e400::float8",
            "SELECT 1e39::real");

    /** Comparisons of numeric results with constants that have a fraction (issue 12). */
    private static final List<String> COMPARISONS = List.of(
            "CREATE TABLE nc (id INT PRIMARY KEY, e DOUBLE PRECISION, ts TIMESTAMP, n NUMERIC)",
            "INSERT INTO nc VALUES (1, 0.3, '2020-01-01 00:00:02.4', 2.4), (2, 2.4, '2020-01-01 00:00:02.6', 2.5),"
                    + " (3, NULL, NULL, NULL), (4, 11.5, '2020-01-01 00:00:03', -2.45)",
            "SELECT 2.4::numeric > 2.5 AS a, 2.4::numeric < 2.5 AS b, 2.5::numeric = 2.5 AS c,"
                    + " 2.4::numeric BETWEEN 2.3 AND 2.45 AS d, 2.4::numeric IN (2.4, 2.5) AS e,"
                    + " 2.4::numeric IN (2, 3) AS f, 2.4::numeric <> 2 AS g, 0.3::float8::numeric = 0.3 AS h",
            "SELECT exp(2.4) > 11.5 AS a, exp(2.4) < 11.1 AS b, abs(-2.4) < 2.5 AS c, abs(-2.4) = 2.4 AS d,"
                    + " round(2.45, 1) = 2.5 AS e, round(2.449, 2) > 2.44 AS f, trunc(2.49, 1) = 2.4 AS g,"
                    + " trunc(2.49) < 2.1 AS h, sqrt(2.0) BETWEEN 1.41 AND 1.42 AS i, ln(2.0) > 0.69 AS j,"
                    + " ln(2.0) < 0.7 AS k, power(2.0, 0.5) < 1.415 AS l, power(2.0, 0.5) > 1.414 AS m,"
                    + " round(2.45, 1) IN (2.5, 3) AS n",
            "SELECT id FROM nc WHERE e::numeric = 0.3 ORDER BY id",
            "SELECT id FROM nc WHERE e::numeric IN (0.3, 2.4) ORDER BY id",
            "SELECT id FROM nc WHERE e::numeric BETWEEN 0.25 AND 2.45 ORDER BY id",
            "SELECT id FROM nc WHERE extract(second FROM ts) > 2.5 ORDER BY id",
            "SELECT id FROM nc WHERE extract(second FROM ts) BETWEEN 2.3 AND 2.5 ORDER BY id",
            "SELECT id, extract(second FROM ts) = 2.4 AS a, extract(epoch FROM ts) < 1577836802.5 AS b FROM nc"
                    + " ORDER BY id",
            "SELECT id, exp(n) > 11.5 AS a, abs(n) IN (2.4, 2.45) AS b, round(n, 1) = 2.5 AS c,"
                    + " trunc(n, 1) = -2.4 AS d, sqrt(abs(n)) > 1.55 AS e, ln(abs(n)) < 0.9 AS f,"
                    + " power(abs(n), 0.5) BETWEEN 1.55 AND 1.6 AS g FROM nc ORDER BY id");

    /**
     * COALESCE, CASE, NULLIF, GREATEST, LEAST and UNION of a numeric result (a sum of a
     * numeric(12,2), {@code x::numeric}) beside an integer constant, and comparisons of them with
     * fractions: a COALESCE of such a sum was XX000 ("failed to preserve datatypes") once numeric
     * results were unconstrained, also in a LATERAL sub-query.
     */
    private static final List<String> COMMON_TYPES = List.of(
            "CREATE TABLE nco (oid INT PRIMARY KEY, eid INT, amount NUMERIC(12,2))",
            "CREATE TABLE ncm (id INT PRIMARY KEY, f DOUBLE PRECISION, n NUMERIC, i INT)",
            "INSERT INTO nco VALUES (1, 1, 2.50), (2, 1, 3.25), (3, 3, NULL)",
            "INSERT INTO ncm VALUES (1, 0.3, 2.4, 7), (2, 2.5, NULL, NULL), (3, 1e10, 123456.789, -3)",
            "SELECT coalesce(sum(amount), 0) AS s FROM nco",
            "SELECT coalesce(sum(amount), 0) AS s, coalesce(sum(amount), 0.5) AS h FROM nco WHERE eid = 5",
            "SELECT coalesce(sum(amount), 0.00) AS a, coalesce(sum(amount), 0::numeric) AS b,"
                    + " coalesce(avg(amount), 0) AS c, coalesce(sum(amount), 0) > 5.5 AS d,"
                    + " coalesce(sum(amount), 0) + 0.001 AS e, coalesce(sum(amount) * 1.5, 0) AS f FROM nco",
            "SELECT coalesce(sum(n), 0) AS a, coalesce(avg(i), 0) AS b, coalesce(sum(amount), sum(n), 0) AS c"
                    + " FROM ncm, nco",
            "SELECT m.id, o.s FROM ncm m, LATERAL (SELECT coalesce(sum(amount), 0) AS s FROM nco WHERE eid = m.id) o"
                    + " ORDER BY m.id",
            "SELECT * FROM (SELECT coalesce(sum(amount), 0) AS s FROM nco) t WHERE s > 5.5",
            "SELECT id, coalesce(sum(amount), 0) AS s FROM ncm LEFT JOIN nco ON eid = id GROUP BY id"
                    + " HAVING coalesce(sum(amount), 0) < 1 ORDER BY id",
            "SELECT id, CASE WHEN id = 2 THEN 1 ELSE sum(amount) END AS a,"
                    + " CASE WHEN id = 2 THEN 1 ELSE sum(amount) END > 5.5 AS b, nullif(sum(amount), 0) AS c,"
                    + " nullif(sum(amount), 5.75) AS d, greatest(sum(amount), 0) AS e, greatest(sum(amount), 0) > 5.7 AS f,"
                    + " least(sum(amount), 6) AS g FROM ncm, nco GROUP BY id ORDER BY id",
            "SELECT id, coalesce(f::numeric, 0) AS a, coalesce(f::numeric, 1) > 0.5 AS b,"
                    + " CASE WHEN id = 1 THEN f::numeric ELSE 0 END AS c,"
                    + " CASE WHEN id = 1 THEN f::numeric ELSE 0 END > 0.25 AS d, nullif(f::numeric, 2.5) AS e,"
                    + " greatest(f::numeric, 1) AS g, least(f::numeric, 1, n) AS h, coalesce(round(n, 1), 0) AS k,"
                    + " coalesce(exp(i::numeric), 0) AS l FROM ncm ORDER BY id",
            "SELECT sum(amount) AS x FROM nco UNION ALL SELECT 0 ORDER BY 1",
            "SELECT x FROM (SELECT f::numeric AS x FROM ncm UNION ALL SELECT 7) u WHERE x > 2.45 ORDER BY 1",
            "SELECT x FROM (SELECT sum(amount) AS x FROM nco UNION SELECT 2.345::numeric) u ORDER BY 1",
            "SELECT array_agg(coalesce(f::numeric, 0) ORDER BY id) AS a FROM ncm");

    /**
     * Issue 12, found in session 42: a correlated scalar sub-query of {@code coalesce(sum(n), 0)}
     * printed 16 decimals (the decorrelator's cast to its nullable type set the scale); a product of
     * two unconstrained numerics compared with a constant was 22003 above 10^6 (typed (38,32)); and
     * {@code x IN (SELECT y ...)} matched no numeric of another scale ({@code 1.5}, {@code 1.50}).
     */
    private static final List<String> SCALES = List.of(
            "CREATE TABLE nst (id INT PRIMARY KEY, a NUMERIC, c NUMERIC(5,1))",
            "CREATE TABLE nst2 (k INT PRIMARY KEY, n NUMERIC(12,2), b NUMERIC, d NUMERIC(6,2))",
            "CREATE TABLE nsp (id INT PRIMARY KEY, x NUMERIC, y NUMERIC, z NUMERIC(20,10))",
            "INSERT INTO nst VALUES (1, 1.5, 1.5), (2, 2, 2), (3, NULL, NULL), (4, 7, 7.0), (5, 0, 0)",
            "INSERT INTO nst2 VALUES (1, 13.75, 1.50, 1.50), (2, 0.10, 2.0, 2.00), (3, NULL, 0.00, 0),"
                    + " (5, 1.25, NULL, NULL)",
            "INSERT INTO nsp VALUES (1, 1234567, 2, 12345.1234567891), (2, 1.5, 2.25, 0.5), (3, NULL, 3, NULL),"
                    + " (4, 1000000.5, 3000000.25, 99999.9999999999)",
            "SELECT id, (SELECT coalesce(sum(n), 0) FROM nst2 WHERE nst2.k = nst.id) AS s FROM nst ORDER BY id",
            "SELECT id, (SELECT sum(n) FROM nst2 WHERE k = id) AS s, (SELECT max(n) FROM nst2 WHERE k = id) AS m,"
                    + " (SELECT coalesce(sum(b), 0) FROM nst2 WHERE k = id) AS b,"
                    + " (SELECT coalesce(avg(n), 0) FROM nst2 WHERE k = id) AS v FROM nst ORDER BY id",
            "SELECT id, (SELECT coalesce(sum(n), 0) FROM nst2) AS s FROM nst ORDER BY id",
            "SELECT id, l.s FROM nst, LATERAL (SELECT coalesce(sum(n), 0) AS s FROM nst2 WHERE k = id) l ORDER BY id",
            "SELECT x * y > 5 AS a FROM (VALUES (1234567::numeric, 2::numeric)) v(x, y)",
            "SELECT id, x * y AS p, x * y > 5.5 AS a, x * y = 2469134 AS b, x * y * x > 5 AS c,"
                    + " (x * y) * (x * y) < 1e30 AS d, z * z AS zz, z * x > 10.5 AS e FROM nsp ORDER BY id",
            "SELECT id FROM nsp WHERE x * y BETWEEN 3 AND 1e13 ORDER BY id",
            "SELECT pg_typeof(x * y)::text, pg_typeof(z * z)::text FROM nsp WHERE id = 1",
            "SELECT id FROM nst WHERE a IN (SELECT b FROM nst2) ORDER BY id",
            "SELECT id FROM nst WHERE a = ANY (SELECT b FROM nst2) ORDER BY id",
            "SELECT id FROM nst WHERE a NOT IN (SELECT b FROM nst2 WHERE b IS NOT NULL) ORDER BY id",
            "SELECT id, a IN (SELECT b FROM nst2) AS i, c IN (SELECT d FROM nst2) AS j,"
                    + " a NOT IN (SELECT d FROM nst2) AS k FROM nst ORDER BY id",
            "SELECT id FROM nst WHERE c IN (SELECT d FROM nst2) ORDER BY id",
            "SELECT id FROM nst WHERE EXISTS (SELECT 1 FROM nst2 WHERE b = a) ORDER BY id",
            "SELECT id, k FROM nst JOIN nst2 ON a = b ORDER BY id",
            "SELECT 1.5 IN (SELECT 1.50) AS a, 2 IN (SELECT 2.0) AS b, 2.0 = ANY (SELECT 2::numeric) AS c,"
                    + " 1.5 NOT IN (SELECT 1.50) AS d");

    /** A view filtered and keyed by numeric results: what PostgreSQL's query gives after writes. */
    private static final String FILTERED = "SELECT id, e::numeric AS en, exp(n) AS ex, extract(second FROM ts) AS s,"
            + " round(n, 1) AS r FROM ncv WHERE e::numeric > 0.25 AND extract(second FROM ts) < 2.5"
            + " OR abs(n) IN (2.4, 2.45) OR sqrt(abs(n)) BETWEEN 1.55 AND 1.58";

    private static PostgresPair pair;

    /**
     * GROUP BY, DISTINCT, count(DISTINCT), UNION, INTERSECT and EXCEPT of numerics of different
     * scales in ad-hoc queries: {@code 1.5} and {@code 1.50} are one group (issue 12: two groups). A
     * group of several scales shows the first value it met, which depends on the plan and the rows'
     * order, so such groups and set operations' rows are shown through {@code round}; a group of
     * one scale shows its value as it is.
     */
    private static final List<String> GROUPS = List.of(
            "CREATE TABLE ng (id INT PRIMARY KEY, x NUMERIC, y NUMERIC(6,2), g INT)",
            "INSERT INTO ng VALUES (1, 1.50, 1.5, 1), (2, 1.5, 2, 1), (3, 2, 2.00, 2), (4, 2.000, 3, 2),"
                    + " (5, NULL, NULL, 1), (6, 1.500, 1.5, 2)",
            "SELECT round(x, 3) AS k FROM (SELECT DISTINCT x FROM ng) d ORDER BY 1",
            "SELECT round(x, 3) AS k, count(*) AS c, sum(y) AS s FROM ng GROUP BY x ORDER BY 1",
            "SELECT g, round(x, 3) AS k, count(*) AS c FROM ng GROUP BY g, x ORDER BY 1, 2",
            "SELECT DISTINCT x FROM ng WHERE id IN (1, 3, 5) ORDER BY x",
            "SELECT x, count(*) AS c FROM ng WHERE id IN (2, 4, 6) GROUP BY x ORDER BY x",
            "SELECT count(DISTINCT x) AS c, count(DISTINCT x * y) AS p FROM ng",
            "SELECT g, count(DISTINCT x) AS c FROM ng GROUP BY g ORDER BY g",
            "SELECT round(u, 3) AS r FROM (SELECT x AS u FROM ng UNION SELECT y FROM ng) s ORDER BY 1",
            "SELECT round(u, 3) AS r FROM (SELECT x AS u FROM ng INTERSECT SELECT y FROM ng) s ORDER BY 1",
            "SELECT round(u, 3) AS r FROM (SELECT y AS u FROM ng EXCEPT SELECT x FROM ng) s ORDER BY 1",
            "SELECT round(u, 3) AS r FROM (SELECT x AS u FROM ng INTERSECT ALL SELECT y FROM ng) s ORDER BY 1",
            "SELECT round(u, 3) AS r FROM (SELECT x AS u FROM ng EXCEPT ALL SELECT y FROM ng) s ORDER BY 1",
            "SELECT count(*) AS c FROM (SELECT x FROM ng UNION SELECT 1.5000) s",
            "SELECT g, x, count(*) AS c FROM ng WHERE id IN (1, 3, 5) GROUP BY ROLLUP (g, x) ORDER BY 1, 2, 3",
            "SELECT g, round(x, 3) AS k, count(*) AS c FROM ng GROUP BY GROUPING SETS ((g), (x), ()) ORDER BY 1, 2, 3");

    /**
     * INTERSECT, EXCEPT and UNION, with and without ALL, of unconstrained numerics whose groups have
     * one scale on each side, another on each: each row shows the value of the group's first row of
     * the first input ({@code 1.50} where the second input has {@code 1.5}), repeated as often as
     * the set operation keeps the group, as PostgreSQL's HashSetOp does (it had shown the key,
     * {@code 1.5}); NULLs are one group.
     */
    private static final List<String> SET_ROWS = List.of(
            "CREATE TABLE nl (id INT PRIMARY KEY, x NUMERIC, t TEXT)",
            "CREATE TABLE nr (id INT PRIMARY KEY, x NUMERIC, t TEXT)",
            "INSERT INTO nl VALUES (1, 1.50, 'a'), (2, 1.50, 'a'), (3, 1.50, 'a'), (4, 2.0, 'a'), (5, NULL,"
                    + " 'a'), (6, NULL, 'a'), (7, 3, 'b'), (8, 7.10, 'a')",
            "INSERT INTO nr VALUES (1, 1.5, 'a'), (2, 1.5, 'a'), (3, NULL, 'a'), (4, 2.00, 'a'), (5, 2.00, 'a'),"
                    + " (6, 3.0, 'b'), (7, 3.0, 'a'), (8, 7.1, 'a'), (9, 8, 'a')",
            "SELECT x FROM nl INTERSECT ALL SELECT x FROM nr ORDER BY 1",
            "SELECT x FROM nr INTERSECT ALL SELECT x FROM nl ORDER BY 1",
            "SELECT x FROM nl EXCEPT ALL SELECT x FROM nr ORDER BY 1",
            "SELECT x FROM nr EXCEPT ALL SELECT x FROM nl ORDER BY 1",
            "SELECT x, t FROM nl INTERSECT ALL SELECT x, t FROM nr ORDER BY 1, 2",
            "SELECT x, t FROM nr EXCEPT ALL SELECT x, t FROM nl ORDER BY 1, 2",
            "SELECT x FROM nl INTERSECT SELECT x FROM nr ORDER BY 1",
            "SELECT x FROM nr INTERSECT SELECT x FROM nl ORDER BY 1",
            "SELECT x FROM nl EXCEPT SELECT x FROM nr ORDER BY 1",
            "SELECT x FROM nr EXCEPT SELECT x FROM nl ORDER BY 1",
            "SELECT x FROM nl UNION SELECT x FROM nr ORDER BY 1",
            "SELECT x FROM nr UNION SELECT x FROM nl ORDER BY 1",
            "SELECT x FROM nl INTERSECT ALL SELECT x FROM nr INTERSECT ALL SELECT x FROM nl ORDER BY 1",
            "SELECT x FROM nl EXCEPT ALL SELECT x FROM nr EXCEPT ALL SELECT 1.5 ORDER BY 1",
            "SELECT x FROM nl EXCEPT ALL (SELECT x FROM nr INTERSECT ALL SELECT 1.500) ORDER BY 1",
            "SELECT count(*) AS c, count(x) AS n FROM (SELECT x FROM nl INTERSECT ALL SELECT x FROM nr) s");

    /**
     * Window partitions of an unconstrained numeric: {@code 1.5} and {@code 1.50} are one partition
     * (they had been two), ORDER BY ties stay peers, and a NUMERIC(6,2) partition is as it was.
     */
    private static final List<String> WINDOWS = List.of(
            "CREATE TABLE nw (id INT PRIMARY KEY, x NUMERIC, y NUMERIC(6,2), g INT)",
            "INSERT INTO nw VALUES (1, 1.50, 1.5, 1), (2, 1.5, 2, 1), (3, 2, 2.00, 2), (4, 2.000, 3, 2), (5,"
                    + " NULL, NULL, 1), (6, 1.500, 1.5, 2)",
            "SELECT id, count(*) OVER (PARTITION BY x) AS c, sum(id) OVER (PARTITION BY x) AS s FROM nw ORDER BY"
                    + " id",
            "SELECT id, row_number() OVER (PARTITION BY x ORDER BY id) AS r, rank() OVER (PARTITION BY g, x"
                    + " ORDER BY id) AS k FROM nw ORDER BY id",
            "SELECT round(x, 3) AS k, max(r) AS m, count(*) AS c FROM (SELECT x, row_number() OVER (PARTITION BY"
                    + " x) AS r FROM nw) s GROUP BY 1 ORDER BY 1",
            "SELECT id, rank() OVER (ORDER BY x) AS r, sum(id) OVER (ORDER BY x) AS s, count(*) OVER (ORDER BY x"
                    + " RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS p FROM nw ORDER BY id",
            "SELECT id, count(*) OVER (PARTITION BY x * 1) AS c, count(*) OVER (PARTITION BY y) AS d FROM nw"
                    + " ORDER BY id",
            "SELECT id, first_value(id) OVER (PARTITION BY x ORDER BY id) AS f FROM nw ORDER BY id");

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("nummath-diff-");
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

    @Test
    void numericResultsCompareWithFractionsAsPostgres() {
        List<String> mismatches = pair.mismatches(COMPARISONS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void numericResultsBesideIntegersAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(COMMON_TYPES);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void numericsOfDifferentScalesGroupAsOneAsInPostgres() {
        List<String> mismatches = pair.mismatches(GROUPS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void setOperationsOfNumericsShowTheFirstInputsValueAsPostgres() {
        List<String> mismatches = pair.mismatches(SET_ROWS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void numericWindowPartitionsHoldEqualValuesAsPostgres() {
        List<String> mismatches = pair.mismatches(WINDOWS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void numericScalesInSubQueriesProductsAndMembershipAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(SCALES);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * A view of products of unconstrained numerics (a sum of them, one compared with a fraction) and
     * one of {@code x IN (SELECT y ...)} over numerics of other scales hold what PostgreSQL's queries
     * give after writes; the products' columns are {@code numeric} in pg_attribute.
     */
    @Test
    void viewsOfNumericProductsAndMembershipHoldWhatPostgresQueriesGive() throws Exception {
        String products = "SELECT g, sum(x * y) AS s, max(z * z) AS zz, count(*) AS c FROM nvp"
                + " WHERE x * y > 2.5 OR z IS NULL GROUP BY g";
        String membership = "SELECT id, a FROM nvt WHERE a IN (SELECT b FROM nvt2)";
        pair.both("CREATE TABLE nvp (id INT PRIMARY KEY, g INT, x NUMERIC, y NUMERIC, z NUMERIC(20,10))");
        pair.both("CREATE TABLE nvt (id INT PRIMARY KEY, a NUMERIC)");
        pair.both("CREATE TABLE nvt2 (k INT PRIMARY KEY, b NUMERIC(6,2))");
        pair.both("INSERT INTO nvp VALUES (1, 1, 1234567, 2, 12345.1234567891), (2, 1, 1.5, 2.25, 0.5),"
                + " (3, 2, NULL, 3, NULL)");
        pair.both("INSERT INTO nvt VALUES (1, 1.5), (2, 2), (3, NULL), (4, 7)");
        pair.both("INSERT INTO nvt2 VALUES (1, 1.50), (2, 3.00)");
        String[] created = pair.both("CREATE MATERIALIZED VIEW nvp_v AS " + products);
        assertFalse(created[1].startsWith("ERROR"), created[1]);
        created = pair.both("CREATE MATERIALIZED VIEW nvt_v AS " + membership);
        assertFalse(created[1].startsWith("ERROR"), created[1]);
        String types = "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute"
                + " WHERE attrelid = 'nvp_v'::regclass AND attnum > 0 ORDER BY attnum";
        assertEquals(SortedRows.of(pair.pg, types), SortedRows.of(pair.tributary.connection, types));
        pair.both("INSERT INTO nvp VALUES (4, 2, 1000000.5, 3000000.25, 99999.9999999999), (5, 1, 2, 1.25, 1)");
        pair.both("DELETE FROM nvp WHERE id = 3");
        pair.both("INSERT INTO nvt2 VALUES (3, 2.00), (4, 7.0)");
        pair.both("DELETE FROM nvt2 WHERE k = 1");
        assertEquals(
                SortedRows.withLabels(pair.pg, products),
                SortedRows.withLabels(pair.tributary.connection, "SELECT * FROM nvp_v"));
        assertEquals(
                SortedRows.withLabels(pair.pg, membership),
                SortedRows.withLabels(pair.tributary.connection, "SELECT * FROM nvt_v"));
    }

    /**
     * A view of COALESCE, CASE, NULLIF and GREATEST of numeric results beside integers, filtered by
     * one compared with a fraction, holds what PostgreSQL's query gives after writes.
     */
    @Test
    void viewOfNumericResultsBesideIntegersHoldsWhatPostgresQueryGives() throws Exception {
        String query = "SELECT eid, coalesce(sum(amount), 0) AS s, greatest(sum(amount), 0) AS g,"
                + " coalesce(max(amount), 0) AS mx, count(*) AS c FROM ncvo GROUP BY eid";
        String filtered = "SELECT id, coalesce(f::numeric, 0) AS c, CASE WHEN id = 1 THEN f::numeric ELSE 0 END AS k,"
                + " greatest(f::numeric, 1) AS g, nullif(f::numeric, 2.5) AS nn FROM ncvm"
                + " WHERE coalesce(f::numeric, 1) > 0.25";
        pair.both("CREATE TABLE ncvo (oid INT PRIMARY KEY, eid INT, amount NUMERIC(12,2))");
        pair.both("CREATE TABLE ncvm (id INT PRIMARY KEY, f DOUBLE PRECISION)");
        pair.both("INSERT INTO ncvo VALUES (1, 1, 2.50), (2, 1, 3.25), (3, 2, NULL)");
        pair.both("INSERT INTO ncvm VALUES (1, 0.3), (2, 2.5), (3, NULL), (4, 0.2)");
        String[] sums = pair.both("CREATE MATERIALIZED VIEW ncv_sums AS " + query);
        assertFalse(sums[1].startsWith("ERROR"), sums[1]);
        String[] casts = pair.both("CREATE MATERIALIZED VIEW ncv_casts AS " + filtered);
        assertFalse(casts[1].startsWith("ERROR"), casts[1]);
        pair.both("INSERT INTO ncvo VALUES (4, 2, 1.25), (5, 1, 0.01)");
        pair.both("INSERT INTO ncvm VALUES (5, 2.75), (6, 0.26)");
        pair.both("DELETE FROM ncvo WHERE oid = 1");
        pair.both("DELETE FROM ncvm WHERE id = 1");
        assertEquals(
                SortedRows.withLabels(pair.pg, query),
                SortedRows.withLabels(pair.tributary.connection, "SELECT * FROM ncv_sums"));
        assertEquals(
                SortedRows.withLabels(pair.pg, filtered),
                SortedRows.withLabels(pair.tributary.connection, "SELECT * FROM ncv_casts"));
    }

    /**
     * A view whose filter compares numeric results with fractions holds what PostgreSQL's query
     * gives after inserts and deletes; its numeric result columns are {@code numeric}, as
     * PostgreSQL's view's, in pg_attribute.
     */
    @Test
    void viewFilteredByNumericResultsHoldsWhatPostgresQueryGives() throws Exception {
        pair.both("CREATE TABLE ncv (id INT PRIMARY KEY, e DOUBLE PRECISION, ts TIMESTAMP, n NUMERIC)");
        pair.both("INSERT INTO ncv VALUES (1, 0.3, '2020-01-01 00:00:02.4', 1), (2, 0.2, '2020-01-01 00:00:02.4', 2.4),"
                + " (3, 0.3, '2020-01-01 00:00:02.6', 2.5)");
        String[] created = pair.both("CREATE MATERIALIZED VIEW ncv_f AS " + FILTERED);
        assertFalse(created[1].startsWith("ERROR"), created[1]);
        String types = "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute"
                + " WHERE attrelid = 'ncv_f'::regclass AND attnum > 0 ORDER BY attnum";
        assertEquals(SortedRows.of(pair.pg, types), SortedRows.of(pair.tributary.connection, types));
        pair.both("INSERT INTO ncv VALUES (4, 2.4, '2020-01-01 00:00:02.2', -2.45), (5, 0.1, NULL, 2.44),"
                + " (6, NULL, '2020-01-01 00:00:01.5', 2.4999)");
        pair.both("DELETE FROM ncv WHERE id IN (1, 2)");
        pair.both("INSERT INTO ncv VALUES (7, 0.26, '2020-01-01 00:00:02.49', 0)");
        assertEquals(
                SortedRows.withLabels(pair.pg, FILTERED),
                SortedRows.withLabels(pair.tributary.connection, "SELECT * FROM ncv_f"));
    }

    /** A view over the functions holds what PostgreSQL's query gives, after an insert, an update and a delete. */
    @Test
    void viewHoldsWhatPostgresQueryGives() throws Exception {
        pair.both("CREATE TABLE nv (id INT PRIMARY KEY, n NUMERIC(12,4), w NUMERIC)");
        pair.both("INSERT INTO nv VALUES (1, 2, 2), (3, NULL, NULL)");
        String[] created = pair.both("CREATE MATERIALIZED VIEW nv_fns AS SELECT " + FUNCTIONS + " FROM nv");
        assertFalse(created[1].startsWith("ERROR"), created[1]);
        pair.both("INSERT INTO nv VALUES (2, 37.5, 123456789.123456789), (5, 12345678.9999, 1)");
        pair.both("UPDATE nv SET n = 0.25, w = 0.5 WHERE id = 1");
        pair.both("DELETE FROM nv WHERE id = 5");
        assertEquals(
                SortedRows.withLabels(pair.pg, "SELECT " + FUNCTIONS + " FROM nv"),
                SortedRows.withLabels(pair.tributary.connection, "SELECT * FROM nv_fns"));
    }
}
