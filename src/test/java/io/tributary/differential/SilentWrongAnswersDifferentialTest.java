package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Statements Tributary answered with other rows than PostgreSQL, without an error: LATERAL
 * sub-queries that aggregate with one group, in every join form and with LIMIT, HAVING or GROUP BY
 * () (rows of the outer table without matches were dropped); a JOIN after a comma
 * (Calcite bound the comma tighter); {@code array_agg(DISTINCT x) FILTER (...)} alone (a NULL
 * element); window functions in correlated sub-queries (computed over the whole table, now
 * refused); a sub-query in a sub-query's select list naming the outermost query (bound to the
 * middle query's row, now refused), beside the shapes of such references that plan right. Each statement's rows, with their labels and JDBC types, or its SQLSTATE must match an
 * embedded PostgreSQL's; the refused ones must fail with 0A000 where PostgreSQL answers.
 */
class SilentWrongAnswersDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE wa (id INT PRIMARY KEY, k INT, x INT, s TEXT)",
            "INSERT INTO wa VALUES (1, 1, 10, 'a'), (2, 1, 20, 'b'), (3, 2, NULL, 'c'), (4, NULL, 40, NULL),"
                    + " (5, 3, 10, 'a'), (6, 2, 30, 'b')",
            "CREATE TABLE wb (id INT PRIMARY KEY, k INT, y INT, t TEXT)",
            "INSERT INTO wb VALUES (1, 1, 100, 'x'), (2, 1, 200, NULL), (3, 2, 300, 'y'), (4, NULL, 400, 'z'),"
                    + " (5, 2, NULL, 'y')",
            "CREATE TABLE wc (id INT PRIMARY KEY, k INT, z INT)",
            "INSERT INTO wc VALUES (1, 1, 7), (2, 3, 8), (3, NULL, 9), (4, 1, NULL), (5, 5, 5)");

    private static final List<String> STATEMENTS = List.of(
            // LATERAL aggregates: one row per outer row, NULL where nothing matches
            "SELECT a.id, o.s FROM wa a JOIN LATERAL (SELECT sum(y) AS s FROM wb b WHERE b.k = a.k) o ON 1=1 ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a JOIN LATERAL (SELECT sum(y) AS s FROM wb b WHERE b.k = a.k) o ON a.id > 0"
                    + " ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a JOIN LATERAL (SELECT max(y) AS s FROM wb b WHERE b.k = a.k) o ON o.s IS NULL"
                    + " ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a, LATERAL (SELECT sum(y) AS s FROM wb b WHERE b.k = a.k LIMIT 1) o ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a, LATERAL (SELECT sum(y) AS s FROM wb b WHERE b.k = a.k ORDER BY 1 LIMIT 1) o"
                    + " ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a, LATERAL (SELECT sum(y) AS s FROM wb b WHERE b.k = a.k OFFSET 1) o ORDER BY a.id",
            "SELECT a.id, o.x FROM wa a NATURAL JOIN LATERAL (SELECT max(b.y) / 10 AS x FROM wb b WHERE b.k = a.k) o"
                    + " ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a, LATERAL (SELECT sum(y) AS s FROM wb b WHERE b.k = a.k GROUP BY ()) o ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a, LATERAL (SELECT sum(y) AS s FROM wb b WHERE b.k = a.k HAVING true) o ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a, LATERAL (SELECT sum(y) AS s FROM wb b WHERE b.k = a.k HAVING sum(y) IS NULL) o"
                    + " ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a, LATERAL (SELECT sum(y) + 1 AS s FROM wb b WHERE b.k = a.k) o ORDER BY a.id",
            "SELECT a.id, o.* FROM wa a, LATERAL (SELECT sum(y), max(t) FROM wb b WHERE b.k = a.k) o ORDER BY a.id",
            "SELECT a.id, o.s, o.n FROM wa a, LATERAL (SELECT sum(y) AS s, count(*) AS n FROM wb b WHERE b.k = a.k) o"
                    + " ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a LEFT JOIN LATERAL (SELECT coalesce(sum(y), 0) AS s FROM wb b WHERE b.k = a.k) o"
                    + " ON o.s > 250 ORDER BY a.id",
            "SELECT a.id, o.s FROM wa a CROSS JOIN LATERAL (SELECT max(z) AS s FROM wc c WHERE c.k = a.k) o"
                    + " JOIN wb b ON b.id = a.id ORDER BY a.id",
            // JOIN binds tighter than the comma
            "SELECT a.id, b.id, c.id FROM wa a, wb b JOIN wc c ON c.k = a.k",
            "SELECT a.id, b.id, c.id FROM wa a, wb b LEFT JOIN wc c ON c.k = a.k",
            "SELECT a.id, b.id, c.id FROM wa a, wb b JOIN wc c ON c.k = b.k WHERE a.id < 3 ORDER BY 1, 2, 3",
            "SELECT a.id, b.id, c.id FROM wa a, wb b RIGHT JOIN wc c ON c.k = b.k WHERE a.id < 3 ORDER BY 1, 2, 3",
            "SELECT a.id, b.id, c.id FROM wa a, wb b FULL JOIN wc c ON c.k = b.k WHERE a.id < 3 ORDER BY 1, 2, 3",
            "SELECT * FROM wa a, wb b JOIN wc c ON c.k = b.k JOIN wa d ON d.id = c.id WHERE a.id = 1 ORDER BY b.id, c.id",
            "SELECT a.id, b.id, c.id FROM wa a CROSS JOIN wb b JOIN wc c ON c.k = a.k WHERE a.id = 1 ORDER BY 1, 2, 3",
            // DISTINCT with FILTER alone keeps no rejected row
            "SELECT array_agg(DISTINCT x) FILTER (WHERE x > 10) FROM wa",
            "SELECT array_agg(DISTINCT x) FILTER (WHERE x IS NOT NULL) FROM wa",
            "SELECT array_agg(DISTINCT x) FILTER (WHERE id > 2) FROM wa",
            "SELECT k, array_agg(DISTINCT x) FILTER (WHERE id > 1) FROM wa GROUP BY k ORDER BY k",
            "SELECT array_agg(DISTINCT x ORDER BY x DESC) FILTER (WHERE x > 10) FROM wa",
            "SELECT array_agg(DISTINCT x) FILTER (WHERE x > 100) FROM wa",
            "SELECT array_agg(DISTINCT s) FILTER (WHERE id < 5), string_agg(DISTINCT s, ',') FILTER (WHERE id < 5) FROM wa",
            // a reference two queries out from a WHERE, or one query out, plans right
            "SELECT a.id, (SELECT max(b.y) FROM wb b WHERE b.id = (SELECT max(c.id) FROM wc c WHERE c.k = a.k))"
                    + " FROM wa a ORDER BY a.id",
            "SELECT a.id, (SELECT count(*) FROM wb b WHERE EXISTS (SELECT 1 FROM wc c WHERE c.k = b.k AND c.k = a.k))"
                    + " FROM wa a ORDER BY a.id",
            "SELECT a.id, (SELECT 1 WHERE a.k > (SELECT min(b.k) FROM wb b WHERE b.k = a.k)) FROM wa a ORDER BY a.id",
            "SELECT a.id, (SELECT s.m FROM (SELECT max(b.y) AS m FROM wb b WHERE b.k = a.k) s) FROM wa a ORDER BY a.id",
            "SELECT a.id, (SELECT (SELECT max(c.z) FROM wc c WHERE c.k = b.k) FROM wb b WHERE b.id = 1) FROM wa a"
                    + " ORDER BY a.id");

    /** What PostgreSQL answers and Tributary computed wrongly: refused with 0A000 instead. */
    private static final List<String> REFUSED = List.of(
            "SELECT a.id, (SELECT max(r) FROM (SELECT rank() OVER (ORDER BY y) AS r FROM wb b WHERE b.k = a.k) q)"
                    + " FROM wa a ORDER BY a.id",
            "SELECT a.id, (SELECT row_number() OVER (ORDER BY y) FROM wb b WHERE b.k = a.k LIMIT 1) FROM wa a",
            "SELECT a.id, (SELECT count(*) OVER () FROM wb b WHERE b.k = a.k LIMIT 1) FROM wa a",
            "SELECT a.id FROM wa a WHERE a.x < (SELECT max(y) FROM (SELECT y, rank() OVER (ORDER BY y) r FROM wb b"
                    + " WHERE b.k = a.k) q WHERE r = 1)",
            // a sub-query in a sub-query's select list naming the outermost query: NULLs, or the middle row's
            "SELECT a.id, (SELECT (SELECT max(b.y) FROM wb b WHERE b.k = a.k)) FROM wa a ORDER BY a.id",
            "SELECT a.id, (SELECT (SELECT max(b.y) FROM wb b WHERE b.k = a.k) FROM wc c WHERE c.id = 1) FROM wa a"
                    + " ORDER BY a.id",
            "SELECT a.id, (SELECT (SELECT max(b.y) FROM wb b WHERE b.k = a.k) + w.v FROM (VALUES (1)) w(v)) FROM wa a"
                    + " ORDER BY a.id");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("wrong-answers-diff-", 20, "postgres", "", 60);
        for (String sql : SETUP) {
            assertEquals(StatementOutcome.of(pg, sql, true), StatementOutcome.of(tributary.connection, sql, true), sql);
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void statementsAnswerAsPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS));
    }

    @Test
    void correlatedShapesCalciteGetsWrongAreRefusedNotAnswered() {
        List<String> wrong = new ArrayList<>();
        for (String sql : REFUSED) {
            if (StatementOutcome.of(pg, sql, true).startsWith("ERROR")) {
                wrong.add(sql + " fails on PostgreSQL too: not a refusal test");
            }
            String actual = StatementOutcome.of(tributary.connection, sql, true);
            if (!actual.startsWith("ERROR 0A000")) {
                wrong.add(sql + " -> " + actual);
            }
        }
        assertEquals(List.of(), wrong);
    }
}
