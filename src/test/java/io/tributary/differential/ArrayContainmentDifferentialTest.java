package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The array operators {@code @>}, {@code <@} and {@code &&} against an embedded PostgreSQL, over
 * element types whose equality is not their Java value's: float8 NaN (equal to itself in arrays;
 * Tributary's numeric has no NaN), numerics of different scales, and date, timestamp and timestamptz arrays against array text, which PostgreSQL reads
 * as the other operand's type; text and int arrays alongside.
 */
class ArrayContainmentDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE ac (id INT PRIMARY KEY, f FLOAT8[], d DATE[], ts TIMESTAMP[], tz TIMESTAMPTZ[], t TEXT[],"
                    + " i INT[])",
            "INSERT INTO ac VALUES (1, '{1.5,NaN}', '{2024-01-01,2024-03-31}', '{\"2024-01-01 10:00:00\"}',"
                    + " '{\"2024-01-01 10:00:00+00\"}', '{a,b}', '{1,2}'),"
                    + " (2, '{2.5}', '{2023-12-31}', '{\"2024-01-01 10:00:01\"}', '{\"2024-01-01 11:00:00+00\"}',"
                    + " '{c}', '{3}')",
            "SELECT ARRAY[1.5, 'NaN'::float8] @> ARRAY['NaN'::float8] AS a, ARRAY['NaN'::float8] <@ ARRAY[1.5::float8] AS b,"
                    + " ARRAY['NaN'::float8] && ARRAY['NaN'::float8, 2] AS c",
            "SELECT ARRAY[1.0, 2] @> ARRAY[1.00] AS b",
            "SELECT ARRAY[DATE '2024-01-01'] @> '{2024-01-01}' AS a, '{2024-01-02}' <@ ARRAY[DATE '2024-01-01'] AS b,"
                    + " ARRAY[DATE '2024-01-01', DATE '2024-01-05'] && '{2024-01-05}' AS c",
            "SELECT ARRAY[TIMESTAMP '2024-01-01 10:00:00'] @> '{\"2024-01-01 10:00:00\"}' AS a,"
                    + " ARRAY[TIMESTAMP '2024-01-01 10:00:00'] @> '{\"2024-01-01 10:00:00.5\"}' AS b",
            "SELECT ARRAY[TIMESTAMPTZ '2024-01-01 10:00:00+00'] @> '{\"2024-01-01 11:00:00+01\"}' AS a,"
                    + " ARRAY[TIMESTAMPTZ '2024-01-01 10:00:00+00'] && '{\"2024-01-01 10:00:00+01\"}' AS b",
            "SELECT ARRAY[1.5, 2] @> '{1.50}' AS a, ARRAY[1.5, 2] @> '{1.55}' AS b, ARRAY[1.5, 2] && '{2.0,NULL}' AS c",
            "SELECT ARRAY['a', 'b'] @> '{b}' AS a, ARRAY[1, 2] @> '{2,1}' AS b, ARRAY[1, 2] && '{3}' AS c",
            "SELECT id FROM ac WHERE f @> ARRAY['NaN'::float8] ORDER BY id",
            "SELECT id FROM ac WHERE f @> '{NaN}' ORDER BY id",
            "SELECT id FROM ac WHERE f && ARRAY['NaN'::float8, 2.5] ORDER BY id",
            "SELECT id FROM ac WHERE d @> '{2024-03-31}' ORDER BY id",
            "SELECT id FROM ac WHERE d && ARRAY[DATE '2023-12-31'] ORDER BY id",
            "SELECT id FROM ac WHERE d <@ '{2023-12-31,2024-01-01}' ORDER BY id",
            "SELECT id FROM ac WHERE ts @> '{\"2024-01-01 10:00:00\"}' ORDER BY id",
            "SELECT id FROM ac WHERE ts && ARRAY[TIMESTAMP '2024-01-01 10:00:01'] ORDER BY id",
            "SELECT id FROM ac WHERE tz @> '{\"2024-01-01 12:00:00+01\"}' ORDER BY id",
            "SELECT id FROM ac WHERE t @> '{a}' ORDER BY id",
            "SELECT id FROM ac WHERE i <@ '{1,2,3}' ORDER BY id",
            "SET TIME ZONE 'America/New_York'",
            "SELECT id FROM ac WHERE tz @> '{\"2024-01-01 06:00:00\"}' ORDER BY id",
            "SELECT ARRAY[TIMESTAMPTZ '2024-01-01 10:00:00+00'] @> '{\"2024-01-01 05:00:00\"}' AS a",
            "SET TIME ZONE 'UTC'");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("array-containment-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void containmentAnswersAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
