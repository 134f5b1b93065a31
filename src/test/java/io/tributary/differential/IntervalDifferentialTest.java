package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's interval (months, days and time apart) stored in a table and computed in queries,
 * run in order on Tributary and on an embedded PostgreSQL: each statement's rows, with their labels
 * and JDBC types, or its SQLSTATE must match. Every row of a stored interval goes through the text
 * format, so a month read back as 30 days, or 27 hours as a day and 3 hours, shows.
 */
class IntervalDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE iv (id INT PRIMARY KEY, v INTERVAL, ts TIMESTAMP, d DATE)",
            "INSERT INTO iv VALUES (1, '1 mon', '2024-01-31 10:00', '2024-01-31'),"
                    + " (2, '30 days', '2024-02-29 00:00', '2024-02-29'), (3, '27 hours', '2024-03-01', '2024-03-01'),"
                    + " (4, '1 year 2 mons 3 days 04:05:06.789', '2024-01-01', '2024-01-01'), (5, NULL, NULL, NULL),"
                    + " (6, '-1 day +2 hours', '2024-01-01', '2024-01-01')",
            "INSERT INTO iv VALUES (7, INTERVAL '1 mon 2 days', '2023-12-31 23:59:59', '2023-12-31')",
            "SELECT * FROM iv ORDER BY id",
            // ordering and comparisons count a month as 30 days
            "SELECT id, v FROM iv ORDER BY v, id",
            "SELECT id, v FROM iv ORDER BY v DESC NULLS LAST, id",
            "SELECT count(*) AS n FROM iv GROUP BY v ORDER BY n",
            "SELECT id FROM iv WHERE v > INTERVAL '1 day' ORDER BY id",
            "SELECT id FROM iv WHERE v = INTERVAL '1 mon' ORDER BY id",
            "SELECT id FROM iv WHERE v <= '27 hours' ORDER BY id",
            // timestamp and date plus or minus a stored interval: a timestamp, months first
            "SELECT id, ts + v AS a, ts - v AS b, v + ts AS c FROM iv ORDER BY id",
            "SELECT id, d + v AS a, d - v AS b FROM iv ORDER BY id",
            // interval arithmetic
            "SELECT id, v * 2 AS a, 2 * v AS b, v * 1.5 AS c, v / 7 AS e FROM iv ORDER BY id",
            "SELECT id, v + v AS a, v - INTERVAL '1 day' AS b, v + INTERVAL '3 mons' AS c FROM iv ORDER BY id",
            "SELECT id, justify_hours(v) AS h, justify_days(v) AS d, justify_interval(v) AS i FROM iv ORDER BY id",
            "SELECT id, v / 0 AS z FROM iv WHERE id = 1",
            // constants
            "SELECT INTERVAL '27 hours' AS a, INTERVAL '1 day' AS b, INTERVAL '1 day 3 hours' AS c",
            "SELECT INTERVAL '36 hours' * 2 AS a, INTERVAL '0 hours' AS b, -INTERVAL '2 hours' AS c, INTERVAL '-27 hours' AS d",
            "SELECT TIMESTAMP '2024-01-01' + INTERVAL '27 hours' AS a, TIMESTAMP '2024-01-02' - TIMESTAMP '2024-01-01 00:30' AS b",
            // a timestamp difference compared with constants of either kind
            "SELECT id FROM iv WHERE ts - TIMESTAMP '2024-01-01' > INTERVAL '2 hours' ORDER BY id",
            "SELECT id FROM iv WHERE ts - TIMESTAMP '2024-01-01' < INTERVAL '31 days' ORDER BY id",
            "SELECT INTERVAL '1 year 2 mons 3 days 04:05:06.789' AS a, INTERVAL '1 mon 2 days' * 2 AS b",
            "SELECT INTERVAL '1 day 1 mon' + DATE '2024-01-31' AS a",
            "SELECT justify_days(INTERVAL '35 days') AS a, justify_hours(INTERVAL '27 hours') AS b",
            "SELECT justify_interval(INTERVAL '1 mon -1 hour') AS a",
            // writes keep the months
            "UPDATE iv SET v = v * 2 WHERE id = 1",
            "UPDATE iv SET v = v + INTERVAL '1 mon' WHERE id = 2",
            "SELECT id, v FROM iv ORDER BY id",
            // views: a plain view expanded into the query, a materialized view planned to operators
            "CREATE VIEW pv AS SELECT id, v * 2 AS w, ts + v AS t FROM iv",
            "SELECT * FROM pv ORDER BY id",
            "CREATE MATERIALIZED VIEW mv_iv AS SELECT id, v, d + v AS t FROM iv WHERE v > INTERVAL '1 day'",
            "SELECT * FROM mv_iv ORDER BY id",
            "CREATE MATERIALIZED VIEW mv_group AS SELECT v, count(*) AS n FROM iv WHERE id <> 2 GROUP BY v",
            "SELECT * FROM mv_group ORDER BY v");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("interval-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void intervalsAnswerAsPostgres() {
        List<String> mismatches = new ArrayList<>();
        for (String sql : STATEMENTS) {
            String expected = StatementOutcome.of(pg, sql, true);
            String actual = StatementOutcome.of(tributary.connection, sql, true);
            // a populated CREATE MATERIALIZED VIEW's tag counts no rows here (README's known limits);
            // its rows are compared by the SELECT after it
            boolean tagOnly = sql.startsWith("CREATE MATERIALIZED VIEW") && actual.equals("count 0");
            if (!expected.equals(actual) && !tagOnly) {
                mismatches.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), mismatches);
    }

    /**
     * A materialized view over interval columns is maintained as rows change: after more writes it
     * holds what PostgreSQL's query over the same rows answers.
     */
    @Test
    void viewsOverIntervalsAreMaintained() {
        List<String> setup = List.of(
                "CREATE TABLE ivm (id INT PRIMARY KEY, v INTERVAL, ts TIMESTAMP)",
                "INSERT INTO ivm VALUES (1, '1 mon', '2024-01-31 10:00'), (2, '27 hours', '2024-03-01')");
        for (String sql : setup) {
            StatementOutcome.of(pg, sql, true);
            StatementOutcome.of(tributary.connection, sql, true);
        }
        String query = "SELECT id, v * 1.5 AS w, ts - v AS t FROM ivm WHERE v < INTERVAL '1 year'";
        StatementOutcome.of(tributary.connection, "CREATE MATERIALIZED VIEW ivm_v AS " + query, true);
        List<String> writes = List.of(
                "INSERT INTO ivm VALUES (3, '1 year 2 mons 3 days 04:05:06.789', '2024-01-01'), (4, '-1 day +2 hours', '2024-02-29')",
                "UPDATE ivm SET v = v + INTERVAL '1 mon' WHERE id = 2",
                "DELETE FROM ivm WHERE id = 1");
        for (String sql : writes) {
            StatementOutcome.of(pg, sql, true);
            StatementOutcome.of(tributary.connection, sql, true);
        }
        assertEquals(
                StatementOutcome.of(pg, query + " ORDER BY id", true),
                StatementOutcome.of(tributary.connection, "SELECT * FROM ivm_v ORDER BY id", true));
    }
}
