package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code SELECT DISTINCT ON (...)} against embedded PostgreSQL: the rows (in the statement's full
 * ORDER BY) or SQLSTATE of each query, output positions and names in both lists, sub-queries, views,
 * the 42P10 rule for ORDER BY, and a materialized view over DISTINCT ON kept current through
 * inserts, updates and deletes, compared with PostgreSQL running the view's query.
 */
class DistinctOnDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE emp (id INT PRIMARY KEY, name TEXT, dept TEXT, salary NUMERIC(10,2), grade INT)",
            "INSERT INTO emp VALUES (1, 'ann', 'eng', 100000, 3), (2, 'bob', 'eng', 90000, 2),"
                    + " (3, 'cy', 'ops', 70000, 1), (4, 'di', NULL, NULL, 2), (5, 'ed', 'ops', 80000, 3),"
                    + " (6, 'fay', NULL, 5, 1), (7, 'gus', 'eng', 90000, 1), (8, 'hal', 'ops', 80000, 2)");

    private static final List<String> QUERIES = List.of(
            "SELECT DISTINCT ON (dept) dept, name FROM emp ORDER BY dept, salary DESC, id",
            "SELECT DISTINCT ON (dept) dept, name FROM emp ORDER BY dept, salary DESC NULLS LAST, id",
            "SELECT DISTINCT ON (dept) dept AS d, name FROM emp ORDER BY d, salary, id",
            "SELECT DISTINCT ON (1) dept, name FROM emp ORDER BY 1, 2 DESC",
            "SELECT DISTINCT ON (dept) * FROM emp ORDER BY dept, id DESC",
            "select distinct on (e.dept) e.name from emp e order by dept, name",
            "SELECT DISTINCT ON (dept, grade) dept, grade, name FROM emp ORDER BY dept, grade, name DESC",
            "SELECT DISTINCT ON (grade, dept) dept, grade, name FROM emp ORDER BY dept, grade, name",
            "SELECT DISTINCT ON (dept) dept, name FROM emp ORDER BY dept, salary DESC, id LIMIT 2",
            "SELECT DISTINCT ON (dept) dept, name FROM emp ORDER BY dept, salary DESC, id OFFSET 1",
            "SELECT DISTINCT ON (dept) dept, name FROM emp WHERE grade > 1 ORDER BY dept, id",
            "SELECT DISTINCT ON (upper(dept)) upper(dept), name FROM emp ORDER BY upper(dept), id DESC",
            "SELECT DISTINCT ON (grade % 2) grade % 2 AS parity, name FROM emp ORDER BY grade % 2, name",
            "SELECT DISTINCT ON (dept) dept, count(*) OVER (PARTITION BY dept) AS n FROM emp ORDER BY dept",
            "SELECT DISTINCT ON (dept) dept, max(salary) FROM emp GROUP BY dept, grade ORDER BY dept, max(salary) DESC",
            "SELECT count(*), min(name) FROM (SELECT DISTINCT ON (dept) dept, name FROM emp ORDER BY dept, id) x",
            "SELECT x.name FROM (SELECT DISTINCT ON (grade) grade, name FROM emp ORDER BY grade, salary DESC NULLS LAST, id) x"
                    + " ORDER BY x.name",
            "WITH d AS (SELECT DISTINCT ON (dept) dept, salary FROM emp ORDER BY dept, salary) SELECT * FROM d ORDER BY salary",
            "SELECT DISTINCT ON (dept) dept FROM emp ORDER BY dept UNION ALL SELECT 'zz' ORDER BY 1",
            "SELECT DISTINCT ON (dept) dept, name FROM emp ORDER BY salary",
            "SELECT DISTINCT ON (dept, grade) dept FROM emp ORDER BY dept, name, grade",
            "SELECT DISTINCT ON (dept) dept FROM emp ORDER BY 5",
            "SELECT DISTINCT ON (7) dept FROM emp",
            "SELECT DISTINCT dept FROM emp ORDER BY 1",
            "SELECT 'distinct on (x)' AS s, name FROM emp ORDER BY id LIMIT 1");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("distinct-on-diff-");
        assertEquals(List.of(), pair.mismatches(SETUP));
    }

    @AfterAll
    static void stop() {
        pair.close();
    }

    @Test
    void queriesAnswerLikePostgres() {
        assertEquals(List.of(), pair.mismatches(QUERIES));
    }

    @Test
    void plainViewOverDistinctOnAnswersLikePostgres() {
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "CREATE VIEW top_paid AS SELECT DISTINCT ON (dept) dept, name, salary FROM emp"
                                + " ORDER BY dept, salary DESC, id",
                        "SELECT * FROM top_paid ORDER BY name",
                        "SELECT t.name, e.grade FROM top_paid t JOIN emp e ON e.name = t.name ORDER BY 1")));
    }

    /** The materialized view follows every change; PostgreSQL runs the same query as the oracle. */
    @Test
    void materializedViewStaysEqualToTheQuery() throws SQLException {
        String query = "SELECT DISTINCT ON (dept) dept, name, salary FROM emp ORDER BY dept, salary DESC, id";
        try (Statement s = pair.tributary.connection.createStatement()) {
            s.execute("CREATE MATERIALIZED VIEW top_mv AS " + query);
        }
        List<String> changes = List.of(
                "UPDATE emp SET salary = 60000 WHERE name = 'ed'",
                "DELETE FROM emp WHERE name = 'ann'",
                "INSERT INTO emp VALUES (9, 'ivy', NULL, 7, 1), (10, 'jo', 'eng', 95000, 2)",
                "UPDATE emp SET dept = 'ops' WHERE name = 'jo'",
                "UPDATE emp SET salary = NULL WHERE name = 'hal'",
                "DELETE FROM emp WHERE dept IS NULL");
        List<String> mismatches = new ArrayList<>();
        for (String change : changes) {
            for (Connection c : List.of(pair.pg, pair.tributary.connection)) {
                try (Statement s = c.createStatement()) {
                    s.execute(change);
                }
            }
            String expected =
                    StatementOutcome.of(pair.pg, "SELECT * FROM (" + query + ") q ORDER BY dept NULLS FIRST", false);
            String actual = StatementOutcome.of(
                    pair.tributary.connection, "SELECT * FROM top_mv ORDER BY dept NULLS FIRST", false);
            if (!expected.equals(actual)) {
                mismatches.add(change + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), mismatches);
    }
}
