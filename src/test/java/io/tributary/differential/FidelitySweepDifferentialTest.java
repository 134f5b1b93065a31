package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Wrong labels, wrong SQLSTATEs and silent wrong answers of issue 12, and the everyday statements
 * of the sweep that found them: a USING join after a comma labels its merged column with its own
 * name ({@code k}, was {@code k0}); a USING or NATURAL join whose side has the common column twice
 * is 42702 (was answered); a UNION of a bigint or integer and a numeric, or of numerics of two
 * scales, keeps each value's own scale ({@code 5}, was {@code 5.00}); a window function inside an
 * aggregate is 42803 (was 42601, or 0A000 in a correlated sub-query); an array cast to text is
 * PostgreSQL's array text (was 42846; of dates, times, timestamps and intervals 0A000); a CASE is
 * labelled as its ELSE result where that names itself (was {@code case}). Each statement's rows, with
 * their labels and JDBC types, or its SQLSTATE must match an embedded PostgreSQL's.
 */
class FidelitySweepDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE fa (id INT PRIMARY KEY, k INT, x BIGINT)",
            "CREATE TABLE fb (id INT PRIMARY KEY, k INT, y NUMERIC(12,2))",
            "CREATE TABLE fc (id INT PRIMARY KEY, k INT, z NUMERIC(10,2), w NUMERIC(12,4))",
            "INSERT INTO fa VALUES (1, 1, 5), (2, 2, 7)",
            "INSERT INTO fb VALUES (1, 1, 5.5), (2, 3, 7.25)",
            "INSERT INTO fc VALUES (1, 1, 1.5, 2.125), (2, 2, 3, 4)",
            "CREATE TABLE fp (id INT PRIMARY KEY, g INT, s TEXT, n NUMERIC(8,3), f DOUBLE PRECISION, b BOOLEAN)",
            "INSERT INTO fp VALUES (1, 1, 'apple', 1.500, 2.5, true), (2, 1, 'Banana', NULL, -1.25, false),"
                    + " (3, 2, NULL, 10.125, NULL, NULL), (4, NULL, 'cherry pie', -3.000, 0, true),"
                    + " (5, 2, 'apple', 7.000, 1e10, false), (6, 3, '', 0.001, 3.75, true)",
            "CREATE TABLE fq (id INT PRIMARY KEY, g INT, t TEXT)",
            "INSERT INTO fq VALUES (1, 1, 'x'), (2, 2, 'y'), (3, 2, NULL), (4, 5, 'z'), (5, NULL, 'w')");

    /** The cases of issue 12 fixed here, each of which Tributary answered otherwise. */
    private static final List<String> FIXED = List.of(
            // the merged column of a USING join after a comma is k, not k0
            "SELECT * FROM fa, fb JOIN fc USING (k) ORDER BY fa.id",
            "SELECT * FROM fa a, fb b LEFT JOIN fc c USING (k) ORDER BY a.id, b.id",
            "SELECT * FROM fa a, fb b JOIN fc c USING (k) WHERE k = 1 ORDER BY a.id",
            "SELECT * FROM fa JOIN fb USING (k) JOIN fc USING (k) ORDER BY 1",
            "SELECT * FROM fa JOIN fb USING (id, k) ORDER BY 1",
            "SELECT * FROM fa JOIN fb USING (k) CROSS JOIN fc ORDER BY fc.id",
            // a common column a side has twice
            "SELECT * FROM fa CROSS JOIN fb JOIN fc USING (k)",
            "SELECT * FROM (SELECT 1 AS k, 2 AS k) s JOIN fc USING (k)",
            "SELECT * FROM fa CROSS JOIN fb NATURAL JOIN fc",
            "SELECT * FROM fc JOIN (fa CROSS JOIN fb) USING (k)",
            // a union of an integer and a numeric, or of two scales, keeps each value's scale
            "SELECT x FROM fa UNION SELECT y FROM fb ORDER BY 1",
            "SELECT k FROM fa UNION SELECT y FROM fb ORDER BY 1",
            "SELECT z FROM fc UNION SELECT w FROM fc ORDER BY 1",
            "SELECT x FROM fa UNION ALL SELECT y FROM fb ORDER BY 1",
            "SELECT x FROM fa UNION SELECT z FROM fc ORDER BY 1",
            "SELECT x FROM fa INTERSECT SELECT y FROM fb ORDER BY 1",
            "SELECT y FROM fb EXCEPT SELECT x FROM fa ORDER BY 1",
            "SELECT n FROM fp UNION SELECT id FROM fq ORDER BY 1",
            "SELECT g, n FROM fp UNION SELECT g, id FROM fq ORDER BY 1, 2",
            "SELECT sum(n) FROM fp UNION ALL SELECT count(*) FROM fq ORDER BY 1",
            "SELECT y FROM fb UNION SELECT y FROM fb ORDER BY 1",
            // a window function inside an aggregate
            "SELECT sum(row_number() OVER ()) FROM fa",
            "SELECT max(rank() OVER (ORDER BY x)) + 1 FROM fa",
            "SELECT k, count(sum(x) OVER ()) FROM fa GROUP BY k",
            "SELECT (SELECT sum(row_number() OVER ()) FROM fb b WHERE b.k = a.k) FROM fa a",
            "SELECT sum(k) OVER (), abs(row_number() OVER ()) FROM fa ORDER BY 2",
            "SELECT max((SELECT row_number() OVER () FROM fb LIMIT 1)) FROM fa",
            // an array cast to text is array_out's text (was 42846)
            "SELECT ARRAY[1,2]::text",
            "SELECT ARRAY['a b','c']::text",
            "SELECT ARRAY[NULL,1]::text",
            "SELECT (ARRAY[1.5])::text",
            "SELECT ARRAY['x\"y', 'back\\slash', '', 'NULL', 'null', 'a,b', '{c}']::text",
            "SELECT ARRAY[true, false]::text",
            "SELECT ARRAY[1.5::float8, 1e20::float8, 0.1::float8]::text",
            "SELECT ARRAY[1,2]::varchar",
            "SELECT CAST(ARRAY[1,2] AS text) AS t",
            "SELECT ARRAY[1,2]::text || 'x'",
            "SELECT length(ARRAY[1,2]::text)",
            "SELECT '{1,2}'::int[]::text",
            "SELECT '{a,\"b c\"}'::text[]::text",
            "SELECT ARRAY[s, 'z']::text FROM fp ORDER BY id",
            "SELECT ARRAY[NULL::int]::text",
            "SELECT (NULL::int[])::text",
            "SELECT '{1,2}'::int[]",
            // a CASE is named as its ELSE result where that names itself
            "SELECT CASE WHEN b THEN n ELSE id END FROM fp ORDER BY 1",
            "SELECT id, CASE WHEN b THEN n ELSE id END FROM fp ORDER BY 1",
            "SELECT CASE g WHEN 1 THEN s ELSE upper(s) END FROM fp ORDER BY 1",
            "SELECT CASE WHEN b THEN 1 ELSE (SELECT 2) END FROM fp ORDER BY 1",
            "SELECT CASE WHEN b THEN 1 ELSE fp.g END FROM fp ORDER BY 1",
            "SELECT CASE WHEN b THEN 1 ELSE g::text::int END FROM fp ORDER BY 1",
            "SELECT CASE WHEN b THEN 1 ELSE CASE WHEN g > 1 THEN 2 ELSE id END END FROM fp ORDER BY 1",
            "SELECT CASE WHEN b THEN 'x' ELSE 'y'::text END FROM fp ORDER BY 1",
            "SELECT CASE WHEN b THEN 1 ELSE g + 1 END FROM fp ORDER BY 1");

    /** Everyday statements of the sweep that already answered as PostgreSQL, kept so they stay so. */
    private static final List<String> SWEEP = List.of(
            "SELECT p.id, q.id FROM fp p LEFT JOIN fq q ON q.g = p.g ORDER BY 1, 2",
            "SELECT p.id, q.id FROM fp p RIGHT JOIN fq q ON q.g = p.g ORDER BY 1, 2",
            "SELECT p.id, q.id FROM fp p FULL JOIN fq q ON q.g = p.g ORDER BY 1 NULLS FIRST, 2",
            "SELECT * FROM fp p JOIN fq q USING (id, g) ORDER BY id",
            "SELECT * FROM fp NATURAL JOIN fq ORDER BY id",
            "SELECT * FROM fp p FULL JOIN fq q USING (g) ORDER BY g, p.id, q.id",
            "SELECT p.id FROM fp p WHERE EXISTS (SELECT 1 FROM fq q WHERE q.g = p.g) ORDER BY 1",
            "SELECT p.id FROM fp p WHERE p.g NOT IN (SELECT g FROM fq) ORDER BY 1",
            "SELECT p.id FROM fp p WHERE p.g NOT IN (SELECT g FROM fq WHERE g IS NOT NULL) ORDER BY 1",
            "SELECT p.id FROM fp p WHERE p.g IN (SELECT g FROM fq) ORDER BY 1",
            "SELECT p.id, (SELECT count(*) FROM fq q WHERE q.g = p.g) FROM fp p ORDER BY 1",
            "SELECT p.id FROM fp p WHERE p.n > ALL (SELECT n FROM fp WHERE g = 1 AND n IS NOT NULL) ORDER BY 1",
            "SELECT p.id FROM fp p WHERE p.n > ANY (SELECT n FROM fp WHERE g = 2) ORDER BY 1",
            "SELECT g FROM fp UNION SELECT g FROM fq ORDER BY 1",
            "SELECT g FROM fp UNION ALL SELECT g FROM fq ORDER BY 1",
            "SELECT g FROM fp INTERSECT SELECT g FROM fq ORDER BY 1",
            "SELECT g FROM fp EXCEPT SELECT g FROM fq ORDER BY 1",
            "SELECT g FROM fp EXCEPT ALL SELECT g FROM fq ORDER BY 1",
            "SELECT g FROM fp INTERSECT ALL SELECT g FROM fq ORDER BY 1",
            "SELECT f FROM fp UNION SELECT n FROM fp ORDER BY 1",
            "SELECT s FROM fp UNION SELECT t FROM fq ORDER BY 1",
            "SELECT 1 AS a UNION SELECT 2 ORDER BY a DESC",
            "SELECT g, sum(n), avg(n), min(s), max(s) FROM fp GROUP BY g ORDER BY g",
            "SELECT g, count(*) FROM fp GROUP BY g HAVING count(*) > 1 ORDER BY g",
            "SELECT g, count(n), count(DISTINCT s) FROM fp GROUP BY g HAVING sum(n) IS NOT NULL ORDER BY g",
            "SELECT count(*) FROM fp HAVING count(*) > 100",
            "SELECT g, string_agg(s, ',' ORDER BY id) FROM fp GROUP BY g ORDER BY g",
            "SELECT bool_and(b), bool_or(b), every(b) FROM fp",
            "SELECT g, avg(f) FROM fp GROUP BY g ORDER BY 2 NULLS FIRST",
            "SELECT id, n FROM fp ORDER BY n NULLS FIRST",
            "SELECT id, n FROM fp ORDER BY n DESC NULLS LAST",
            "SELECT id, s FROM fp ORDER BY s, id",
            "SELECT id, s FROM fp ORDER BY s DESC, id",
            "SELECT id FROM fp ORDER BY id LIMIT 2 OFFSET 3",
            "SELECT id FROM fp ORDER BY id OFFSET 4",
            "SELECT id FROM fp ORDER BY id LIMIT 0",
            "SELECT id FROM fp ORDER BY id FETCH FIRST 2 ROWS ONLY",
            "SELECT DISTINCT ON (g) g, id, s FROM fp ORDER BY g, id DESC",
            "SELECT DISTINCT ON (g) g, s FROM fp ORDER BY g NULLS FIRST, s",
            "SELECT DISTINCT g FROM fp ORDER BY g",
            "SELECT id, CASE WHEN n > 5 THEN 'big' WHEN n > 0 THEN 'small' ELSE 'other' END FROM fp ORDER BY id",
            "SELECT id, CASE g WHEN 1 THEN 'one' WHEN 2 THEN 'two' END FROM fp ORDER BY id",
            "SELECT CASE WHEN b THEN n ELSE 1 END FROM fp ORDER BY 1",
            "SELECT CASE WHEN b THEN n END FROM fp ORDER BY 1",
            "SELECT id, coalesce(s, 'none'), nullif(g, 2) FROM fp ORDER BY id",
            "SELECT upper(s), lower(s), length(s), initcap(s) FROM fp ORDER BY id",
            "SELECT substr(s, 2, 3), position('an' IN s), replace(s, 'a', 'A') FROM fp ORDER BY id",
            "SELECT trim(' x '), ltrim('xxy', 'x'), rtrim('yxx', 'x'), btrim('  a  ')",
            "SELECT lpad(s, 8, '*'), rpad(s, 8, '-') FROM fp ORDER BY id",
            "SELECT concat(s, '-', g), concat_ws('|', s, g, n) FROM fp ORDER BY id",
            "SELECT s || '!' , left(s, 2), right(s, 2), reverse(s) FROM fp ORDER BY id",
            "SELECT split_part('a,b,c', ',', 2), strpos('hello', 'l'), repeat('ab', 3)",
            "SELECT s LIKE 'a%', s ILIKE 'b%', s ~ '^c' FROM fp ORDER BY id",
            "SELECT round(n, 1), trunc(n, 1), ceil(n), floor(n), abs(n) FROM fp ORDER BY id",
            "SELECT round(f), sign(f), mod(id, 4), id % 3, id / 4 FROM fp ORDER BY id",
            "SELECT n * 2, n / 3, n + f, -n FROM fp ORDER BY id",
            "SELECT 7 / 2, 7.0 / 2, 7 % 3, 2 ^ 10, |/ 16.0, power(2, 0.5)",
            "SELECT round(2.5), round(-2.5), round(2.5::float8), trunc(-1.7)",
            "SELECT greatest(1, 2.5, 3), least('b', 'a'), greatest(n, f) FROM fp ORDER BY id",
            "SELECT sum(id)::numeric / count(*), avg(id), avg(id)::int FROM fp",
            "SELECT id, row_number() OVER (PARTITION BY g ORDER BY id), sum(n) OVER (ORDER BY id) FROM fp ORDER BY id",
            "SELECT id, rank() OVER (ORDER BY g NULLS FIRST), lag(s) OVER (ORDER BY id) FROM fp ORDER BY id",
            "SELECT x.g, x.c FROM (SELECT g, count(*) c FROM fp GROUP BY g) x WHERE x.c > 1 ORDER BY 1",
            "WITH t AS (SELECT g, max(n) m FROM fp GROUP BY g) SELECT * FROM t ORDER BY m NULLS FIRST",
            "SELECT id FROM fp WHERE s IS DISTINCT FROM 'apple' ORDER BY id",
            "SELECT id FROM fp WHERE g BETWEEN 1 AND 2 AND n NOT BETWEEN 0 AND 5 ORDER BY id",
            "SELECT count(*) FILTER (WHERE b), count(*) FILTER (WHERE NOT b) FROM fp",
            "SELECT g, count(*) FROM fp GROUP BY ROLLUP (g) ORDER BY g",
            "SELECT 'a' || NULL, NULL::int + 1, 1 = NULL",
            "SELECT cast('12.50' AS numeric), '1e3'::numeric, 0.1 + 0.2, 1/3::numeric",
            "SELECT id FROM fp ORDER BY g DESC, id LIMIT 3",
            "SELECT p.g, max(q.t) FROM fp p JOIN fq q ON p.g = q.g GROUP BY p.g HAVING max(q.t) > 'x' ORDER BY 1",
            "SELECT id, s FROM fp WHERE s = ANY (ARRAY['apple', 'cherry pie']) ORDER BY id");

    /** Array casts to text of elements whose text Tributary cannot tell from their values: 0A000, where PostgreSQL answers. */
    private static final List<String> REFUSED =
            List.of("SELECT ARRAY[DATE '2024-01-02']::text", "SELECT ARRAY[INTERVAL '1 day']::text");

    /** Set operations of numbers whose result type (by name) must be PostgreSQL's. */
    private static final List<String> TYPED = List.of(
            "SELECT x FROM fa UNION SELECT y FROM fb ORDER BY 1",
            "SELECT k FROM fa UNION SELECT y FROM fb ORDER BY 1",
            "SELECT z FROM fc UNION SELECT w FROM fc ORDER BY 1",
            "SELECT x FROM fa UNION ALL SELECT z FROM fc ORDER BY 1");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("fidelity-sweep-diff-", 20, "postgres", "", 60);
        for (String sql : SETUP) {
            assertEquals(StatementOutcome.of(pg, sql, true), StatementOutcome.of(tributary.connection, sql, true), sql);
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void fixedCasesAnswerAsPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, FIXED));
    }

    @Test
    void sweepStatementsAnswerAsPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, SWEEP));
    }

    @Test
    void arrayCastsTributaryCannotPrintAreRefused() {
        List<String> wrong = new ArrayList<>();
        for (String sql : REFUSED) {
            if (StatementOutcome.of(pg, sql, true).startsWith("ERROR")) {
                wrong.add(sql + " fails on PostgreSQL too: not a refusal test");
            }
            String actual = StatementOutcome.of(tributary.connection, sql, true);
            if (!actual.equals("ERROR 0A000")) {
                wrong.add(sql + " -> " + actual);
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void numericSetOperationsHavePostgresTypes() {
        List<String> wrong = new ArrayList<>();
        for (String sql : TYPED) {
            String expected = StatementOutcome.withTypeNames(pg, sql);
            String actual = StatementOutcome.withTypeNames(tributary.connection, sql);
            if (!expected.equals(actual)) {
                wrong.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), wrong);
    }
}
