package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Date and time arithmetic, {@code age} and the current time, run in order on Tributary and on an
 * embedded PostgreSQL: each statement's rows, with their labels and JDBC types, or its SQLSTATE must
 * match, in plain queries and through plain and materialized views over the same expressions.
 */
class DateTimeDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE dt (id INT PRIMARY KEY, d DATE, ts TIMESTAMP, t TIME, v INTERVAL)",
            "INSERT INTO dt VALUES (1, '2024-01-31', '2024-01-31 10:00', '10:00', '1 mon'),"
                    + " (2, '2024-02-29', '2024-02-29 23:59:59.5', '23:30', '27 hours'),"
                    + " (3, '2023-03-31', '2000-01-01', '00:00:01', '-1 day +2 hours'),"
                    + " (4, '1999-12-31', '2023-05-15 12:34:56.789', '12:00:00.25', '1 year 2 mons 3 days 04:05:06.789'),"
                    + " (5, NULL, NULL, NULL, NULL)",
            // age: an interval, PostgreSQL's field-wise subtraction with month and day borrowing
            "SELECT age(TIMESTAMP '2024-03-31', TIMESTAMP '2024-02-29') AS a, age(TIMESTAMP '2024-02-29', TIMESTAMP '2024-03-31') AS b",
            "SELECT age(TIMESTAMP '2024-03-01 00:00', TIMESTAMP '2024-01-31 10:00') AS a, age(TIMESTAMP '2001-04-10', TIMESTAMP '1957-06-13') AS b",
            "SELECT id, age(ts, TIMESTAMP '2000-01-15 12:00') AS a, age(TIMESTAMP '2024-03-01', ts) AS b FROM dt ORDER BY id",
            "SELECT age(DATE '2024-03-01', DATE '2023-12-31') AS a",
            "SELECT age(TIMESTAMP '2000-01-01') > INTERVAL '20 years' AS a",
            // a date plus or minus an interval is a timestamp, a column's as a constant's; date - date an integer
            "SELECT DATE '2024-01-31' + INTERVAL '1 month' AS a, DATE '2024-03-01' - INTERVAL '1 day' AS b, INTERVAL '2 hours' + DATE '2024-01-01' AS c",
            "SELECT DATE '2024-01-31' + INTERVAL '1' MONTH AS a, DATE '2024-01-31' - INTERVAL '90 minutes' AS b",
            "SELECT id, d + INTERVAL '1 month' AS a, d - INTERVAL '1 hour' AS b, INTERVAL '1 day' + d AS c FROM dt ORDER BY id",
            "SELECT id, d + 1 AS a, d - 1 AS b FROM dt WHERE d + INTERVAL '1 day' > TIMESTAMP '2024-02-01' ORDER BY id",
            "SELECT id, d - DATE '2024-01-01' AS a, d - d AS b, DATE '2024-03-01' - DATE '2024-02-01' AS c FROM dt ORDER BY id",
            // min and max of an interval beside a DISTINCT aggregate
            "SELECT count(DISTINCT id) AS n, min(v) AS lo, max(v) AS hi FROM dt",
            "SELECT count(DISTINCT d) AS n, max(v) AS hi FROM dt GROUP BY id % 2 ORDER BY n, hi",
            // views: the same expressions in a plain and a materialized view
            "CREATE VIEW dtv AS SELECT id, d + INTERVAL '1 month' AS a, INTERVAL '1 day' + d AS c,"
                    + " age(ts, TIMESTAMP '2000-01-15 12:00') AS g FROM dt",
            "SELECT * FROM dtv ORDER BY id",
            "CREATE MATERIALIZED VIEW dtm AS SELECT id, d + INTERVAL '1' MONTH AS a, d - INTERVAL '1' HOUR AS b FROM dt",
            "SELECT * FROM dtm ORDER BY id",
            "CREATE MATERIALIZED VIEW dta AS SELECT id, age(ts, TIMESTAMP '2000-01-15 12:00') AS a FROM dt",
            "SELECT * FROM dta ORDER BY id");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("datetime-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void datesAndTimesAnswerAsPostgres() {
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
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
