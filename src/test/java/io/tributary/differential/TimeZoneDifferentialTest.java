package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * The session's TimeZone, on Tributary and on an embedded PostgreSQL: SET TIME ZONE in its forms
 * and SHOW, then the same reads in several zones (UTC, Europe/Berlin across both DST changes and
 * before 1893's LMT, Asia/Kolkata, America/St_Johns, numeric and interval offsets): timestamptz
 * output, text input without an offset, casts to and from timestamp, date, time and text,
 * extract, date_trunc, DML that assigns text and timestamps to timestamptz columns, and a
 * materialized view that stores the instants. Rows with labels and JDBC types, or SQLSTATEs, must match.
 */
class TimeZoneDifferentialTest {
    /** Zones as SET TIME ZONE takes them. */
    private static final List<String> ZONES = List.of(
            "'UTC'",
            "'Europe/Berlin'",
            "'Asia/Kolkata'",
            "'America/St_Johns'",
            "-7",
            "5.75",
            "INTERVAL '+02:00' HOUR TO MINUTE",
            "'-03:30'");

    private static final List<String> SETUP = List.of(
            "SET TIME ZONE 'UTC'",
            "CREATE TABLE tzd (id INT PRIMARY KEY, t TIMESTAMPTZ, s TIMESTAMP, d DATE)",
            "INSERT INTO tzd VALUES (1, '2024-03-31 00:59:59+00', '2024-03-31 02:30', '2024-03-31'),"
                    + " (2, '2024-03-31 01:00:00+00', '2024-10-27 02:30', '2024-10-27'),"
                    + " (3, '2024-10-27 00:30:00+00', '2024-07-01 12:00:00.25', '2024-07-01'),"
                    + " (4, '2024-10-27 01:30:00+00', '1850-06-01 12:00', '1850-06-01'),"
                    + " (5, '1850-06-01 12:00:00+00', '2024-01-01 00:00', '2024-01-01'),"
                    + " (6, '2024-01-01 23:45:30.5-03:30', NULL, NULL),"
                    + " (7, NULL, '2000-02-29 23:59:59', '2000-02-29')",
            "CREATE MATERIALIZED VIEW tzd_m AS SELECT id, t FROM tzd");

    /** What every zone reads, after SET TIME ZONE. */
    private static final List<String> READS = List.of(
            "SHOW TimeZone",
            "SELECT id, t FROM tzd ORDER BY id",
            "SELECT * FROM tzd_m ORDER BY id",
            "SELECT id, t::timestamp AS a, t::date AS b, t::time AS c, t::text AS e FROM tzd ORDER BY id",
            "SELECT id, s::timestamptz AS a, d::timestamptz AS b, CAST(s AS timestamptz) AS c FROM tzd ORDER BY id",
            // cast to int: extract's numeric and date_part's double are Tributary's bigint (expression deviations)
            "SELECT id, extract(hour FROM t)::int AS h, extract(minute FROM t)::int AS m, extract(day FROM t)::int AS dd,"
                    + " extract(dow FROM t)::int AS w, date_part('hour', t)::int AS p FROM tzd ORDER BY id",
            // the zone's offset at each instant (Berlin in 1850: local mean time, +00:53:28); a timestamp has none
            "SELECT id, extract(timezone FROM t) AS z, extract(timezone_hour FROM t) AS zh,"
                    + " extract(timezone_minute FROM t) AS zm, date_part('timezone', t) AS p,"
                    + " date_part('timezone_minute', t) AS pm FROM tzd ORDER BY id",
            "SELECT extract(timezone FROM s) AS a FROM tzd",
            "SELECT date_part('timezone_hour', d) AS a FROM tzd",
            "SELECT id, date_trunc('hour', t) AS h, date_trunc('day', t) AS dd, date_trunc('month', t) AS m,"
                    + " date_trunc('year', t) AS y FROM tzd ORDER BY id",
            "SELECT TIMESTAMPTZ '2024-03-31 02:30' AS a, TIMESTAMPTZ '2024-10-27 02:30' AS b,"
                    + " '2024-07-01 12:00'::timestamptz AS c, CAST('1850-01-01 00:00' AS timestamptz) AS e,"
                    + " TIMESTAMPTZ '2024-01-01 10:00+02' AS f",
            "SELECT TIMESTAMP '2024-03-31 02:30'::timestamptz AS a, TIMESTAMPTZ '2024-10-27 01:30+00'::timestamp AS b,"
                    + " TIMESTAMPTZ '2024-01-01 23:30+00'::date AS c, TIMESTAMPTZ '2024-01-01 23:30+00'::text AS e",
            "SELECT id FROM tzd WHERE t < TIMESTAMPTZ '2024-03-31 03:00' ORDER BY id",
            "SELECT id, t > s::timestamptz AS later FROM tzd ORDER BY id",
            "SELECT TIMESTAMPTZ 'junk' AS a",
            // the SQL standard's spelling of the types, of columns and constants
            "SELECT id, CAST(s AS TIMESTAMP WITH TIME ZONE) AS a, s::timestamp with time zone AS b,"
                    + " CAST(t AS TIMESTAMP WITHOUT TIME ZONE) AS c, t::timestamp without time zone AS e FROM tzd ORDER BY id",
            "SELECT TIMESTAMP WITH TIME ZONE '2024-03-31 02:30' AS a, TIMESTAMPTZ '2024-01-01 10:00:00+02' AS b,"
                    + " '2024-10-27 02:30'::timestamp with time zone AS c,"
                    + " CAST('2024-07-01 12:00' AS TIMESTAMP WITH TIME ZONE) AS e");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("timezone-diff-");
        List<String> mismatches = pair.mismatches(SETUP);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void setTimeZoneAndShowAnswerAsPostgres() {
        List<String> statements = new ArrayList<>();
        for (String zone : List.of(
                "'Europe/Berlin'",
                "'europe/berlin'",
                "-7",
                "5.5",
                "'+02'",
                "'-03:30'",
                "'UTC+3'",
                "'FOO+3'",
                "INTERVAL '+02:00' HOUR TO MINUTE",
                "INTERVAL '-05:30'",
                "INTERVAL '2' HOUR",
                "0",
                "'EST'",
                "'utc'",
                "'zulu'",
                "'GMT+5'",
                "'Etc/GMT-14'",
                "'PST8PDT'",
                "'<+03>-3'",
                "'UTC-03:30'",
                "'+5'",
                "'America/St_Johns'")) {
            statements.add("SET TIME ZONE " + zone);
            statements.add("SHOW TimeZone");
            statements.add("SELECT TIMESTAMPTZ '2024-07-01 12:00+00' AS a, TIMESTAMPTZ '1995-01-15 12:00+00' AS b,"
                    + " '2024-01-15 12:00'::timestamptz AS c");
        }
        statements.addAll(List.of(
                "SET TIME ZONE 'Foo/Bar'",
                "SET TIME ZONE 'PST'",
                // abbreviations are no zone names for SET, whatever AT TIME ZONE reads
                "SET TIME ZONE 'msk'",
                "SET TIME ZONE 'CLT'",
                "SET TIME ZONE INTERVAL '1 day'",
                "SET TIME ZONE INTERVAL '1 mon'",
                "SHOW TimeZone",
                "SET TimeZone = 'Asia/Kolkata'",
                "SHOW timezone",
                "SET TimeZone TO 'Europe/Berlin'",
                "SELECT current_setting('TimeZone') AS z",
                // back to the server's zone (UTC by another name there: Etc/UTC), so no SHOW
                "SET TIME ZONE LOCAL",
                "SELECT TIMESTAMPTZ '2024-07-01 12:00+00' AS a",
                "SET TIME ZONE 'Asia/Kolkata'",
                "SET TIME ZONE DEFAULT",
                "SELECT TIMESTAMPTZ '2024-07-01 12:00+00' AS a",
                "SET TIME ZONE 'Asia/Kolkata'",
                "RESET TimeZone",
                "SELECT TIMESTAMPTZ '2024-07-01 12:00+00' AS a",
                "SET TIME ZONE 'UTC'"));
        List<String> mismatches = pair.mismatches(statements);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void timestamptzReadsAnswerAsPostgresInEveryZone() {
        List<String> mismatches = pair.mismatchesInZones(ZONES, READS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** Text, timestamps and dates assigned to a timestamptz column are read in the session's zone. */
    @Test
    void writesReadTextInTheSessionZone() {
        List<String> mismatches = pair.mismatches(List.of(
                "CREATE TABLE tzw (id INT PRIMARY KEY, t TIMESTAMPTZ, s TIMESTAMP)",
                "SET TIME ZONE 'America/St_Johns'",
                "INSERT INTO tzw VALUES (1, '2024-07-01 12:00', '2024-07-01 12:00'), (2, '2024-11-03 01:30', NULL)",
                "INSERT INTO tzw (id, t) SELECT id + 10, s FROM tzw WHERE s IS NOT NULL",
                "UPDATE tzw SET s = t WHERE id = 2",
                "INSERT INTO tzw VALUES (3, TIMESTAMP '2024-03-10 02:30', TIMESTAMPTZ '2024-03-10 12:00+00')",
                "SET TIME ZONE 'Asia/Kolkata'",
                "SELECT * FROM tzw ORDER BY id",
                "SET TIME ZONE 'UTC'",
                "SELECT * FROM tzw ORDER BY id"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * A materialized view whose body converts timestamptz in the session's zone is refused outside
     * UTC (views are maintained in UTC; README's known limits), where PostgreSQL would compute it in
     * the creating session's zone; in UTC it is made, and read in any zone as PostgreSQL's.
     */
    @Test
    void zoneDependentViewsAreRefusedOutsideUtc() {
        pair.both("SET TIME ZONE 'Europe/Berlin'");
        for (String body : List.of(
                "SELECT id, t::date AS d FROM tzd",
                "SELECT id, extract(hour FROM t) AS h FROM tzd",
                "SELECT id, date_trunc('day', t) AS dd FROM tzd",
                "SELECT id FROM tzd WHERE t > TIMESTAMPTZ '2024-01-01'",
                "SELECT id, s::timestamptz AS x FROM tzd")) {
            String outcome =
                    StatementOutcome.of(pair.tributary.connection, "CREATE MATERIALIZED VIEW tzd_x AS " + body, false);
            assertEquals("ERROR 0A000", outcome, body);
        }
        List<String> mismatches = pair.mismatches(List.of(
                "CREATE MATERIALIZED VIEW tzd_ok AS SELECT id, t FROM tzd WHERE t > TIMESTAMPTZ '2024-01-01 00:00+00'",
                "SELECT * FROM tzd_ok ORDER BY id",
                "SET TIME ZONE 'UTC'",
                "CREATE MATERIALIZED VIEW tzd_day AS SELECT id, t::date AS d, date_trunc('hour', t) AS h FROM tzd",
                "SET TIME ZONE 'Asia/Kolkata'",
                "SELECT * FROM tzd_day ORDER BY id",
                "SET TIME ZONE 'UTC'"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * The TimeZone a client sends at startup (pgjdbc sends the JVM's) is the session's, and a SET
     * is reported in ParameterStatus as PostgreSQL reports it.
     */
    @Test
    void startupZoneAndParameterStatusAsPostgres() throws Exception {
        TimeZone jvm = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kolkata"));
        try (Connection pg = DifferentialPostgres.connectDev();
                Connection tr = pair.tributary.connect("postgres", "", 60)) {
            TimeZone.setDefault(jvm);
            String query = "SELECT current_setting('TimeZone') AS z, TIMESTAMPTZ '2024-01-01 00:00+00' AS t";
            assertEquals(StatementOutcome.of(pg, query, true), StatementOutcome.of(tr, query, true));
            assertEquals(
                    pg.unwrap(PGConnection.class).getParameterStatus("TimeZone"),
                    tr.unwrap(PGConnection.class).getParameterStatus("TimeZone"));
            for (String zone : List.of("'America/St_Johns'", "-7", "INTERVAL '+05:45' HOUR TO MINUTE", "DEFAULT")) {
                StatementOutcome.of(pg, "SET TIME ZONE " + zone, false);
                StatementOutcome.of(tr, "SET TIME ZONE " + zone, false);
                String expected = pg.unwrap(PGConnection.class).getParameterStatus("TimeZone");
                assertTrue(expected != null && !expected.isEmpty(), zone);
                if (!zone.equals("DEFAULT")) {
                    // DEFAULT is each server's own default zone
                    assertEquals(expected, tr.unwrap(PGConnection.class).getParameterStatus("TimeZone"), zone);
                }
            }
        } finally {
            TimeZone.setDefault(jvm);
        }
    }
}
