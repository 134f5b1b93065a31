package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code date_trunc(unit, timestamptz, zone)} on Tributary and on an embedded PostgreSQL (issue
 * 12): truncated in the named zone whatever the session's, across daylight-saving changes, over
 * constants, stored columns and a materialized view; an unknown zone is 22023. Rows with labels and
 * JDBC types, or SQLSTATEs, must match.
 */
class DateTruncZoneDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("date-trunc-zone-diff-");
        List<String> mismatches = pair.mismatches(List.of(
                "SET TIME ZONE 'UTC'",
                "CREATE TABLE dtz (id INT PRIMARY KEY, tz TIMESTAMPTZ)",
                "INSERT INTO dtz VALUES (1, '2024-03-10 12:00:00.123456+00'), (2, '2024-11-03 05:30+00'),"
                        + " (3, '2024-01-01 03:00+00'), (4, NULL)"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void truncatesInTheNamedZone() {
        List<String> mismatches = pair.mismatchesInZones(
                List.of("'UTC'", "'Asia/Kolkata'", "-7"),
                List.of(
                        "SELECT date_trunc('day', TIMESTAMPTZ '2024-03-10 12:00+00', 'America/New_York') AS a,"
                                + " date_trunc('hour', TIMESTAMPTZ '2024-03-10 07:30:00.5+00', 'America/New_York') AS b,"
                                + " date_trunc('month', TIMESTAMPTZ '2024-03-01 02:00+00', 'Asia/Kolkata') AS c",
                        "SELECT id, date_trunc('day', tz, 'America/New_York') AS d,"
                                + " date_trunc('week', tz, 'Europe/Paris') AS w FROM dtz ORDER BY id",
                        "SELECT count(*) AS n FROM dtz WHERE date_trunc('day', tz, 'Asia/Tokyo') < tz"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void anUnknownZoneIsRefused() {
        List<String> mismatches =
                pair.mismatches(List.of("SELECT date_trunc('day', tz, 'Mars/Olympus') AS d FROM dtz ORDER BY id"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void aMaterializedViewKeepsIt() {
        pair.both("CREATE TABLE dtzv (id INT PRIMARY KEY, tz TIMESTAMPTZ)");
        List<String> mismatches = pair.viewMismatches(
                List.of(new PostgresPair.FollowedView(
                        "dtz_days", "SELECT id, date_trunc('day', tz, 'America/New_York') AS d FROM dtzv", "id")),
                List.of(
                        "INSERT INTO dtzv VALUES (1, '2024-03-10 03:00+00'), (2, '2024-03-10 12:00+00')",
                        "UPDATE dtzv SET tz = tz + INTERVAL '1 day' WHERE id = 1",
                        "DELETE FROM dtzv WHERE id = 2"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
        pair.both("DROP MATERIALIZED VIEW dtz_days");
        pair.both("DROP TABLE dtzv");
    }
}
