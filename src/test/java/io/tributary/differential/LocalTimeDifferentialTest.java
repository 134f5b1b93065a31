package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code localtimestamp} and {@code localtime} on Tributary and on an embedded PostgreSQL (issue
 * 12): both are the statement's {@code now()} (the transaction's start) as local time in the
 * session's zone, with their precisions, in DEFAULTs, inside a block and in several zones; their
 * types and labels. Rows with labels and JDBC types, or SQLSTATEs, must match.
 */
class LocalTimeDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("local-time-diff-");
        List<String> mismatches = pair.mismatches(List.of(
                "SET TIME ZONE 'UTC'",
                "CREATE TABLE lt (id INT PRIMARY KEY, ts TIMESTAMP DEFAULT localtimestamp, t TIME DEFAULT localtime)"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void typesAndLabels() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT pg_typeof(localtimestamp)::text AS a, pg_typeof(localtime)::text AS b,"
                        + " pg_typeof(localtimestamp(2))::text AS c, pg_typeof(localtime(6))::text AS d",
                "SELECT localtimestamp, localtime, localtimestamp(3), LOCALTIMESTAMP AS x FROM lt WHERE false"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** The statement's now(), read in the session's zone, in every zone. */
    @Test
    void theyAreNowInTheSessionZone() {
        List<String> mismatches = pair.mismatchesInZones(
                List.of("'UTC'", "'Asia/Kolkata'", "-7", "'America/New_York'"),
                List.of(
                        "SELECT localtimestamp = now()::timestamp AS a, localtime = now()::time AS b,"
                                + " localtimestamp::date = current_date AS c, localtimestamp(6) = now()::timestamp AS d",
                        "SELECT localtimestamp(2) = now()::timestamp(2) AS a, localtimestamp(0) = now()::timestamp(0) AS b,"
                                + " localtimestamp(9) = localtimestamp AS c"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** One transaction start for a block's statements, DEFAULTs included. */
    @Test
    void theTransactionStartHoldsAcrossABlock() {
        List<String> mismatches = pair.mismatches(List.of(
                "BEGIN",
                "INSERT INTO lt (id) VALUES (1)",
                "SELECT pg_sleep(0.02)",
                "SELECT id, ts = localtimestamp AS a, ts = now()::timestamp AS b, localtimestamp < clock_timestamp()::timestamp"
                        + " AS c FROM lt",
                "SELECT localtimestamp = transaction_timestamp()::timestamp AS a,"
                        + " localtimestamp < statement_timestamp()::timestamp AS b",
                "COMMIT",
                "SELECT count(*) AS n FROM lt WHERE ts <= localtimestamp AND ts > localtimestamp - INTERVAL '1 hour'",
                "DELETE FROM lt"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
