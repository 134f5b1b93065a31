package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A USING or NATURAL join's merged column named in GROUP BY (also by ordinal), HAVING, ORDER BY
 * and WHERE, over inner, LEFT, RIGHT and FULL joins (where the merged column is {@code
 * COALESCE(p.g, q.g)}): Tributary said 42803 ({@code column "p.g" must appear in the GROUP BY
 * clause}) or 42702 (ambiguous) where PostgreSQL answers. Each statement's rows, labels and JDBC
 * types or its SQLSTATE must match an embedded PostgreSQL's; a materialized view of a grouped FULL
 * JOIN equals PostgreSQL's answer to its query before and after changes.
 */
class UsingColumnGroupingDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE up (id INT PRIMARY KEY, g INT, a INT)",
            "CREATE TABLE uq (id INT PRIMARY KEY, g INT, b INT)",
            "INSERT INTO up VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30), (4, NULL, 40), (5, 4, 50)",
            "INSERT INTO uq VALUES (1, 1, 5), (2, 3, 6), (3, NULL, 7), (4, 4, 8), (5, 4, 9)");

    private static final List<String> STATEMENTS = List.of(
            "SELECT g, count(*) FROM up JOIN uq USING (g) GROUP BY g ORDER BY g",
            "SELECT g, count(*) FROM up LEFT JOIN uq USING (g) GROUP BY g ORDER BY g",
            "SELECT g, count(*) FROM up RIGHT JOIN uq USING (g) GROUP BY g ORDER BY g",
            "SELECT g, count(*) FROM up FULL JOIN uq USING (g) GROUP BY g ORDER BY g",
            "SELECT g, count(*) FROM up FULL JOIN uq USING (g) GROUP BY g ORDER BY g DESC NULLS LAST",
            "SELECT g, count(*) FROM (SELECT g, a FROM up) p NATURAL FULL JOIN (SELECT g, b FROM uq) q"
                    + " GROUP BY g ORDER BY g",
            "SELECT g, count(*) FROM (SELECT g, a FROM up) p NATURAL JOIN (SELECT g, b FROM uq) q GROUP BY g ORDER BY 1",
            "SELECT g, sum(a) FROM up JOIN uq USING (g) GROUP BY g HAVING g > 0 ORDER BY g",
            "SELECT count(*) FROM up FULL JOIN uq USING (g) GROUP BY g HAVING g IS NOT NULL ORDER BY g",
            "SELECT g, count(*) FROM up FULL JOIN uq USING (g) GROUP BY 1 ORDER BY 1",
            "SELECT g + 1 AS h, count(*) FROM up FULL JOIN uq USING (g) GROUP BY g ORDER BY g + 1",
            "SELECT g AS h, count(*) FROM up FULL JOIN uq USING (g) GROUP BY g ORDER BY g",
            "SELECT g, count(*) FROM up FULL JOIN uq USING (g) WHERE g < 4 GROUP BY g ORDER BY g",
            "SELECT g, max(a) FROM up LEFT JOIN uq USING (g) GROUP BY g HAVING max(a) > 10 ORDER BY g NULLS FIRST",
            "SELECT a AS g, count(*) FROM up JOIN uq USING (g) GROUP BY a ORDER BY g",
            "SELECT g, count(*) FROM up JOIN uq USING (g) GROUP BY g HAVING g IN (SELECT g FROM uq) ORDER BY g",
            "SELECT g, sum(b) FROM up RIGHT JOIN uq USING (g) GROUP BY g HAVING sum(b) > 5 ORDER BY g",
            "SELECT g FROM up JOIN uq USING (g) WHERE g > 0 ORDER BY g",
            "SELECT g, a, b FROM up FULL JOIN uq USING (g) WHERE g IS NULL ORDER BY a, b",
            "SELECT * FROM up JOIN uq USING (g) WHERE g = 1 ORDER BY 2, 5");

    private static final String VIEW_QUERY =
            "SELECT g, count(*) AS c, sum(a) AS sa, sum(b) AS sb FROM vp FULL JOIN vq USING (g) WHERE g <> 3"
                    + " GROUP BY g HAVING g IS NOT NULL OR count(*) > 1";

    private static final List<String> CHANGES = List.of(
            "INSERT INTO vq VALUES (9, 2, 1), (10, 5, 2)",
            "DELETE FROM vp WHERE g = 1",
            "UPDATE vq SET g = NULL WHERE id = 4");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("using-grouping-diff-", 20, "postgres", "", 60);
        for (String sql : SETUP) {
            assertEquals(StatementOutcome.of(pg, sql, true), StatementOutcome.of(tributary.connection, sql, true), sql);
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void mergedColumnsAnswerAsPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS));
    }

    @Test
    void viewGroupedByMergedColumnEqualsPostgres() throws Exception {
        String tables = "CREATE TABLE vp AS SELECT * FROM up; CREATE TABLE vq AS SELECT * FROM uq";
        InProcessTributary.execScript(tributary.connection, tables);
        InProcessTributary.execScript(pg, tables);
        InProcessTributary.execScript(tributary.connection, "CREATE MATERIALIZED VIEW uv AS " + VIEW_QUERY);
        assertEquals(SortedRows.of(pg, VIEW_QUERY), SortedRows.of(tributary.connection, "SELECT * FROM uv"));
        for (String change : CHANGES) {
            InProcessTributary.execScript(tributary.connection, change);
            InProcessTributary.execScript(pg, change);
            assertEquals(
                    SortedRows.of(pg, VIEW_QUERY), SortedRows.of(tributary.connection, "SELECT * FROM uv"), change);
        }
    }
}
