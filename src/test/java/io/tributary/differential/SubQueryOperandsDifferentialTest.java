package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sub-queries with ORDER BY, LIMIT or OFFSET, set operations and WITH as operands of CASE and of the
 * {@code ::} cast answer as PostgreSQL's. The first two are modelled on parts of psql's trigger query for {@code \d}
 * of a table with a foreign key; both were 42601 (the statement, written back to text after a rewrite,
 * lost the sub-query's parentheses). Arithmetic inside a sub-query is PostgreSQL's as outside it (a
 * numeric's windowed sum there printed sixteen decimals, and an int overflow there wrapped), and a
 * correlated {@code avg} of a numeric has PostgreSQL's scale (it printed Calcite's six decimals).
 */
class SubQueryOperandsDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "SELECT CASE WHEN true THEN (SELECT u.tgrelid::oid FROM pg_trigger u LIMIT 1) END",
            "SELECT (SELECT u.tgrelid::regclass FROM pg_trigger u LIMIT 1)::oid AS x",
            "CREATE TABLE sq (id INT PRIMARY KEY, g INT)",
            "INSERT INTO sq VALUES (1, 10), (2, 20), (3, 30)",
            "SELECT id, CASE WHEN id > 1 THEN (SELECT s.g::text FROM sq s WHERE s.id < t.id ORDER BY s.g DESC LIMIT 1)"
                    + " END AS prev FROM sq t ORDER BY id",
            "SELECT id, (SELECT s.g FROM sq s ORDER BY s.g DESC LIMIT 1)::text AS top FROM sq t ORDER BY id",
            "SELECT id, (SELECT s.g FROM sq s WHERE s.id > t.id ORDER BY s.id LIMIT 1)::bigint * 2 AS nxt"
                    + " FROM sq t ORDER BY id",
            "SELECT id, CASE WHEN id = 2 THEN (SELECT g::int8 FROM sq WHERE id = 1 UNION SELECT g FROM sq WHERE id = 1)"
                    + " ELSE 0 END AS u FROM sq ORDER BY id",
            "SELECT id, CASE WHEN id <> 2 THEN (SELECT g FROM sq ORDER BY g OFFSET 1 LIMIT 1)::int2 END AS second"
                    + " FROM sq ORDER BY id",
            "SELECT (WITH w AS (SELECT g FROM sq) SELECT g FROM w ORDER BY g DESC LIMIT 1)::text AS w",
            "SELECT CASE WHEN (SELECT count(*) FROM sq LIMIT 1)::int = 3 THEN 'three' END AS n",
            // PostgreSQL's arithmetic inside sub-queries too: a numeric's windowed sum keeps its scale, overflow is
            // 22003
            "CREATE TABLE sqn (id INT PRIMARY KEY, v NUMERIC)",
            "INSERT INTO sqn VALUES (1, 1.5), (2, 1.0), (3, NULL)",
            "SELECT (SELECT max(s) FROM (SELECT sum(v) OVER (ORDER BY id) AS s FROM sqn) x) AS m",
            "SELECT id, (SELECT min(s) FROM (SELECT sum(v) OVER (ORDER BY id) AS s FROM sqn) x) AS m FROM sqn ORDER BY id",
            "SELECT id FROM sqn WHERE v IN (SELECT sum(v) OVER (ORDER BY id) FROM sqn) ORDER BY id",
            "SELECT (SELECT 2147483647 + id FROM sq WHERE id = 1) AS o",
            "SELECT id FROM sq WHERE g IN (SELECT 2147483647 * id FROM sq) ORDER BY id",
            "SELECT id FROM sq t WHERE g < (SELECT avg(g) FROM sq s WHERE s.id = t.id + 1) ORDER BY id",
            // a correlated avg of a numeric(10,2) or an integer has PostgreSQL's division scale, as an uncorrelated one
            "CREATE TABLE sqa (k INT PRIMARY KEY, id INT, n NUMERIC(10, 2), i INT)",
            "INSERT INTO sqa VALUES (1, 1, 1.25, 1), (2, 1, 2.50, 2), (3, 2, 10.00, 7), (4, 2, 3.33, 8), (5, 2, 0.01, 9)",
            "SELECT t.id, (SELECT avg(n) FROM sqa u WHERE u.id = t.id) AS a FROM sq t ORDER BY t.id",
            "SELECT t.id, (SELECT avg(i) FROM sqa u WHERE u.id = t.id) AS a, (SELECT avg(n) FROM sqa) AS b FROM sq t ORDER BY t.id",
            "SELECT t.id, (SELECT sum(n) / count(n) FROM sqa u WHERE u.id = t.id) AS a FROM sq t ORDER BY t.id",
            "SELECT id, avg(n) AS a, avg(i) AS b FROM sqa GROUP BY id ORDER BY id",
            "SELECT t.id, (SELECT variance(n) FROM sqa u WHERE u.id = t.id) AS v,"
                    + " (SELECT stddev(i) FROM sqa u WHERE u.id = t.id) AS s FROM sq t ORDER BY t.id",
            "SELECT t.id FROM sq t WHERE (SELECT avg(n) FROM sqa u WHERE u.id = t.id)::text = '4.4466666666666667'"
                    + " ORDER BY t.id");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("subquery-operands-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void subQueriesUnderCaseAndCastsAnswerAsPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS));
    }
}
