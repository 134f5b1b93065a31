package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code AT TIME ZONE} and {@code timezone(zone, ts)}, on Tributary and on an embedded PostgreSQL,
 * in several session zones: timestamp to timestamptz and back, zones given by name (any case),
 * abbreviation, numeric (POSIX) offset and interval, a zone from a column, chained and in WHERE,
 * in plain and materialized views, and unknown zones (SQLSTATE). Rows with labels and JDBC types,
 * result column type names (RowDescription OIDs) and SQLSTATEs must match.
 */
class AtTimeZoneDifferentialTest {
    /** Session zones as SET TIME ZONE takes them. */
    private static final List<String> ZONES =
            List.of("'UTC'", "'Europe/Berlin'", "'Asia/Kolkata'", "'America/St_Johns'", "'-03:30'");

    private static final List<String> SETUP = List.of(
            "SET TIME ZONE 'UTC'",
            "CREATE TABLE atz (id INT PRIMARY KEY, t TIMESTAMPTZ, s TIMESTAMP, d DATE, z TEXT)",
            "INSERT INTO atz VALUES (1, '2024-03-31 00:59:59+00', '2024-03-31 02:30', '2024-03-31', 'Europe/Berlin'),"
                    + " (2, '2024-03-31 01:00:00+00', '2024-10-27 02:30', '2024-10-27', 'Asia/Kolkata'),"
                    + " (3, '2024-10-27 00:30:00+00', '2024-07-01 12:00:00.25', '2024-07-01', '+05:30'),"
                    + " (4, '2024-10-27 01:30:00+00', '1850-06-01 12:00', '1850-06-01', 'EST'),"
                    + " (5, '1850-06-01 12:00:00+00', '2024-01-01 00:00', '2024-01-01', 'america/st_johns'),"
                    + " (6, '2024-01-01 23:45:30.5-03:30', NULL, NULL, 'UTC'),"
                    + " (7, NULL, '2000-02-29 23:59:59', '2000-02-29', NULL)",
            "CREATE TABLE atz_std (id INT PRIMARY KEY, t TIMESTAMP WITH TIME ZONE, s TIMESTAMP WITHOUT TIME ZONE)",
            "INSERT INTO atz_std VALUES (1, '2024-03-31 00:59:59+00', '2024-03-31 02:30')");

