package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Words Calcite's grammar reserves and PostgreSQL does not ({@code next}, {@code time},
 * {@code rows}, ...) as aliases and column names, and the same words where they are keywords
 * (window frames, typed constants, casts, {@code ROW(...)}), run in order on Tributary and on an
 * embedded PostgreSQL: each statement's rows, with their labels and JDBC types, or its SQLSTATE
 * must match.
 */
class ReservedWordNamesDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            // aliases
            "SELECT 1 AS next",
            "SELECT 1 AS next, 2 AS current, 3 AS rows, 4 AS new, 5 AS range, 6 AS partition, 7 AS over",
            "SELECT 1 AS insert, 2 AS update, 3 AS delete, 4 AS set, 5 AS drop, 6 AS explain, 7 AS call",
            "SELECT 1 AS cursor, 2 AS skip, 3 AS snapshot, 4 AS volatile, 5 AS grouping, 6 AS rollup",
            "SELECT next FROM (SELECT 1 AS next) AS s",
            "SELECT s.next + 1 AS n FROM (SELECT 1 AS next) AS s",
            "SELECT x AS next FROM (VALUES (3), (1)) AS v(x) ORDER BY next",
            // column names
            "CREATE TABLE kw (id int PRIMARY KEY, next int, time int, rows int, current text, value int, range int)",
            "INSERT INTO kw (id, next, time, rows, current, value, range) VALUES (1, 10, 100, 5, 'a', 7, 2)",
            "INSERT INTO kw VALUES (2, 20, 200, 6, 'b', 8, 3), (3, NULL, 300, 7, 'c', 9, 4)",
            "SELECT next, time, rows, current, value, range FROM kw ORDER BY id",
            "SELECT id FROM kw WHERE next > 10 AND time < 300 ORDER BY id",
            "SELECT kw.next, kw.time FROM kw WHERE kw.rows = 5",
            "SELECT next + time AS s, rows * 2 AS d, current || 'x' AS c FROM kw ORDER BY next NULLS FIRST",
            "SELECT sum(next) AS next, max(time) AS time FROM kw",
            "SELECT rows, count(*) FROM kw GROUP BY rows ORDER BY rows",
            "SELECT next::text AS t FROM kw WHERE next IS NOT NULL ORDER BY next DESC",
            "SELECT CASE WHEN next > 10 THEN time ELSE rows END AS pick FROM kw ORDER BY id",
            "UPDATE kw SET next = next + 1, time = 0 WHERE rows = 6",
            "SELECT id, next, time FROM kw ORDER BY id",
            "DELETE FROM kw WHERE next IS NULL",
            "SELECT count(*) FROM kw",
            // names before BETWEEN and SIMILAR TO; frame units before BETWEEN stay keywords
            "SELECT id FROM kw WHERE next BETWEEN 10 AND 20 ORDER BY id",
            "SELECT id FROM kw WHERE (range BETWEEN 2 AND 4) AND rows NOT BETWEEN 7 AND 9 ORDER BY id",
            "SELECT id, time BETWEEN 50 AND 200 AS b, current SIMILAR TO '(a|b)' AS m FROM kw ORDER BY id",
            "SELECT id, sum(rows) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS s FROM kw"
                    + " ORDER BY id",
            "SELECT id, sum(next) OVER w AS s FROM kw WINDOW w AS (RANGE BETWEEN UNBOUNDED PRECEDING AND"
                    + " UNBOUNDED FOLLOWING) ORDER BY id",
            // the same words as keywords
            "SELECT id, sum(rows) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM kw ORDER BY id",
            "SELECT id, sum(next) OVER (PARTITION BY current ORDER BY id RANGE UNBOUNDED PRECEDING) AS s"
                    + " FROM kw ORDER BY id",
            "SELECT TIME '10:00:00' AS t, TIMESTAMP '2024-01-02 03:04:05' AS ts",
            "SELECT CAST('10:00' AS time) AS a, '2024-01-02'::timestamp AS b",
            "SELECT * FROM (VALUES (1, 'a')) AS v(n, s)",
            "SELECT x FROM (VALUES (1), (2)) AS v(x) WHERE x IN (VALUES (2))",
            "SELECT ROW(1, 2) = ROW(1, 2) AS same",
            "SELECT 1 AS time, 2 AS interval, 3 AS timestamp",
            "SELECT CAST(time AS text) AS time FROM kw ORDER BY id",
            // PostgreSQL's reserved words as labels after AS, and where they are keywords
            "SELECT 1 AS order, 2 AS default, 3 AS group, 4 AS from, 5 AS select, 6 AS left, 7 AS right",
            "SELECT 1 AS case, 2 AS table, 3 AS union, 4 AS limit, 5 AS offset, 6 AS window, 7 AS with",
            "SELECT 1 AS in, 2 AS inner, 3 AS some, 4 AS any, 5 AS null, 6 AS where, 7 AS when, 8 AS then",
            "SELECT 1 AS join, 2 AS on, 3 AS using, 4 AS natural, 5 AS cross, 6 AS full, 7 AS outer",
            "SELECT 1 AS distinct, 2 AS except, 3 AS intersect, 4 AS fetch, 5 AS grant, 6 AS create",
            "SELECT 1 AS having, 2 AS into, 3 AS lateral, 4 AS tablesample",
            "SELECT DATE '2024-03-01' AS date",
            "SELECT id AS order, next AS default FROM kw ORDER BY id",
            "SELECT order FROM (SELECT id AS order FROM kw) AS s ORDER BY 1",
            "SELECT * FROM (SELECT 1 AS order) AS s",
            "SELECT CAST('2024-03-01' AS date) AS d, CAST(id AS text) AS t FROM kw ORDER BY id",
            "WITH c AS (SELECT id AS group FROM kw) SELECT count(*) AS from FROM c",
            "CREATE VIEW kwv AS SELECT id AS order FROM kw",
            "SELECT * FROM kwv ORDER BY 1",
            "SELECT id FROM kw AS k LEFT JOIN kw AS right ON true");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("keywords-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void reservedWordsNameColumnsAsInPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS));
    }
}
