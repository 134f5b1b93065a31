package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dates, times, timestamps and timestamptz turned into JSON on Tributary and on an embedded
 * PostgreSQL (issue 12): {@code to_json}, {@code to_jsonb}, the build functions (keys and values)
 * and the json aggregates write PostgreSQL's ISO 8601 text ({@code "2024-01-01T10:00:00.123456"}, a
 * timestamptz with its offset in the session's zone), over constants and stored columns, and a
 * materialized view keeps them right through writes.
 */
class DateTimeJsonDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("datetime-json-diff-");
        List<String> mismatches = pair.mismatches(List.of(
                "SET TIME ZONE 'UTC'",
                "CREATE TABLE tj (id INT PRIMARY KEY, ts TIMESTAMP, tz TIMESTAMPTZ, d DATE, t TIME)",
                "INSERT INTO tj VALUES (1, '2024-01-01 10:00:00.123456', '2024-01-01 10:00:00.5+02', '2024-01-01',"
                        + " '10:00:00.123'), (2, '1960-06-01 00:00:00', '1960-06-01 00:00:00-00', '1582-10-10',"
                        + " '23:59:59'), (3, NULL, NULL, NULL, NULL)"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void constantsAreIsoText() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT to_json(TIMESTAMP '2024-01-01 10:00:00.123456') AS a, to_jsonb(DATE '2024-01-01') AS b,"
                        + " to_json(TIME '10:00:00') AS c, to_jsonb(TIMESTAMPTZ '2024-01-01 10:00:00+02') AS d",
                "SELECT to_json('2024-02-29 23:59:59.5'::timestamp) AS a, to_jsonb('2024-02-29'::date) AS b",
                "SELECT json_build_object('at', TIMESTAMP '2024-01-01 10:00', 'on', DATE '2024-01-01') AS o,"
                        + " jsonb_build_array(TIMESTAMPTZ '2024-01-01 10:00:00.25+00', TIME '12:30') AS a"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void storedColumnsAreIsoText() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT id, to_json(ts) AS a, to_jsonb(tz) AS b, to_json(d) AS c, to_jsonb(t) AS e FROM tj ORDER BY id",
                "SELECT id, json_build_object('ts', ts, 'd', d, 't', t, 'tz', tz) AS o,"
                        + " jsonb_build_object('ts', ts, 'tz', tz) AS b FROM tj ORDER BY id",
                "SELECT id, json_build_array(ts, d) AS a, jsonb_build_array(t, tz) AS b FROM tj ORDER BY id",
                "SELECT id, json_build_object(d, id) AS k, jsonb_build_object(ts, id) AS kb FROM tj WHERE id < 3"
                        + " ORDER BY id",
                "SELECT json_agg(ts ORDER BY id) AS a, jsonb_agg(tz ORDER BY id) AS b FROM tj",
                "SELECT jsonb_object_agg(d, ts) AS o FROM tj WHERE id < 3"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * An interval is its text ({@code "1 day 02:00:00"}), an array of dates, times or timestamps a
     * JSON array of their texts, from stored columns as from constants and in a materialized view
     * (issue 12; these were 0A000).
     */
    @Test
    void intervalsAndDateTimeArrays() {
        pair.both("CREATE TABLE tji (id INT PRIMARY KEY, iv INTERVAL, ds DATE[], ts TIMESTAMP[])");
        List<String> mismatches = pair.mismatches(List.of(
                "INSERT INTO tji VALUES (1, '1 day 02:00:00.5', ARRAY[DATE '2024-01-01', NULL],"
                        + " ARRAY[TIMESTAMP '2024-01-01 10:00:00.123456']), (2, '-1 mon 3 days', NULL, NULL)",
                "INSERT INTO tji VALUES (3, NULL, ARRAY[NULL::date], '{}')",
                "SELECT id, to_json(iv) AS a, to_jsonb(iv) AS b, to_json(ds) AS c, to_jsonb(ts) AS d FROM tji ORDER BY id",
                "SELECT id, json_build_object('iv', iv, 'ds', ds, 'ts', ts) AS o, jsonb_build_array(iv, ds) AS a"
                        + " FROM tji ORDER BY id",
                "SELECT json_agg(iv ORDER BY id) AS a, jsonb_agg(ds ORDER BY id) AS b, jsonb_object_agg(id, iv) AS c"
                        + " FROM tji",
                "SELECT to_json(interval '1 day 2 hours') AS a, to_json(ARRAY[date '2024-02-29', NULL]) AS b,"
                        + " to_json(ARRAY[time '10:00:00.5']) AS c"));
        pair.both("CREATE MATERIALIZED VIEW tji_json AS SELECT id, to_json(iv) AS a, to_jsonb(ds) AS b FROM tji");
        mismatches.addAll(pair.mismatches(List.of("SELECT * FROM tji_json ORDER BY id")));
        pair.both("DROP MATERIALIZED VIEW tji_json");
        pair.both("DROP TABLE tji");
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** A timestamptz's offset is the session zone's, written with its minutes. */
    @Test
    void timestamptzCarriesTheSessionOffset() {
        List<String> mismatches = pair.mismatchesInZones(
                List.of("'UTC'", "'Asia/Kolkata'", "-7"),
                List.of("SELECT id, to_json(tz) AS a, jsonb_build_object('tz', tz) AS b FROM tj ORDER BY id"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void aMaterializedViewKeepsThemThroughWrites() {
        pair.both("CREATE TABLE tjv (id INT PRIMARY KEY, ts TIMESTAMP, tz TIMESTAMPTZ, d DATE, t TIME)");
        List<String> mismatches = pair.viewMismatches(
                List.of(new PostgresPair.FollowedView(
                        "tj_json",
                        "SELECT id, to_json(ts) AS a, jsonb_build_object('d', d, 't', t, 'tz', tz) AS b FROM tjv",
                        "id")),
                List.of(
                        "INSERT INTO tjv VALUES (1, '2024-01-01 10:00:00.123456', NULL, '2024-01-01', '10:00'),"
                                + " (4, '2030-12-31 23:59:59.999999', '2030-12-31 23:59:59.999999+00',"
                                + " '2030-12-31', '00:00:00.001')",
                        "UPDATE tjv SET ts = ts + INTERVAL '1 day', d = d + 1 WHERE id = 1",
                        "DELETE FROM tjv WHERE id = 4"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
        pair.both("DROP MATERIALIZED VIEW tj_json");
        pair.both("DROP TABLE tjv");
    }
}
