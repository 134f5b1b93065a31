package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two query shapes that gave wrong answers: a LATERAL sub-query that aggregates without GROUP BY,
 * joined with a comma, CROSS JOIN or JOIN ... ON true (rows without matches were dropped, where
 * PostgreSQL answers them with NULL), and window frames {@code RANGE BETWEEN offset PRECEDING /
 * FOLLOWING} (wrong sums over dates, internal errors over other keys). Each statement's rows, with
 * their labels and JDBC types, or its SQLSTATE must match an embedded PostgreSQL's; the RANGE frames
 * and the window functions in LATERAL sub-queries Tributary cannot compute must be refused with
 * 0A000, never answered.
 */
class LateralAggregateAndRangeFrameDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE emp (id INT PRIMARY KEY, name TEXT, mgr INT, hired DATE, ts TIMESTAMP, salary NUMERIC(10,2))",
            "INSERT INTO emp VALUES (1, 'Alice', NULL, DATE '2019-03-01', TIMESTAMP '2024-01-01 09:00:00', 120000.50),"
                    + " (2, 'Bob', 1, DATE '2020-07-15', TIMESTAMP '2024-01-02 10:30:00', 95000),"
                    + " (3, 'Carol', 1, DATE '2018-01-10', TIMESTAMP '2024-01-03 11:45:00', 70000),"
                    + " (4, 'Dan', 3, DATE '2021-11-30', TIMESTAMP '2024-02-01 08:15:00', 72000.25),"
                    + " (5, 'Eve', 1, DATE '2022-05-05', NULL, NULL),"
                    + " (6, 'Frank', 4, DATE '2023-01-01', TIMESTAMP '2024-03-01 00:00:00', 50000)",
            "CREATE TABLE ord (oid INT PRIMARY KEY, eid INT, amount NUMERIC(12,2), note TEXT)",
            "INSERT INTO ord VALUES (10, 1, 100.00, 'first'), (11, 1, 250.50, 'second'), (12, 2, 75.25, NULL),"
                    + " (13, 3, 500, 'big'), (14, 4, 20, 'small'), (15, 9, 1, 'orphan')");

    private static final List<String> STATEMENTS = List.of(
            // one row per employee, NULL where no order matches (rows were dropped)
            "SELECT e.name, o.total FROM emp e, LATERAL (SELECT sum(amount) AS total FROM ord WHERE eid = e.id) o ORDER BY e.id",
            "SELECT e.name, o.s FROM emp e CROSS JOIN LATERAL (SELECT max(note) AS s FROM ord WHERE eid = e.id) o ORDER BY e.id",
            "SELECT e.name, o.s FROM emp e JOIN LATERAL (SELECT min(amount) AS s FROM ord WHERE eid = e.id) o ON true ORDER BY e.id",
            "SELECT e.name, o.s FROM emp e, LATERAL (SELECT sum(amount) AS s FROM ord WHERE eid = e.id) o WHERE e.id < 6 ORDER BY e.id",
            "SELECT e.name, o.s, o.n FROM emp e, LATERAL (SELECT sum(amount) AS s, count(*) AS n FROM ord WHERE eid = e.id) o"
                    + " ORDER BY e.id",
            "SELECT e.name, o.s FROM emp e, LATERAL (SELECT sum(amount) FILTER (WHERE amount > 50) AS s FROM ord"
                    + " WHERE eid = e.id) o ORDER BY e.id",
            "SELECT a.name, b.name, o.s FROM emp a, emp b, LATERAL (SELECT sum(amount) AS s FROM ord WHERE eid = b.id"
                    + " AND eid = a.mgr) o WHERE a.id = 2 ORDER BY b.id",
            // a UNION ALL of one-group aggregates: each branch keeps the rows without matches (dropped before)
            "SELECT e.id, o.x FROM emp e, LATERAL (SELECT count(*) AS x FROM ord WHERE eid = e.id UNION ALL"
                    + " SELECT max(oid) FROM ord WHERE eid = e.id) o ORDER BY 1, 2",
            "SELECT e.id, o.x FROM emp e, LATERAL (SELECT max(amount) AS x FROM ord WHERE eid = e.id UNION ALL"
                    + " SELECT min(amount) FROM ord WHERE eid = e.id) o ORDER BY 1, 2",
            "SELECT e.id, o.x FROM emp e, LATERAL (SELECT * FROM (SELECT sum(oid) AS x FROM ord WHERE eid = e.id"
                    + " UNION ALL SELECT 1) u) o ORDER BY 1, 2",
            // computed aggregates stay inner joins (Calcite's LEFT form mixes up their columns)
            "SELECT e.id, e.mgr, o.s FROM (SELECT id, mgr FROM emp) e, LATERAL (SELECT coalesce(sum(amount), 0) AS s"
                    + " FROM ord WHERE eid = e.id) o ORDER BY e.id",
            "SELECT e.id, o.s FROM emp e, LATERAL (SELECT coalesce(sum(amount), 0) AS s FROM ord WHERE eid = e.id) o"
                    + " ORDER BY e.id",
            "SELECT e.id, o.s FROM (SELECT id, mgr FROM emp) e, LATERAL (SELECT sum(amount) AS s FROM ord"
                    + " WHERE eid = e.id) o ORDER BY e.id",
            // a window function in a LATERAL sub-query that does not refer to the outer query
            "SELECT e.id, o.r FROM emp e, LATERAL (SELECT row_number() OVER (ORDER BY oid) AS r FROM ord) o WHERE e.id = 1"
                    + " ORDER BY o.r",
            // shapes that were right already and must stay so: a count, GROUP BY, HAVING, an outer join
            "SELECT e.name, o.c FROM emp e CROSS JOIN LATERAL (SELECT count(*) AS c FROM ord WHERE eid = e.id) o ORDER BY e.id",
            "SELECT e.name, o.s FROM emp e, LATERAL (SELECT sum(amount) AS s FROM ord WHERE eid = e.id GROUP BY eid) o"
                    + " ORDER BY e.id",
            "SELECT e.name, o.m FROM emp e, LATERAL (SELECT max(amount) AS m FROM ord WHERE eid = e.id HAVING count(*) > 0) o"
                    + " ORDER BY e.id",
            "SELECT e.name, o.s FROM emp e JOIN LATERAL (SELECT sum(amount) AS s FROM ord WHERE eid = e.id) o ON o.s > 50"
                    + " ORDER BY e.id",
            "SELECT e.name, o.s FROM emp e LEFT JOIN LATERAL (SELECT sum(amount) AS s FROM ord WHERE eid = e.id) o ON true"
                    + " ORDER BY e.id",
            // RANGE offsets PostgreSQL and Tributary both compute, and PostgreSQL's errors
            "SELECT id, sum(id) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s FROM emp ORDER BY id",
            "SELECT id, count(*) OVER (ORDER BY id RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS c FROM emp ORDER BY id",
            "SELECT id, sum(id) OVER (ORDER BY id, name RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM emp",
            "SELECT id, sum(id) OVER (RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM emp",
            "SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s FROM emp ORDER BY id",
            // a nullable integer key without NULLs, and a cast key, are answered; a negative offset is 22013
            "SELECT oid, sum(oid) OVER (ORDER BY eid RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM ord ORDER BY oid",
            "SELECT id, sum(id) OVER (ORDER BY id::bigint RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s FROM emp"
                    + " ORDER BY id",
            "SELECT id, sum(id) OVER (ORDER BY id RANGE BETWEEN -1 PRECEDING AND CURRENT ROW) FROM emp",
            "SELECT id, sum(id) OVER (ORDER BY hired RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM emp"
                    + " ORDER BY id");

    /** What PostgreSQL answers that Tributary refuses, as it gave wrong answers or XX000. */
    private static final List<String> REFUSED = List.of(
            "SELECT id, sum(id) OVER (ORDER BY hired RANGE BETWEEN INTERVAL '365 days' PRECEDING AND CURRENT ROW) FROM emp",
            "SELECT id, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1 day' PRECEDING AND CURRENT ROW) FROM emp",
            // mgr holds a NULL
            "SELECT id, sum(id) OVER (ORDER BY mgr RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM emp",
            "SELECT id, sum(id) OVER (ORDER BY salary RANGE BETWEEN 1000 PRECEDING AND CURRENT ROW) FROM emp",
            "SELECT id, sum(id) OVER (ORDER BY id DESC RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM emp",
            // window functions in a LATERAL sub-query (they numbered the whole table's rows)
            "SELECT e.name, o.r FROM emp e, LATERAL (SELECT row_number() OVER () AS r FROM ord WHERE eid = e.id) o",
            "SELECT e.name, o.r FROM emp e LEFT JOIN LATERAL (SELECT sum(amount) OVER () AS r FROM ord WHERE eid = e.id) o"
                    + " ON true");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("lateral-diff-", 20, "postgres", "", 60);
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
    void shapesBeyondCalciteAreRefusedNotAnswered() {
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
