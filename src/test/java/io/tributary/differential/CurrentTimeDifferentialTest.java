package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code now()}, {@code current_timestamp}, {@code transaction_timestamp()}, {@code
 * statement_timestamp()} and {@code clock_timestamp()} on Tributary and on an embedded PostgreSQL:
 * their types (pg_typeof, and JDBC column types and labels of an empty result), the values that
 * compare deterministically (equal to each other, transaction start kept across a block's
 * statements, in DEFAULTs and INSERTs into timestamp and timestamptz columns, arithmetic, casts,
 * date_trunc, extract, age) and the offset their text carries in several session zones. Rows with
 * labels and JDBC types, or SQLSTATEs, must match.
 */
class CurrentTimeDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("current-time-diff-");
        List<String> mismatches = pair.mismatches(List.of(
                "SET TIME ZONE 'UTC'",
                "CREATE TABLE ct (id INT PRIMARY KEY, ts TIMESTAMP, tz TIMESTAMPTZ,"
                        + " d TIMESTAMP DEFAULT now(), dz TIMESTAMPTZ DEFAULT current_timestamp)"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void typesAndLabelsAreTimestamptz() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT pg_typeof(now())::text AS a, pg_typeof(current_timestamp)::text AS b,"
                        + " pg_typeof(transaction_timestamp())::text AS c, pg_typeof(statement_timestamp())::text AS d,"
                        + " pg_typeof(clock_timestamp())::text AS e, pg_typeof(localtimestamp)::text AS f,"
                        + " pg_typeof(current_date)::text AS g, pg_typeof(now() - INTERVAL '1 hour')::text AS h,"
                        + " pg_typeof(now()::date)::text AS i, pg_typeof(date_trunc('day', now()))::text AS j",
                "SELECT now(), current_timestamp, transaction_timestamp(), statement_timestamp(),"
                        + " clock_timestamp() FROM ct WHERE false"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void valuesCompareAsPostgres() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT now() = current_timestamp AS a, now() = transaction_timestamp() AS b,"
                        + " now() <= statement_timestamp() AS c, statement_timestamp() <= clock_timestamp() AS d,"
                        + " now()::date = current_date AS e, now() > TIMESTAMPTZ '2024-01-01 00:00+00' AS f,"
                        + " now() > TIMESTAMP '2024-01-01 00:00' AS g, now() < TIMESTAMP '2999-01-01' AS h",
                "SELECT now() - INTERVAL '1 hour' < now() AS a, date_trunc('day', now()) <= now() AS b,"
                        + " extract(year FROM now()) >= 2024 AS c, age(now(), TIMESTAMP '2020-01-01') > INTERVAL '1 year' AS d,"
                        + " now()::timestamp > TIMESTAMP '2024-01-01' AS e"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** One transaction start for every statement of a block: INSERTed and DEFAULT values equal a later now(). */
    @Test
    void transactionStartHoldsAcrossABlock() {
        List<String> mismatches = pair.mismatches(List.of(
                "BEGIN",
                "INSERT INTO ct (id, ts, tz) VALUES (1, now(), current_timestamp)",
                "INSERT INTO ct (id, ts, tz) VALUES (2, TIMESTAMP '2024-01-01 10:00', TIMESTAMPTZ '2024-01-01 10:00+00')",
                "SELECT pg_sleep(0.01)",
                "SELECT id, ts = now()::timestamp AS a, tz = now() AS b, d = now()::timestamp AS c,"
                        + " dz = transaction_timestamp() AS e, ts < now() AS f, tz < now() AS g FROM ct ORDER BY id",
                "SELECT now() = transaction_timestamp() AS a, now() < statement_timestamp() AS b",
                "COMMIT",
                "SELECT id, d < now() AS a, dz < now() AS b FROM ct ORDER BY id",
                "SELECT count(*) AS n FROM ct WHERE ts > now() - INTERVAL '1 day' AND tz <= now()"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * A statement run again reads the clock again: its plan (cached, or prepared) must not hold the
     * now() of its first run. Each count is of the rows written less than a second before it.
     */
    @Test
    void aRepeatedStatementReadsTheClockAgain() {
        String recent = "SELECT count(*) AS n FROM rc WHERE ts > now() - INTERVAL '1 second'";
        List<String> mismatches = pair.mismatches(List.of(
                "CREATE TABLE rc (id INT PRIMARY KEY, ts TIMESTAMP)",
                "INSERT INTO rc VALUES (1, now())",
                recent,
                "SELECT pg_sleep(1.2)",
                "INSERT INTO rc VALUES (2, now())",
                recent,
                "SELECT pg_sleep(1.2)",
                recent,
                "DROP TABLE rc"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** timeofday() is text in PostgreSQL's layout, in the session's zone, and reads back as a timestamptz. */
    @Test
    void timeOfDayIsPostgresText() {
        List<String> mismatches = pair.mismatchesInZones(
                List.of("'UTC'", "'Asia/Kolkata'"),
                List.of(
                        "SELECT pg_typeof(timeofday())::text AS t, timeofday() ~"
                                + " '^[A-Z][a-z]{2} [A-Z][a-z]{2} [0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{6} [0-9]{4} (UTC|IST)$'"
                                + " AS shaped, right(timeofday(), 3) AS zone",
                        "SELECT timeofday() FROM ct WHERE false"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** The text of now() carries the session zone's offset, as PostgreSQL prints it. */
    @Test
    void textCarriesTheSessionOffset() {
        List<String> mismatches = pair.mismatchesInZones(
                List.of("'UTC'", "'Asia/Kolkata'", "-7"),
                List.of("SELECT now()::text LIKE '%+00' AS u, now()::text LIKE '%+05:30' AS k,"
                        + " now()::text LIKE '%-07' AS m, current_timestamp::text LIKE '%+05:30' AS c,"
                        + " now()::timestamp::text LIKE '%+%' AS t"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
