package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code setseed(s)} and {@code random()} on Tributary and on an embedded PostgreSQL (issue 12;
 * setseed was 42883): not the numbers, which come from other generators, but what both must show:
 * setseed succeeds (its void prints as empty text) and refuses a seed outside [-1, 1] with 22023;
 * random() is a double precision in [0, 1); after the same seed a session's values repeat, in
 * plain and prepared statements; a prepared statement run again gives the next value.
 */
class SessionRandomDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("session-random-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void setseedAndRandomAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT setseed(0.5)::text = '' AS a, setseed(-1) IS NULL AS b, setseed(1)::text AS c",
                "SELECT setseed(NULL) IS NULL AS a",
                "SELECT setseed(2)",
                "SELECT setseed(-1.5)",
                "SELECT pg_typeof(random())::text AS t, random() >= 0 AS a, random() < 1 AS b",
                // each call is its own value, in a row and from row to row
                "SELECT random() = random() AS a, gen_random_uuid() = gen_random_uuid() AS b",
                "SELECT r1 <> r2 AS a FROM (SELECT random() r1, random() r2) s",
                "SELECT count(DISTINCT r) FROM (SELECT random() r FROM generate_series(1,5)) s"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** A session generator's repeatability after setseed, shown alike by both servers. */
    @Test
    void theSameSeedRepeatsTheSessionsValues() throws SQLException {
        assertEquals(properties(pair.pg), properties(pair.tributary.connection));
    }

    private static List<Object> properties(Connection c) throws SQLException {
        List<Object> seen = new ArrayList<>();
        try (Statement s = c.createStatement();
                PreparedStatement next = c.prepareStatement("SELECT random()")) {
            List<Double> first = afterSeed(s, next, 0.25);
            List<Double> again = afterSeed(s, next, 0.25);
            List<Double> other = afterSeed(s, next, -0.75);
            seen.add(first.equals(again));
            seen.add(first.equals(other));
            seen.add(first.stream().distinct().count());
            seen.add(first.stream().allMatch(v -> v >= 0 && v < 1));
        }
        return seen;
    }

    /** Seeds the session, then reads random() twice as a statement and twice through {@code next}. */
    private static List<Double> afterSeed(Statement s, PreparedStatement next, double seed) throws SQLException {
        s.execute("SELECT setseed(" + seed + ")");
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            try (ResultSet rs = s.executeQuery("SELECT random()")) {
                rs.next();
                values.add(rs.getDouble(1));
            }
        }
        for (int i = 0; i < 2; i++) {
            try (ResultSet rs = next.executeQuery()) {
                rs.next();
                values.add(rs.getDouble(1));
            }
        }
        return values;
    }
}
