package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dates and times at the edges of PostgreSQL's ranges, run on Tributary and on an embedded
 * PostgreSQL: each statement's rows, labels and JDBC types, or its SQLSTATE, must match. Each test
 * uses its own tables, so they run in any order.
 */
class CalendarEdgesDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("calendar-edges-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    private static void assertSame(List<String> statements) {
        List<String> mismatches = pair.mismatches(statements);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * PostgreSQL's calendar is the proleptic Gregorian one: 1582-10-05 to 1582-10-14, which the
     * Julian/Gregorian hybrid calendar lacks, are dates in every form (literal, cast, insert,
     * comparison, arithmetic across them, to_char, extract, date_trunc), and so are earlier ones.
     */
    @Test
    void datesBeforeTheGregorianReformAreProlepticGregorian() {
        assertSame(List.of(
                "SET TIME ZONE 'UTC'",
                "SELECT '1582-10-10'::date AS a, '1582-10-10'::timestamp AS b, DATE '1000-06-15' AS c,"
                        + " '0044-03-15'::date AS e, CAST('1582-10-05' AS date) AS f, TIMESTAMP '1582-10-14 23:59:59.5' AS g",
                "SELECT '1582-10-10 10:00+02'::timestamptz AS a, TIMESTAMPTZ '1582-10-12 00:00:00Z' AS b",
                "SELECT DATE '1582-10-04' + 1 AS a, DATE '1582-10-15' - 1 AS b, TIMESTAMP '1582-10-04 12:00' + INTERVAL '1 day' AS c,"
                        + " DATE '1582-10-04' + INTERVAL '1 day' AS e, DATE '1500-02-28' + 1 AS f, DATE '1582-10-20' - DATE '1582-10-01' AS g",
                "SELECT DATE '1500-02-29' AS a",
                "CREATE TABLE cal_old (id INT PRIMARY KEY, d DATE, ts TIMESTAMP)",
                "INSERT INTO cal_old VALUES (1, '1582-10-10', '1582-10-10 10:00'), (2, '1582-10-04', '1582-10-04 23:00'),"
                        + " (3, '0044-03-15', '0044-03-15 00:00:01'), (4, '1582-10-15', '1582-10-15 00:00'),"
                        + " (5, '1500-02-28', '1500-02-28 12:00'), (6, DATE '1582-10-12', TIMESTAMP '1582-10-12 01:00:00.25')",
                "SELECT * FROM cal_old ORDER BY id",
                "SELECT id FROM cal_old WHERE d = DATE '1582-10-10' OR ts = '1582-10-12 01:00:00.25' ORDER BY id",
                "SELECT id FROM cal_old WHERE d BETWEEN '1582-10-05' AND '1582-10-14' ORDER BY id",
                "SELECT id, d + 1 AS a, d - 1 AS b, d - DATE '1582-10-15' AS c, ts + INTERVAL '1 day' AS e,"
                        + " ts - INTERVAL '1 month' AS f, d + INTERVAL '1 day' AS g FROM cal_old ORDER BY id",
                // extract of a whole field is numeric in PostgreSQL, bigint in Tributary (README): compared as int
                "SELECT id, extract(doy FROM d)::int AS a, extract(dow FROM d)::int AS b, extract(day FROM ts)::int AS e,"
                        + " to_char(d, 'YYYY-MM-DD Dy J') AS f, to_char(ts, 'YYYY-MM-DD HH24:MI Dy') AS g,"
                        + " date_trunc('week', ts) AS h, date_part('day', d)::int AS i FROM cal_old ORDER BY id",
                "SELECT id, d::timestamp AS a, ts::date AS b, d::text AS c, ts::text AS e, d + TIME '10:00' AS f FROM cal_old ORDER BY id",
                "SELECT min(d) AS a, max(d) AS b, min(ts) AS c FROM cal_old WHERE d < '1582-10-15'",
                "SELECT to_date('1582-10-10', 'YYYY-MM-DD') AS a, to_timestamp('1582-10-10 10', 'YYYY-MM-DD HH24') AS b",
                "SELECT * FROM generate_series(DATE '1582-10-03', DATE '1582-10-06', INTERVAL '1 day') AS s(x)"));
    }

    /** {@code 24:00:00} is a time, the end of the day: printed, stored, compared and sorted as such. */
    @Test
    void endOfDayIsATime() {
        assertSame(List.of(
                "SELECT '24:00:00'::time AS a, TIME '24:00:00' AS b, CAST('24:00' AS time) AS c, '24:00:00'::time::text AS e",
                "SELECT '24:00'::time > '23:59:59.999'::time AS a, TIME '24:00' = TIME '00:00' AS b, TIME '24:00' - TIME '23:00' AS c",
                "CREATE TABLE cal_eod (id INT PRIMARY KEY, t TIME)",
                "INSERT INTO cal_eod VALUES (1, '24:00:00'), (2, '00:00:00'), (3, '23:59:59.5'), (4, TIME '24:00')",
                "SELECT id, t, t::text AS s FROM cal_eod ORDER BY t, id",
                "SELECT id FROM cal_eod WHERE t = '24:00:00' ORDER BY id",
                "SELECT max(t) AS hi, min(t) AS lo FROM cal_eod",
                "SELECT DATE '2024-02-28' + TIME '24:00' AS a"));
    }

    /** {@code timestamptz - timestamptz} is the interval between the instants, of constants and columns. */
    @Test
    void timestamptzMinusTimestamptzIsAnInterval() {
        assertSame(List.of(
                "SET TIME ZONE 'UTC'",
                "SELECT now() - now() AS a, statement_timestamp() - statement_timestamp() AS b",
                "SELECT TIMESTAMPTZ '2024-03-01 00:00+00' - TIMESTAMPTZ '2024-02-28 12:30:15.5+02' AS a,"
                        + " TIMESTAMPTZ '2024-01-01 00:00Z' - TIMESTAMPTZ '2024-01-02 01:00Z' AS b",
                "CREATE TABLE cal_tz (id INT PRIMARY KEY, a TIMESTAMPTZ, b TIMESTAMPTZ)",
                "INSERT INTO cal_tz VALUES (1, '2024-01-02 03:04:05.5+00', '2024-01-01 00:00+00'),"
                        + " (2, '2023-12-31 23:00-05', '2024-01-01 05:00+01'), (3, NULL, '2024-01-01')",
                "SELECT id, a - b AS d, b - a AS e, a - TIMESTAMPTZ '2024-01-01 00:00+00' AS f FROM cal_tz ORDER BY id",
                "SET TIME ZONE 'America/New_York'",
                "SELECT id, a - b AS d FROM cal_tz WHERE a - b > INTERVAL '1 hour' ORDER BY id",
                "SET TIME ZONE 'UTC'"));
    }

    /** The current-time functions take PostgreSQL's precisions up to 6 (a larger one is reduced to 6). */
    @Test
    void currentTimesTakePrecisionsUpToSix() {
        assertSame(List.of(
                "SELECT localtimestamp(6) IS NOT NULL AS a, current_timestamp(6) IS NOT NULL AS b,"
                        + " current_time(6) IS NOT NULL AS c, localtime(6) IS NOT NULL AS e",
                "SELECT pg_typeof(localtimestamp(4))::text AS a, pg_typeof(current_timestamp(5))::text AS b, pg_typeof(localtime(6))::text AS c",
                "SELECT current_timestamp(6) = now() AS a",
                "SELECT localtimestamp(6) - localtimestamp(3) < INTERVAL '1 second' AS a"));
    }

    /**
     * {@code extract} and {@code date_part} of the fields with a fraction ({@code microseconds},
     * {@code milliseconds}, {@code second}, {@code epoch}) of a column in a materialized view and a
     * plain view answer as the same query does, also for rows written after the view.
     */
    @Test
    void extractOfColumnsInViews() {
        assertSame(
                List.of(
                        "SET TIME ZONE 'UTC'",
                        "CREATE TABLE cal_ex (id INT PRIMARY KEY, ts TIMESTAMP, tz TIMESTAMPTZ, t TIME)",
                        "INSERT INTO cal_ex VALUES (1, '2024-01-02 03:04:05.678', '2024-01-02 03:04:05.5+00', '10:00:01.25'),"
                                + " (2, '1969-12-31 23:59:58.5', '1960-01-01 00:00:00+00', '00:00:00'), (3, NULL, NULL, NULL)",
                        "SELECT id, extract(microseconds FROM ts) AS a, extract(milliseconds FROM ts) AS b,"
                                + " date_part('microseconds', ts) AS c, date_part('milliseconds', ts) AS e FROM cal_ex ORDER BY id"));
        String query = "SELECT id, extract(microseconds FROM ts) AS a, date_part('milliseconds', ts) AS b,"
                + " extract(epoch FROM ts) AS c, extract(second FROM t) AS e, extract(milliseconds FROM tz) AS f,"
                + " date_part('microseconds', t) AS g FROM cal_ex";
        pair.both("CREATE VIEW cal_ex_v AS " + query);
        assertSame(List.of("SELECT * FROM cal_ex_v ORDER BY id"));
        List<String> mismatches = pair.viewMismatches(
                List.of(new PostgresPair.FollowedView("cal_ex_m", query, "id")),
                List.of(
                        "INSERT INTO cal_ex VALUES (4, '2000-01-01 00:00:00.001', '2000-01-01 00:00:59.999+00', '23:59:59.999')",
                        "UPDATE cal_ex SET ts = ts + INTERVAL '1.5 seconds' WHERE id = 1",
                        "DELETE FROM cal_ex WHERE id = 2"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * PostgreSQL takes BC dates; Tributary's values cannot hold them, so each form is 0A000 naming
     * the feature (not 22007, as for text PostgreSQL refuses too), checked to be text PostgreSQL
     * reads. Infinite ones are PostgreSQL's ({@link InfiniteDateTimesDifferentialTest}).
     */
    @Test
    void bcDatesAreRefusedByNameAndInfinitiesRead() {
        pair.both("CREATE TABLE cal_inf (id INT PRIMARY KEY, d DATE, ts TIMESTAMP)");
        for (String sql : List.of(
                "SELECT CAST('0044-03-15 BC' AS date) AS a",
                "INSERT INTO cal_inf VALUES (2, NULL, '0001-01-01 00:00 BC')")) {
            String postgres = StatementOutcome.of(pair.pg, sql, true);
            assertTrue(!postgres.startsWith("ERROR"), sql + ": " + postgres);
            String refused = StatementOutcome.withMessage(pair.tributary.connection, sql);
            assertTrue(refused.startsWith("ERROR 0A000") && refused.contains("BC"), sql + ": " + refused);
        }
        assertSame(List.of(
                "SELECT 'infinity'::date AS a",
                "SELECT '-infinity'::timestamp AS a",
                "SELECT TIMESTAMPTZ 'Infinity' AS a",
                "INSERT INTO cal_inf VALUES (1, 'infinity', NULL)",
                "SELECT * FROM cal_inf WHERE id = 1",
                "SELECT isfinite(DATE '2024-01-01') AS a, isfinite(TIMESTAMP '1582-10-10 10:00') AS b"));
    }

    /** Dates and timestamps bound as parameters keep their day, 1582-10-05..14 included. */
    @Test
    void parametersBeforeTheGregorianReformKeepTheirDay() {
        String sql = "SELECT ?::date AS a, ?::date + 1 AS b, ?::timestamp AS c, ?::date < DATE '1582-10-15' AS e";
        for (java.time.LocalDate day : List.of(
                java.time.LocalDate.of(1582, 10, 10),
                java.time.LocalDate.of(1582, 10, 4),
                java.time.LocalDate.of(1000, 6, 15),
                java.time.LocalDate.of(2024, 2, 29))) {
            List<Object> params = List.of(day, day, day.atTime(10, 20, 30), day);
            assertEquals(
                    StatementOutcome.ofPrepared(pair.pg, sql, params),
                    StatementOutcome.ofPrepared(pair.tributary.connection, sql, params),
                    day.toString());
        }
    }
}
