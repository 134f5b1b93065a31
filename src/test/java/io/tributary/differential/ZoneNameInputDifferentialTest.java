package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Timestamp and timestamptz text naming its zone ({@code '2024-03-10 01:30 America/New_York'}) on
 * Tributary and on an embedded PostgreSQL (issue 12): the zone's offset at that local time (across
 * daylight-saving changes), in constants, casts of text, stored values, every session zone and a
 * materialized view's filter; a timestamp ignores the zone; an unknown zone is 22023; an
 * abbreviation ({@code PST}) is its fixed offset in PostgreSQL's default set, an unknown word 22007. Rows with
 * labels and JDBC types, or SQLSTATEs, must match.
 */
class ZoneNameInputDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("zone-name-diff-");
        List<String> mismatches = pair.mismatches(List.of(
                "SET TIME ZONE 'UTC'",
                "CREATE TABLE tzn (id INT PRIMARY KEY, tz TIMESTAMPTZ, ts TIMESTAMP)",
                "INSERT INTO tzn VALUES (1, '2024-03-10 01:30 America/New_York', '2024-03-10 01:30 America/New_York'),"
                        + " (2, '2024-06-01 00:00:00.25 Australia/Sydney', NULL),"
                        + " (3, '2024-11-03 01:30:00 america/new_york', '2024-11-03 01:30:00 europe/paris')"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void constantsReadTheNamedZone() {
        List<String> mismatches = pair.mismatchesInZones(
                List.of("'UTC'", "'Asia/Kolkata'", "-7"),
                List.of(
                        "SELECT '2024-03-10 01:30 America/New_York'::timestamptz AS a,"
                                + " TIMESTAMPTZ '2024-07-01 12:00:00.5 Europe/Paris' AS b,"
                                + " '2024-03-10 02:30 America/New_York'::timestamptz AS gap,"
                                + " '2024-11-03 01:30 America/New_York'::timestamptz AS overlap",
                        "SELECT '2024-01-01 10:00 asia/kolkata'::timestamptz AS a,"
                                + " '2024-01-01 10:00 Asia/Kolkata'::timestamp AS b,"
                                + " CAST('2024-01-01T10:00:00.123456 Etc/GMT+5' AS timestamptz) AS c",
                        "SELECT ('2024-03-10 01:30 ' || 'America/New_York')::timestamptz AS a",
                        "SELECT id, tz, ts FROM tzn ORDER BY id",
                        "SELECT id FROM tzn WHERE tz < '2024-03-10 02:00 America/Chicago' ORDER BY id"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void anUnknownZoneIsRefused() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT '2024-01-01 10:00 Mars/Olympus'::timestamptz AS a",
                "SELECT ('2024-01-01 10:00 ' || 'Mars/Olympus')::timestamptz AS a",
                "INSERT INTO tzn VALUES (9, '2024-01-01 10:00 Mars/Olympus', NULL)",
                "SELECT '2024-01-01 10:00 Mars/Olympus'::timestamp AS a",
                "SELECT count(*) AS n FROM tzn"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void aMaterializedViewFiltersByANamedZone() {
        pair.both("CREATE TABLE tznv (id INT PRIMARY KEY, tz TIMESTAMPTZ)");
        List<String> mismatches = pair.viewMismatches(
                List.of(new PostgresPair.FollowedView(
                        "tzn_after", "SELECT id, tz FROM tznv WHERE tz >= '2024-03-10 03:00 America/New_York'", "id")),
                List.of(
                        "INSERT INTO tznv VALUES (1, '2024-03-10 01:59:59 America/New_York'),"
                                + " (2, '2024-03-10 03:00 America/New_York'), (3, '2024-03-10 08:00+00')",
                        "UPDATE tznv SET tz = '2024-03-10 06:59:59 UTC' WHERE id = 3",
                        "DELETE FROM tznv WHERE id = 2"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
        pair.both("DROP MATERIALIZED VIEW tzn_after");
        pair.both("DROP TABLE tznv");
    }

    /** Abbreviations are fixed offsets whatever the date ({@code PST} in July is still -08), stored as keys too. */
    @Test
    void abbreviationsAreFixedOffsets() {
        pair.both("CREATE TABLE tza (tz TIMESTAMPTZ PRIMARY KEY, ts TIMESTAMP)");
        List<String> mismatches = pair.mismatchesInZones(
                List.of("'UTC'", "'America/Los_Angeles'"),
                List.of(
                        "SELECT '2024-07-01 12:00 PST'::timestamptz AS a, '2024-01-01 12:00 PDT'::timestamptz AS b,"
                                + " '2024-01-01 12:00:00.000001 cet'::timestamptz AS c,"
                                + " TIMESTAMPTZ '2024-07-01 12:00 EDT' AS d",
                        "SELECT '2024-01-01 12:00 PST'::timestamptz = '2024-01-01 20:00 UTC'::timestamptz AS same"));
        mismatches.addAll(pair.mismatches(List.of(
                "INSERT INTO tza VALUES ('2024-01-01 12:00 PST', '2024-01-01 12:00 PST'),"
                        + " ('2024-01-01 22:00 CET', NULL)",
                "INSERT INTO tza VALUES ('2024-01-01 15:00 EST', NULL)", // the same instant as 12:00 PST: 23505
                "SELECT tz, ts FROM tza ORDER BY tz",
                "SELECT '2024-01-01 12:00 Pacific'::timestamptz AS a")));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
        pair.both("DROP TABLE tza");
    }

    /**
     * The abbreviations are PostgreSQL's default set, not the JDK's zone names: {@code IST} is
     * Israel's +02 (India's +05:30 in the JDK), {@code UT}, {@code ZULU} and {@code UCT} are UTC,
     * {@code WEST} is unknown (22007), in constants, stored values and AT TIME ZONE.
     */
    @Test
    void abbreviationsArePostgresqlsDefaultSet() {
        pair.both("CREATE TABLE tzd (id INT PRIMARY KEY, tz TIMESTAMPTZ)");
        List<String> mismatches = pair.mismatchesInZones(
                List.of("'UTC'", "'Asia/Tokyo'"),
                List.of(
                        "SELECT '2024-03-01 12:00 IST'::timestamptz AS a, '2024-03-01 12:00 ut'::timestamptz AS b,"
                                + " '2024-03-01 12:00 zulu'::timestamptz AS c, TIMESTAMPTZ '2024-03-01 12:00 UCT' AS d",
                        "SELECT '2024-03-01 12:00 WEST'::timestamptz AS a",
                        "SELECT TIMESTAMP '2024-03-01 12:00' AT TIME ZONE 'IST' AS a,"
                                + " TIMESTAMPTZ '2024-03-01 12:00 IST' AT TIME ZONE 'ut' AS b,"
                                + " TIMESTAMPTZ '2024-03-01 12:00 zulu' AT TIME ZONE 'UCT' AS c",
                        "SELECT TIMESTAMP '2024-03-01 12:00' AT TIME ZONE 'WEST' AS a"));
        mismatches.addAll(pair.mismatches(List.of(
                "INSERT INTO tzd VALUES (1, '2024-03-01 12:00 IST'), (2, '2024-03-01 12:00 Ut'),"
                        + " (3, '2024-03-01 12:00 ZULU'), (4, '2024-03-01 12:00 uct')",
                "INSERT INTO tzd VALUES (5, '2024-03-01 12:00 WEST')",
                "SELECT id, tz FROM tzd ORDER BY id")));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
        pair.both("DROP TABLE tzd");
    }
}
