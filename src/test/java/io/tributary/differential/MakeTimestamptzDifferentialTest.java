package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code make_timestamptz} with five or six fields and with a zone (issue 12; it was 42883) on
 * Tributary and on an embedded PostgreSQL: the local time read in the session's zone or in the
 * named one (a numeric offset east of Greenwich, as timestamptz input reads it), over constants and
 * a table's columns, with PostgreSQL's errors.
 */
class MakeTimestamptzDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("make-timestamptz-diff-");
        List<String> mismatches = pair.mismatches(List.of(
                "CREATE TABLE mt (id INT PRIMARY KEY, y INT, s DOUBLE PRECISION, z TEXT)",
                "INSERT INTO mt VALUES (1, 2024, 1.25, 'Asia/Tokyo'), (2, 1999, 59, '-03:30'), (3, 2024, 0, NULL)"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void inTheSessionZone() {
        List<String> mismatches = pair.mismatchesInZones(
                List.of("'UTC'", "'Asia/Kolkata'", "'America/New_York'"),
                List.of(
                        "SELECT make_timestamptz(2024, 1, 2, 3, 4, 5.5) AS a, make_timestamptz(2024, 7, 1, 0, 0, 0) AS b",
                        "SELECT make_timestamptz(2024, 3, 10, 2, 30, 0)",
                        "SELECT id, make_timestamptz(y, 2, 28, 23, 59, s) FROM mt ORDER BY id"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void inANamedZone() {
        List<String> mismatches = pair.mismatches(List.of(
                "SET TIME ZONE 'UTC'",
                "SELECT make_timestamptz(2024, 1, 2, 3, 4, 5.5, 'America/New_York')",
                "SELECT make_timestamptz(2024, 7, 2, 3, 4, 5, 'Europe/Berlin') AS b,"
                        + " make_timestamptz(2024, 3, 10, 2, 30, 0, 'America/New_York') AS gap",
                "SELECT make_timestamptz(2024, 1, 2, 3, 4, 5, '+05') AS a, make_timestamptz(2024, 1, 2, 3, 4, 5, '-3') AS b,"
                        + " make_timestamptz(2024, 1, 2, 3, 4, 5, '+05:30') AS c",
                "SELECT make_timestamptz(2024, 1, 2, 3, 4, 5, 'EST') AS a, make_timestamptz(2024, 1, 2, 3, 4, 5, 'UTC+3') AS b",
                "SELECT id, make_timestamptz(y, 2, 28, 23, 59, s, z) FROM mt ORDER BY id",
                "SELECT make_timestamptz(2024, 1, 2, 3, 4, 5, NULL) AS b",
                "SELECT pg_typeof(make_timestamptz(2024, 1, 2, 3, 4, 5))::text"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void errorsAsPostgres() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT make_timestamptz(2024, 13, 2, 3, 4, 5)",
                "SELECT make_timestamptz(2024, 1, 2, 3, 4, 5, '5')",
                "SELECT make_timestamptz(2024, 1, 2, 3, 4, 5, 'Mars/Olympus')",
                "SELECT make_timestamptz(2024, 1, 2, 3, 4)"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
