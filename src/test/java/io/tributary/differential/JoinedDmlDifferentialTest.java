package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * UPDATE ... FROM, DELETE ... USING (issue 12; were 0A000) and correlated sub-queries in the
 * WHERE clause of UPDATE and DELETE ({@code WHERE EXISTS (...)} was 42601), run in order on
 * Tributary and on an embedded PostgreSQL: each statement's rows, update count or SQLSTATE must
 * match, and the tables' rows after each change.
 */
class JoinedDmlDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
            "CREATE TABLE u (id INT, w INT, v INT)",
            "CREATE TABLE names (id INT PRIMARY KEY, name TEXT)",
            "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, 40)",
            "INSERT INTO u VALUES (1, 100, 7), (2, 5, 9), (3, 300, 11)",
            "INSERT INTO names VALUES (1, 'a'), (3, 'c')",
            "UPDATE t SET v = u.v FROM u WHERE t.id = u.id",
            "SELECT * FROM t ORDER BY id",
            // several relations, the target under an alias, RETURNING naming a joined column
            "UPDATE t AS x SET v = x.v + u.w FROM u, names n WHERE x.id = u.id AND n.id = u.id"
                    + " RETURNING x.id, x.v, n.name",
            "SELECT * FROM t ORDER BY id",
            "UPDATE t SET v = -1 FROM u JOIN names n ON n.id = u.id WHERE t.id = n.id AND u.w > 200",
            "SELECT * FROM t ORDER BY id",
            "UPDATE t SET v = s.total FROM (SELECT id, sum(w) AS total FROM u GROUP BY id) s"
                    + " WHERE s.id = t.id AND s.total < 10 RETURNING *",
            "UPDATE t SET v = x.b FROM (VALUES (4, 44)) AS x(a, b) WHERE x.a = t.id RETURNING x.*, t.*",
            "CREATE VIEW big AS SELECT id, w FROM u WHERE w >= 100",
            "UPDATE t SET v = big.w * 2 FROM big WHERE big.id = t.id",
            "SELECT * FROM t ORDER BY id",
            // no row joins: nothing changes
            "UPDATE t SET v = 0 FROM u WHERE t.id = u.id AND u.w < 0",
            "SELECT * FROM t ORDER BY id",
            // a row that joins several rows is changed once
            "INSERT INTO u VALUES (2, 5, 9)",
            "UPDATE t SET v = t.v + 1 FROM u WHERE u.id = t.id AND u.id = 2",
            "SELECT * FROM t ORDER BY id",
            "DELETE FROM t USING u WHERE u.id = t.id AND u.id = 2 RETURNING t.*, u.w",
            "SELECT * FROM t ORDER BY id",
            "DELETE FROM t AS x USING (SELECT id FROM names) s, u WHERE s.id = x.id AND u.id = s.id AND u.w > 200",
            "SELECT * FROM t ORDER BY id",
            "INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)",
            "DELETE FROM t USING names WHERE names.id = t.id AND names.name = 'zz'",
            // errors: unknown relation and column, an unaliased sub-query (PostgreSQL 14), an ambiguous column
            "UPDATE t SET v = 1 FROM nosuch WHERE nosuch.id = t.id",
            "UPDATE t SET v = u.nosuch FROM u WHERE u.id = t.id",
            "DELETE FROM t USING u WHERE u.nosuch = t.id",
            "UPDATE t SET v = 1 FROM (SELECT 1)",
            "UPDATE t SET v = 1 FROM u WHERE id = 1",
            "UPDATE t SET v = 1 FROM t WHERE t.id = 1",
            "DELETE FROM t AS x USING u AS x",
            "UPDATE t SET v = t.v + g FROM generate_series(1, 2) AS g WHERE g = t.id",
            "SELECT * FROM t ORDER BY id",
            // a join inside the list keeps its operands beside the target
            "UPDATE t SET v = t.v + 1 FROM u JOIN names USING (id) WHERE u.id = t.id",
            "SELECT * FROM t ORDER BY id",
            "DELETE FROM t USING u JOIN names USING (id) WHERE u.id = t.id - 1",
            "SELECT * FROM t ORDER BY id",
            // correlated sub-queries in the WHERE clause (WHERE EXISTS was 42601) and in SET
            "DELETE FROM t WHERE EXISTS (SELECT 1 FROM names WHERE names.id = t.id)",
            "SELECT * FROM t ORDER BY id",
            "INSERT INTO t VALUES (1, 150), (3, 3)",
            "UPDATE t SET v = 0 WHERE t.id IN (SELECT id FROM u WHERE u.w > t.v)",
            "SELECT * FROM t ORDER BY id",
            "UPDATE t SET v = (SELECT max(w) FROM u WHERE u.id = t.id)",
            // a sub-query giving two rows fails the statement (was XX000)
            "UPDATE t SET v = (SELECT w FROM u WHERE u.id >= t.id)",
            "SELECT id, (SELECT w FROM u) AS w FROM t ORDER BY id",
            "SELECT * FROM t ORDER BY id",
            "SELECT * FROM t ORDER BY id",
            "UPDATE t x SET v = -x.v WHERE EXISTS (SELECT 1 FROM u WHERE u.id = x.id AND u.w = x.v) AND x.id > 2"
                    + " RETURNING x.id, x.v",
            "DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.id = t.id) RETURNING *",
            "DELETE FROM t WHERE v < (SELECT avg(w) FROM u WHERE u.id = t.id)",
            "SELECT * FROM t ORDER BY id");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("joined-dml-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    private static void runOnBoth(String script) throws SQLException {
        InProcessTributary.execScript(pair.pg, script);
        InProcessTributary.execScript(pair.tributary.connection, script);
    }

    @Test
    void joinedAndCorrelatedChangesAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** A joined list's parameters sit between the SET values' and the condition's. */
    @Test
    void parametersInTheJoinedList() throws SQLException {
        runOnBoth("CREATE TABLE p (id INT PRIMARY KEY, v INT, s TEXT);"
                + "INSERT INTO p VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c')");
        String update = "UPDATE p SET v = x.b + ?, s = ? FROM (VALUES (?::int, ?::int), (2, 20)) AS x(a, b)"
                + " WHERE x.a = p.id AND p.v < ?";
        List<String> wrong = new ArrayList<>();
        for (String sql : List.of(update, "SELECT * FROM p ORDER BY id")) {
            List<Object> params = sql == update ? List.of(100, "z", 3, 30, 10) : List.of();
            String expected = StatementOutcome.ofPrepared(pair.pg, sql, params);
            String actual = StatementOutcome.ofPrepared(pair.tributary.connection, sql, params);
            if (expected.startsWith("ERROR")) {
                wrong.add(sql + " fails on PostgreSQL: " + expected);
            }
            if (!expected.equals(actual)) {
                wrong.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), wrong);
    }

    /**
     * A materialized view over the target follows a joined UPDATE and DELETE (incrementally), and a
     * joined UPDATE that fails on one row changes none (the statement is atomic): the view equals
     * PostgreSQL's query over the same rows after each statement.
     */
    @Test
    void viewsFollowAndFailuresChangeNothing() throws SQLException {
        runOnBoth("CREATE TABLE m (id INT PRIMARY KEY, g INT, v INT);"
                + "CREATE TABLE k (id INT, d INT);"
                + "INSERT INTO m VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30), (4, 2, 40);"
                + "INSERT INTO k VALUES (1, 1), (2, 0), (3, 3), (3, 4)");
        InProcessTributary.execScript(
                pair.tributary.connection,
                "CREATE MATERIALIZED VIEW mg AS SELECT g, count(*) AS n, sum(v) AS s FROM m GROUP BY g");
        try (Statement s = pair.pg.createStatement()) {
            s.execute("CREATE VIEW mg AS SELECT g, count(*) AS n, sum(v) AS s FROM m GROUP BY g");
        }
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT * FROM mg ORDER BY g",
                "UPDATE m SET v = m.v / k.d FROM k WHERE k.id = m.id",
                "SELECT * FROM m ORDER BY id",
                "SELECT * FROM mg ORDER BY g",
                "UPDATE m SET g = 3 FROM k WHERE k.id = m.id AND k.d > 0",
                "SELECT * FROM mg ORDER BY g",
                "DELETE FROM m USING k WHERE k.id = m.id AND k.d = 0",
                "SELECT * FROM m ORDER BY id",
                "SELECT * FROM mg ORDER BY g"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
