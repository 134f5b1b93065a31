package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Timestamp and timestamptz array constants keep their microseconds against an embedded
 * PostgreSQL, both where a condition is folded and pushed into the table scan's filters ({@code
 * WHERE ts @> ARRAY[...]}) and in a select list, over values that differ only in their last
 * microsecond; array text beside such an array ({@code ts @> '{"..."}'}) reads its elements as
 * PostgreSQL's timestamp (and date) input.
 */
class TimestampArrayConstantsDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "SET TIME ZONE 'UTC'",
            "CREATE TABLE tac (id INT PRIMARY KEY, ts TIMESTAMP[], tz TIMESTAMPTZ[])",
            "INSERT INTO tac VALUES (1, '{\"2024-01-01 10:00:00.123456\"}', '{\"2024-01-01 10:00:00.123456+00\"}'),"
                    + " (2, '{\"2024-01-01 10:00:00.123455\"}', '{\"2024-01-01 10:00:00.123457+00\"}'),"
                    + " (3, '{\"2024-01-01 10:00:01\",\"2024-01-01 10:00:00.5\"}', '{\"2024-01-01 10:00:01+00\"}')",
            "SELECT id FROM tac WHERE ts @> ARRAY[TIMESTAMP '2024-01-01 10:00:00.123456'] ORDER BY id",
            "SELECT id FROM tac WHERE ts && ARRAY[TIMESTAMP '2024-01-01 10:00:00.123455',"
                    + " TIMESTAMP '2024-01-01 10:00:00.5'] ORDER BY id",
            "SELECT id FROM tac WHERE ts = ARRAY[TIMESTAMP '2024-01-01 10:00:00.123455'] ORDER BY id",
            "SELECT id FROM tac WHERE ts <@ ARRAY[TIMESTAMP '2024-01-01 10:00:00.123456',"
                    + " TIMESTAMP '2024-01-01 10:00:01', TIMESTAMP '2024-01-01 10:00:00.5'] ORDER BY id",
            "SELECT id FROM tac WHERE ts @> ARRAY[TIMESTAMP '2024-01-01 10:00:00.123456' + INTERVAL '1 day'"
                    + " - INTERVAL '24 hours'] ORDER BY id",
            "SELECT id FROM tac WHERE tz @> ARRAY[TIMESTAMPTZ '2024-01-01 11:00:00.123457+01'] ORDER BY id",
            "SELECT id, ts @> ARRAY[TIMESTAMP '2024-01-01 10:00:00.123456'] AS a,"
                    + " tz && ARRAY[TIMESTAMPTZ '2024-01-01 10:00:00.123456+00'] AS b FROM tac ORDER BY id",
            "SELECT id FROM tac WHERE ts[1] = ANY (ARRAY[TIMESTAMP '2024-01-01 10:00:00.123455']) ORDER BY id",
            "SELECT id FROM tac WHERE (ts[1], id) = (TIMESTAMP '2024-01-01 10:00:00.123456', 1) ORDER BY id",
            "SELECT ARRAY[TIMESTAMP '2024-01-01 10:00:00.123456' + INTERVAL '1 day'] AS a",
            // array text beside a timestamp array: its elements read as PostgreSQL's timestamp input
            "SELECT id FROM tac WHERE ts @> '{\"2024-01-01 10:00:00.123456\"}' ORDER BY id",
            "SELECT id FROM tac WHERE ts && '{\"2024-01-01 10:00:00.123455\",\"2024-01-01 10:00:00.5\"}' ORDER BY id",
            "SELECT id, ts <@ '{\"2024-01-01 10:00:00.123456\",\"2024-01-01 10:00:01\"}' AS a FROM tac ORDER BY id",
            "SELECT ARRAY[TIMESTAMP '2024-01-01 10:00:00.5'] @> '{\"2024-01-01 10:00:00.5\"}' AS a,"
                    + " ARRAY[DATE '2024-01-01'] @> '{20240101}' AS b",
            "SELECT id FROM tac WHERE tz @> '{\"2024-01-01 11:00:00.123457+01\"}' ORDER BY id");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("timestamp-array-constants-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void timestampArrayConstantsAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
