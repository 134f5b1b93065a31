package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Column names of queries over relations that share names, against embedded PostgreSQL: a {@code *}
 * over a join keeps each column's own name, twice if two relations have it ({@code id | v | id |
 * v}, where Calcite's validator numbers the later ones {@code id0}), through self-joins, sub-queries,
 * WITH queries, plain views, set operations, NATURAL and USING joins (one merged column) and
 * prepared statements; a real column named {@code id0} keeps its name; a view or materialized view
 * of such a query is 42701. Each statement's rows (labels and JDBC types) or SQLSTATE must match.
 */
class JoinColumnNamesDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE jn_a (id INT PRIMARY KEY, v TEXT)",
            "CREATE TABLE jn_b (id INT PRIMARY KEY, v TEXT, w INT)",
            "CREATE TABLE jn_c (id INT PRIMARY KEY, id0 INT, v0 TEXT)",
            "INSERT INTO jn_a VALUES (1, 'a1'), (2, 'a2')",
            "INSERT INTO jn_b VALUES (1, 'b1', 10), (3, 'b3', 30)",
            "INSERT INTO jn_c VALUES (1, 7, 'c1'), (2, 8, 'c2')",
            // a star over a join, a self-join, qualified stars
            "SELECT * FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id",
            "SELECT * FROM jn_a x JOIN jn_a y ON x.id = y.id ORDER BY 1",
            "SELECT x.*, y.* FROM jn_a x JOIN jn_a y ON x.id = y.id ORDER BY 1",
            "SELECT jn_b.*, jn_a.v FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id",
            "SELECT * FROM jn_a LEFT JOIN jn_b ON jn_a.id = jn_b.id ORDER BY 1",
            "SELECT jn_a.id, jn_b.id FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id",
            "SELECT jn_a.id AS k, jn_b.id AS k FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id",
            // a real column named like a numbered one keeps its name
            "SELECT * FROM jn_a JOIN jn_c ON jn_a.id = jn_c.id ORDER BY 1",
            "SELECT * FROM jn_c JOIN jn_a ON jn_a.id = jn_c.id JOIN jn_b ON jn_b.id = jn_c.id",
            "SELECT id0, v0 FROM jn_c ORDER BY 1",
            // sub-queries and WITH queries
            "SELECT * FROM (SELECT jn_a.id, jn_b.id FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id) s",
            "SELECT * FROM (SELECT * FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id) s",
            "SELECT * FROM (SELECT * FROM jn_a JOIN jn_c ON jn_a.id = jn_c.id) s ORDER BY 1",
            "WITH j AS (SELECT * FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id) SELECT * FROM j",
            "WITH j AS (SELECT * FROM jn_a JOIN jn_c ON jn_a.id = jn_c.id) SELECT * FROM j ORDER BY 1",
            // set operations are named by their first query
            "SELECT * FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id UNION ALL SELECT 2, 'x', 2, 'y', 3",
            "SELECT * FROM jn_c UNION ALL SELECT * FROM jn_c ORDER BY 1, 2",
            "SELECT * FROM (SELECT * FROM jn_c UNION ALL SELECT * FROM jn_c) u ORDER BY 1, 2",
            // NATURAL and USING joins merge their common columns
            "SELECT * FROM jn_a NATURAL JOIN jn_b",
            "SELECT * FROM jn_a JOIN jn_b USING (id)",
            "SELECT * FROM jn_a JOIN jn_c USING (id) ORDER BY 1",
            "SELECT * FROM jn_a FULL JOIN jn_b USING (id) ORDER BY 1",
            "SELECT * FROM (SELECT * FROM jn_a JOIN jn_b USING (id)) s",
            // plain views over joins
            "CREATE VIEW jn_vc AS SELECT * FROM jn_a JOIN jn_c USING (id)",
            "SELECT * FROM jn_vc ORDER BY 1",
            "SELECT * FROM jn_vc JOIN jn_a ON jn_vc.id = jn_a.id ORDER BY 1",
            // PostgreSQL refuses a view with two columns of one name (42701)
            "CREATE VIEW jn_v AS SELECT * FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id",
            "CREATE MATERIALIZED VIEW jn_m AS SELECT * FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id",
            "CREATE MATERIALIZED VIEW jn_m2 AS SELECT jn_a.id, jn_b.id FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id",
            "CREATE MATERIALIZED VIEW jn_m3 AS SELECT * FROM jn_a JOIN jn_c ON jn_a.id = jn_c.id",
            "SELECT * FROM jn_m3 ORDER BY 1",
            "CREATE MATERIALIZED VIEW jn_m4 AS SELECT * FROM jn_a JOIN jn_b USING (id)",
            "SELECT * FROM jn_m4 ORDER BY 1");

    /** Prepared (pgjdbc's RowDescription names), with one parameter bound. */
    private static final List<String> PREPARED = List.of(
            "SELECT * FROM jn_a JOIN jn_b ON jn_a.id = jn_b.id WHERE jn_a.id = ?",
            "SELECT * FROM jn_a JOIN jn_c ON jn_a.id = jn_c.id WHERE jn_a.id = ?",
            "SELECT * FROM jn_a JOIN jn_b USING (id) WHERE jn_a.id = ?");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("joinnames-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void answersAsPostgres() {
        List<String> mismatches = new ArrayList<>(pair.mismatches(STATEMENTS));
        mismatches.addAll(StatementOutcome.mismatches(
                pair.pg,
                pair.tributary.connection,
                PREPARED,
                (c, sql) -> StatementOutcome.ofPrepared(c, sql, List.of(1))));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
