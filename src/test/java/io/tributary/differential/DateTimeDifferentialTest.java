package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Date and time arithmetic ({@code date + time}, {@code time ± interval}, {@code time - time},
 * intervals scaled and added), {@code age} and the current time, run in order on Tributary and on an
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
            // date + time is a timestamp; time ± interval a time (its time only, wrapping); time - time an interval
            "SELECT DATE '2024-01-31' + TIME '10:30' AS a, TIME '23:59:59' + DATE '2024-02-29' AS b",
            "SELECT id, d + t AS a, t + d AS b FROM dt ORDER BY id",
            "SELECT TIME '23:30' + INTERVAL '1 hour' AS a, TIME '00:15' - INTERVAL '30 minutes' AS b,"
                    + " INTERVAL '2 hours' + TIME '23:00' AS c",
            "SELECT TIME '10:00' + INTERVAL '1 day 2 hours' AS a, TIME '10:00' + INTERVAL '1 mon' AS b,"
                    + " TIME '10:00' - INTERVAL '1 year' AS c",
            "SELECT id, t + INTERVAL '1 hour' AS a, t - INTERVAL '90 minutes' AS b FROM dt ORDER BY id",
            "SELECT id, t + v AS a, t - v AS b, v + t AS c FROM dt ORDER BY id",
            "SELECT TIME '10:00' - TIME '11:30' AS a, TIME '23:59:59' - TIME '00:00:01' AS b",
            "SELECT id, t - TIME '12:00' AS a, TIME '12:00' - t AS b, t - t AS c FROM dt ORDER BY id",
            "SELECT id FROM dt WHERE t - TIME '11:00' > INTERVAL '1 hour' ORDER BY id",
            // interval times or divided by a number, and constants of both kinds added
            "SELECT INTERVAL '1 hour' * 2.5 AS a, INTERVAL '1 day' / 3.0 AS b, 1.5 * INTERVAL '1 mon' AS c,"
                    + " INTERVAL '1 day' / 3 AS d",
            "SELECT INTERVAL '1 mon' - INTERVAL '1 day' AS a, INTERVAL '1 day' + INTERVAL '2 hours' AS b,"
                    + " INTERVAL '1 year' + INTERVAL '36 hours' AS c",
            "SELECT id, v * 2.5 AS a, v / 4 AS b, v * 0.5 + INTERVAL '1 day' AS c FROM dt ORDER BY id",
            // timestamp ± interval across month ends: the months first, clamped to the month's last day
            "SELECT TIMESTAMP '2024-03-31 10:00' - INTERVAL '1 month' AS a, TIMESTAMP '2024-05-31' - INTERVAL '1 mon 1 day' AS b,"
                    + " TIMESTAMP '2023-01-31' + INTERVAL '1 mon' AS c, TIMESTAMP '2024-02-29' - INTERVAL '1 year' AS d",
            "SELECT id, ts - INTERVAL '1 month' AS a, ts + INTERVAL '1 month' AS b, ts - v AS c FROM dt ORDER BY id",
            // timestamptz constants: an offset applied, none meaning the session's zone
            "SET TIME ZONE 'UTC'",
            "SELECT TIMESTAMPTZ '2024-01-01 10:00:00+02' AS a, TIMESTAMP WITH TIME ZONE '2024-06-30 23:59:59.5-07:30' AS b,"
                    + " TIMESTAMPTZ '2024-01-01' AS c",
            "SELECT TIMESTAMPTZ '2024-01-01 10:00+02' + INTERVAL '1 hour' AS a,"
                    + " TIMESTAMPTZ '2024-03-01 00:00:00Z' > TIMESTAMPTZ '2024-02-29 23:00:00-02' AS b",
            "SELECT TIMESTAMPTZ 'junk' AS a",
            // views: the same expressions in a plain and a materialized view
            "CREATE VIEW dttv AS SELECT id, d + t AS a, t - TIME '12:00' AS b, t + INTERVAL '1 hour' AS c,"
                    + " t + v AS e, INTERVAL '1 hour' * 2.5 AS f FROM dt",
            "SELECT * FROM dttv ORDER BY id",
            "CREATE MATERIALIZED VIEW dttm AS SELECT id, d + t AS a, t - TIME '12:00' AS b,"
                    + " t + INTERVAL '1 hour' AS c, t - v AS e FROM dt",
            "SELECT * FROM dttm ORDER BY id",
            "CREATE VIEW dtv AS SELECT id, d + INTERVAL '1 month' AS a, INTERVAL '1 day' + d AS c,"
                    + " age(ts, TIMESTAMP '2000-01-15 12:00') AS g FROM dt",
            "SELECT * FROM dtv ORDER BY id",
            "CREATE MATERIALIZED VIEW dtm AS SELECT id, d + INTERVAL '1' MONTH AS a, d - INTERVAL '1' HOUR AS b FROM dt",
            "SELECT * FROM dtm ORDER BY id",
            "CREATE MATERIALIZED VIEW dta AS SELECT id, age(ts, TIMESTAMP '2000-01-15 12:00') AS a FROM dt",
            "SELECT * FROM dta ORDER BY id");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("datetime-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void datesAndTimesAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * Every field of {@code extract} (numeric) and {@code date_part} (double precision) of date,
     * timestamp, timestamptz and time columns, in two zones, with their types: {@code
     * date_part('isoyear', ...)} was XX000, {@code extract(hour FROM date)} answered 0 where
     * PostgreSQL 14 has 0A000, and the whole-number fields were bigint. Infinite values, and
     * materialized views (their columns typed as the query's), also over date arithmetic, which
     * failed planning.
     */
    @Test
    void extractFieldsAnswerAsPostgres() {
        List<String> statements = new ArrayList<>(List.of(
                "CREATE TABLE dtx (id INT PRIMARY KEY, d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, t TIME)",
                "INSERT INTO dtx VALUES (1, '2024-12-30', '2024-12-30 10:20:30.5', '2024-12-30 10:20:30.5+00', '10:20:30'),"
                        + " (2, '2021-01-03', '2021-01-03 23:59:59', '2021-01-03 23:30:00+00', '00:00:00'),"
                        + " (3, '0800-01-01', '0800-01-01 00:00:00', '0800-01-01 00:00:00+00', '23:59:59'),"
                        + " (4, '2020-12-31', '2020-12-31 12:00', '2020-12-31 12:00+00', '12:00'),"
                        + " (5, '1969-12-31', '1969-12-31 23:59:59.5', '1969-12-31 23:59:59.5+00', '12:00'),"
                        + " (6, NULL, NULL, NULL, NULL)",
                "SET TIME ZONE 'UTC'"));
        List<String> fields = List.of(
                "year",
                "month",
                "day",
                "dow",
                "isodow",
                "doy",
                "week",
                "quarter",
                "isoyear",
                "julian",
                "epoch",
                "decade",
                "century",
                "millennium",
                "hour",
                "minute",
                "second",
                "milliseconds",
                "microseconds");
        for (String f : fields) {
            statements.add("SELECT id, extract(" + f + " FROM ts) AS a, date_part('" + f + "', ts) AS b, extract(" + f
                    + " FROM tz) AS c, date_part('" + f + "', tz) AS e, date_part('" + f
                    + "', d) AS g FROM dtx ORDER BY id");
            statements.add("SELECT id, extract(" + f + " FROM d) AS a FROM dtx ORDER BY id");
            statements.add(
                    "SELECT id, extract(" + f + " FROM t) AS a, date_part('" + f + "', t) AS b FROM dtx ORDER BY id");
        }
        // PostgreSQL's other words for the fields
        statements.add("SELECT extract(years FROM ts) AS a, date_part('yr', ts) AS b, date_part('c', ts) AS c,"
                + " date_part('mon', d) AS e, date_part('qtr', d) AS f, date_part('w', ts) AS g, date_part('h', ts) AS h,"
                + " date_part('mins', ts) AS i, date_part('mils', d) AS j, date_part('decs', d) AS k, date_part('jd', d) AS l"
                + " FROM dtx ORDER BY id");
        statements.add("SELECT date_part('year', TIME '10:00')");
        statements.add("SELECT extract(day FROM TIME '10:00')");
        statements.add("SELECT extract(timezone FROM ts) FROM dtx");
        statements.add("SELECT extract(timezone FROM d) FROM dtx");
        statements.addAll(List.of(
                "SELECT extract(isoyear FROM DATE '2024-12-30') AS a, date_part('isoyear', DATE '2024-12-30') AS b,"
                        + " extract(isoyear FROM TIMESTAMP '2021-01-03 10:00') AS c, date_part('isoyear', TIMESTAMP '2021-01-03') AS e",
                "SELECT extract(isoyear FROM TIMESTAMPTZ '2021-01-03 23:00+00') AS a, date_part('isoyear', TIMESTAMPTZ '2021-01-03 23:00+00') AS b",
                "SELECT extract(isoyear FROM d) + 1 AS a, date_part('isoyear', ts) / 2 AS b FROM dtx WHERE id = 1",
                "SELECT extract(isoyear FROM t) FROM dtx",
                "SELECT date_part('isoyear', TIME '10:00')",
                "SELECT extract(hour FROM DATE '2024-01-01')",
                "SELECT extract(minute FROM DATE '2024-01-01')",
                "SELECT date_part('hour', DATE '2024-01-01')::text AS a, date_part('minute', d)::text AS b FROM dtx WHERE id = 1",
                "CREATE VIEW dtxv AS SELECT id, extract(isoyear FROM d) AS a, date_part('isoyear', ts) AS b,"
                        + " extract(isoyear FROM tz) AS c, extract(week FROM ts)::text AS e, date_part('isodow', d)::text AS g FROM dtx",
                "SELECT * FROM dtxv ORDER BY id",
                "CREATE MATERIALIZED VIEW dtxm AS SELECT id, extract(isoyear FROM d) AS a, date_part('isoyear', ts) AS b,"
                        + " extract(julian FROM d) AS c, date_part('epoch', ts) AS e FROM dtx",
                "SELECT * FROM dtxm ORDER BY id",
                "CREATE MATERIALIZED VIEW dtxi AS SELECT id, extract(year FROM d) AS a, date_part('dow', ts) AS b,"
                        + " extract(hour FROM ts) AS c, extract(minute FROM t) AS e, date_part('week', tz) AS g,"
                        + " extract(second FROM t) AS h FROM dtx",
                "SELECT * FROM dtxi ORDER BY id",
                "CREATE MATERIALIZED VIEW dtxg AS SELECT extract(year FROM d) AS y, count(*) AS n,"
                        + " sum(extract(month FROM ts)) AS m FROM dtx GROUP BY extract(year FROM d)",
                "SELECT * FROM dtxg ORDER BY y",
                // extract beside date arithmetic, which the view planner rewrites and plans again
                "CREATE MATERIALIZED VIEW dtxa AS SELECT id, extract(dow FROM d + 1) AS a,"
                        + " extract(day FROM d + INTERVAL '1 day') AS b, date_part('epoch', ts + INTERVAL '1 hour') AS c,"
                        + " extract(isodow FROM d - 1) AS e FROM dtx",
                "SELECT * FROM dtxa ORDER BY id",
                "SELECT id, extract(dow FROM d + 1) AS a, extract(day FROM d + INTERVAL '1 day') AS b FROM dtx ORDER BY id",
                // infinities: NULL for the fields that cycle, date_part's ±Infinity for those that grow
                "SELECT extract(day FROM 'infinity'::date) AS a, extract(hour FROM '-infinity'::timestamp) AS b,"
                        + " extract(dow FROM 'infinity'::timestamp) AS c, extract(timezone FROM 'infinity'::timestamp) AS e",
                "SELECT date_part('year', 'infinity'::timestamp) AS a, date_part('isoyear', '-infinity'::date) AS b,"
                        + " date_part('century', 'infinity'::date) AS c, date_part('day', 'infinity'::date) AS e,"
                        + " date_part('millennium', '-infinity'::timestamp) AS f, date_part('week', 'infinity'::timestamp) AS g",
                "SELECT extract(hour FROM 'infinity'::date)",
                "SET TIME ZONE 'Asia/Tokyo'"));
        for (String f : List.of("isoyear", "week", "isodow", "doy", "julian", "day", "epoch")) {
            statements.add(
                    "SELECT id, extract(" + f + " FROM tz) AS a, date_part('" + f + "', tz) AS b FROM dtx ORDER BY id");
        }
        statements.add("SET TIME ZONE 'UTC'");
        List<String> mismatches = pair.mismatches(statements);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * A materialized view over {@code date + time}, {@code time - time} and {@code time ± interval}
     * is maintained as rows change: after more writes it holds what PostgreSQL's query over the
     * same rows answers.
     */
    @Test
    void viewsOverTimeArithmeticAreMaintained() {
        String query =
                "SELECT id, d + t AS a, t - TIME '06:00' AS b, t + v AS c, t - INTERVAL '90 minutes' AS e FROM dtw";
        assertEquals(
                List.of(),
                pair.mismatches(
                        List.of(
                                "CREATE TABLE dtw (id INT PRIMARY KEY, d DATE, t TIME, v INTERVAL)",
                                "INSERT INTO dtw VALUES (1, '2024-01-31', '23:30', '1 mon 2 hours'), (2, '2024-02-29', '00:15', '27 hours')")));
        pair.both("CREATE MATERIALIZED VIEW dtw_v AS " + query);
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "INSERT INTO dtw VALUES (3, '1999-12-31', '12:00:00.25', '-1 day +2 hours'), (4, NULL, '01:00', NULL)",
                        "UPDATE dtw SET t = t + INTERVAL '1 hour', v = v * 2 WHERE id = 2",
                        "DELETE FROM dtw WHERE id = 1")));
        String[] outcome = {
            StatementOutcome.of(pair.pg, query + " ORDER BY id", true),
            StatementOutcome.of(pair.tributary.connection, "SELECT * FROM dtw_v ORDER BY id", true)
        };
        assertEquals(outcome[0], outcome[1]);
    }
}