    /** What every session zone reads. */
    private static final List<String> READS = List.of(
            "SELECT id, t AT TIME ZONE 'UTC' AS a, t AT TIME ZONE 'Europe/Berlin' AS b,"
                    + " t AT TIME ZONE 'Asia/Kolkata' AS c, t AT TIME ZONE 'America/St_Johns' AS e FROM atz ORDER BY id",
            "SELECT id, s AT TIME ZONE 'UTC' AS a, s AT TIME ZONE 'Europe/Berlin' AS b,"
                    + " s AT TIME ZONE 'Asia/Kolkata' AS c, s AT TIME ZONE 'America/St_Johns' AS e FROM atz ORDER BY id",
            "SELECT id, t AT TIME ZONE '+05:30' AS a, s AT TIME ZONE '-03' AS b, t AT TIME ZONE 'UTC+3' AS c,"
                    + " s AT TIME ZONE '+00' AS e FROM atz ORDER BY id",
            "SELECT id, t AT TIME ZONE 'PST' AS a, t AT TIME ZONE 'CEST' AS b, s AT TIME ZONE 'EST' AS c,"
                    + " s AT TIME ZONE 'cet' AS e, t AT TIME ZONE 'europe/berlin' AS f FROM atz ORDER BY id",
            "SELECT id, t AT TIME ZONE INTERVAL '-08:00' AS a, s AT TIME ZONE INTERVAL '+05:30' HOUR TO MINUTE AS b"
                    + " FROM atz ORDER BY id",
            "SELECT id, timezone('Europe/Berlin', t) AS a, timezone('Asia/Kolkata', s) AS b,"
                    + " s AT TIME ZONE 'UTC' AT TIME ZONE 'Asia/Kolkata' AS c,"
                    + " (t + INTERVAL '1 hour') AT TIME ZONE 'UTC' AS e FROM atz ORDER BY id",
            "SELECT id, t AT TIME ZONE z AS a, s AT TIME ZONE z AS b FROM atz ORDER BY id",
            // pg_typeof's column is text in Tributary (README): compared as text
            "SELECT id, pg_typeof(t AT TIME ZONE 'UTC')::text AS a, pg_typeof(s AT TIME ZONE 'UTC')::text AS b"
                    + " FROM atz WHERE id = 1",
            "SELECT id FROM atz WHERE s AT TIME ZONE 'Europe/Berlin' < t ORDER BY id",
            "SELECT id, d AT TIME ZONE 'Asia/Kolkata' AS a FROM atz ORDER BY id",
            "SELECT TIMESTAMP '2024-03-31 02:30' AT TIME ZONE 'Europe/Berlin' AS a,"
                    + " TIMESTAMP '2024-10-27 02:30' AT TIME ZONE 'Europe/Berlin' AS b,"
                    + " TIMESTAMPTZ '2024-10-27 01:30+00' AT TIME ZONE 'Europe/Berlin' AS c,"
                    + " '2024-07-01 12:00'::timestamptz AT TIME ZONE 'UTC' AS e",
            "SELECT t AT TIME ZONE 'Foo/Bar' AS a FROM atz",
            "SELECT TIMESTAMP '2024-01-01 00:00' AT TIME ZONE 'nowhere' AS a",
            "SELECT s AT TIME ZONE INTERVAL '1 day' AS a FROM atz",
            "SELECT id, t, s, t AT TIME ZONE 'Asia/Kolkata' AS a, CAST(s AS TIMESTAMP WITH TIME ZONE) AS b,"
                    + " pg_typeof(t)::text AS c FROM atz_std");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("attz-diff-");
        List<String> mismatches = pair.mismatches(SETUP);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void atTimeZoneAnswersAsPostgresInEveryZone() {
        List<String> mismatches = pair.mismatchesInZones(ZONES, READS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * Every abbreviation of PostgreSQL's default set, as its {@code pg_timezone_abbrevs} lists them,
     * in AT TIME ZONE both ways, in {@code timezone(...)} and in timestamptz input, in winter and
     * summer of several years: those PostgreSQL looks up in a zone change with the date ({@code MSK}
     * was +04 from 2011 to 2014, {@code CLT} and {@code EASST} follow Chile's daylight time), the
     * others do not ({@code PST} is -08 in July). {@code WEST}, not in the set, is 22023.
     */
    @Test
    void everyDefaultAbbreviationAnswersAsPostgresInSeveralYears() throws Exception {
        List<String> abbreviations = new ArrayList<>();
        try (var st = pair.pg.createStatement();
                var rs = st.executeQuery("SELECT abbrev FROM pg_timezone_abbrevs ORDER BY abbrev")) {
            while (rs.next()) {
                abbreviations.add(rs.getString(1));
            }
        }
        List<String> statements = new ArrayList<>();
        String[] days = {"1990-01-15", "1995-07-15", "2012-01-15", "2012-07-15", "2024-01-15", "2024-07-15"};
        // a few abbreviations a statement: each statement is planned, which takes longer than running it
        for (int from = 0; from < abbreviations.size(); from += 5) {
            StringBuilder sql = new StringBuilder("SELECT ");
            for (String abbreviation : abbreviations.subList(from, Math.min(from + 5, abbreviations.size()))) {
                for (int i = 0; i < days.length; i++) {
                    String label = "\"" + abbreviation + i;
                    sql.append(sql.length() == 7 ? "" : ", ")
                            .append("TIMESTAMPTZ '")
                            .append(days[i])
                            .append(" 12:00+00' AT TIME ZONE '")
                            .append(abbreviation)
                            .append("' AS ")
                            .append(label)
                            .append("l\"")
                            .append(", timezone('")
                            .append(abbreviation.toLowerCase(java.util.Locale.ROOT))
                            .append("', TIMESTAMP '")
                            .append(days[i])
                            .append(" 12:00') AS ")
                            .append(label)
                            .append("i\"")
                            .append(", '")
                            .append(days[i])
                            .append(" 12:00 ")
                            .append(abbreviation)
                            .append("'::timestamptz AS ")
                            .append(label)
                            .append("t\"");
                }
            }
            statements.add(sql.toString());
        }
        // not in the default set: a zone name neither (22023)
        statements.add("SELECT TIMESTAMP '2024-01-15 12:00' AT TIME ZONE 'WEST' AS a");
        statements.add("SELECT TIMESTAMPTZ '2024-01-15 12:00+00' AT TIME ZONE 'west' AS a");
        // around MSK's changes of meaning in Europe/Moscow's tzdata
        statements.add("SELECT TIMESTAMP '2011-03-27 01:59' AT TIME ZONE 'MSK' AS a,"
                + " TIMESTAMP '2011-03-27 03:00' AT TIME ZONE 'MSK' AS b,"
                + " TIMESTAMPTZ '2014-10-25 21:59:59+00' AT TIME ZONE 'MSK' AS c,"
                + " TIMESTAMPTZ '2014-10-25 22:00:00+00' AT TIME ZONE 'MSK' AS e,"
                + " TIMESTAMPTZ '1919-07-01 00:00+00' AT TIME ZONE 'MSK' AS f,"
                + " '2014-10-26 01:30 MSK'::timestamptz AS g");
        // CLT and EAST, no longer in their zones' tzdata, at Chile's 2024 fall-back (April 7, 03:00 UTC)
        // and spring-forward (September 8, 04:00 UTC): the zone's offset at the local time, the
        // later one in a repeated hour
        for (String abbreviation : List.of("CLT", "EAST")) {
            String[] local = abbreviation.equals("CLT")
                    ? new String[] {"2024-04-06 23:30", "2024-09-08 00:30"}
                    : new String[] {"2024-04-06 21:30", "2024-09-07 22:30"};
            statements.add("SELECT TIMESTAMPTZ '2024-04-07 02:30+00' AT TIME ZONE '" + abbreviation + "' AS a,"
                    + " TIMESTAMPTZ '2024-04-07 03:30+00' AT TIME ZONE '" + abbreviation + "' AS b,"
                    + " TIMESTAMPTZ '2024-09-08 03:30+00' AT TIME ZONE '" + abbreviation + "' AS c,"
                    + " TIMESTAMPTZ '2024-09-08 04:30+00' AT TIME ZONE '" + abbreviation + "' AS e,"
                    + " timezone('" + abbreviation + "', TIMESTAMPTZ '2024-04-07 02:59:59+00') AS f,"
                    + " TIMESTAMP '" + local[0] + "' AT TIME ZONE '" + abbreviation + "' AS g,"
                    + " TIMESTAMP '" + local[1] + "' AT TIME ZONE '" + abbreviation + "' AS h,"
                    + " timezone('" + abbreviation + "', TIMESTAMP '" + local[0] + "') AS i,"
                    + " '" + local[0] + " " + abbreviation + "'::timestamptz AS j,"
                    + " '" + local[1] + " " + abbreviation + "'::timestamptz AS k");
        }
        List<String> mismatches = pair.mismatches(statements);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** DML assigns what AT TIME ZONE gives, converted to the column's type in the session's zone. */
    @Test
    void writesAssignAtTimeZoneResults() {
        List<String> mismatches = pair.mismatches(List.of(
                "CREATE TABLE atz_w (id INT PRIMARY KEY, t TIMESTAMPTZ, s TIMESTAMP)",
                "SET TIME ZONE 'America/St_Johns'",
                "INSERT INTO atz_w SELECT id, s AT TIME ZONE 'Europe/Berlin', t AT TIME ZONE 'Asia/Kolkata' FROM atz",
                "INSERT INTO atz_w VALUES (10, TIMESTAMP '2024-03-10 02:30' AT TIME ZONE 'America/New_York',"
                        + " TIMESTAMPTZ '2024-03-10 12:00+00' AT TIME ZONE 'UTC')",
                "UPDATE atz_w SET s = t AT TIME ZONE 'UTC' WHERE id = 2",
                "DELETE FROM atz_w WHERE t AT TIME ZONE 'UTC' < TIMESTAMP '2000-01-01'",
                "SELECT * FROM atz_w ORDER BY id",
                "SET TIME ZONE 'UTC'",
                "SELECT * FROM atz_w ORDER BY id"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** The result columns' type names, which name the OIDs of RowDescription. */
    @Test
    void resultTypesAreTimestampAndTimestamptz() {
        String sql = "SELECT t AT TIME ZONE 'UTC' AS a, s AT TIME ZONE 'UTC' AS b, timezone('UTC', t) AS c,"
                + " timezone('UTC', s) AS e FROM atz WHERE id = 1";
        assertEquals(
                StatementOutcome.withTypeNames(pair.pg, sql),
                StatementOutcome.withTypeNames(pair.tributary.connection, sql));
    }

    /**
     * A view over AT TIME ZONE with a constant zone does not read the session's zone: it is made
     * in any zone and answers as PostgreSQL's in every zone. The materialized view is maintained
     * as rows change (PostgreSQL's is not: its rows are compared with PostgreSQL's answer to the
     * view's query); one over a date is 0A000 (it would read the session's zone).
     */
    @Test
    void viewsOverConstantZonesAnswerAsPostgres() {
        String body = "SELECT id, t AT TIME ZONE 'Asia/Kolkata' AS a, s AT TIME ZONE 'Europe/Berlin' AS b,"
                + " timezone('America/St_Johns', t) AS c, t AT TIME ZONE INTERVAL '-02:00' AS e FROM atz";
        List<String> mismatches = new ArrayList<>(pair.mismatches(List.of(
                "SET TIME ZONE 'Europe/Berlin'",
                "CREATE VIEW atz_v AS SELECT id, s AT TIME ZONE 'UTC' AS a, t AT TIME ZONE '+02' AS b FROM atz")));
        mismatches.addAll(pair.mismatchesInZones(ZONES, List.of("SELECT * FROM atz_v ORDER BY id")));
        pair.both("SET TIME ZONE 'Europe/Berlin'");
        assertEquals(
                "count 7",
                StatementOutcome.of(pair.tributary.connection, "CREATE MATERIALIZED VIEW atz_m AS " + body, false));
        pair.both("INSERT INTO atz VALUES (8, '2024-10-27 00:59:59+00', '2024-10-27 02:59:59', NULL, NULL)");
        for (String zone : ZONES) {
            pair.both("SET TIME ZONE " + zone);
            String expected = StatementOutcome.of(pair.pg, body + " ORDER BY id", true);
            String actual = StatementOutcome.of(pair.tributary.connection, "SELECT * FROM atz_m ORDER BY id", true);
            if (!expected.equals(actual)) {
                mismatches.add(zone + ": atz_m\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        pair.both("DELETE FROM atz WHERE id = 8");
        assertEquals(
                StatementOutcome.of(pair.pg, body + " ORDER BY id", true),
                StatementOutcome.of(pair.tributary.connection, "SELECT * FROM atz_m ORDER BY id", true));
        assertEquals(
                "ERROR 0A000",
                StatementOutcome.of(
                        pair.tributary.connection,
                        "CREATE MATERIALIZED VIEW atz_d AS SELECT id, d AT TIME ZONE 'UTC' AS a FROM atz",
                        false));
        pair.both("SET TIME ZONE 'UTC'");
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
