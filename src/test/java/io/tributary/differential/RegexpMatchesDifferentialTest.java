package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The set-returning {@code regexp_matches(s, pattern [, flags])} in a select list and in FROM, with
 * and without the flag {@code g}, over constants and a table's columns, and its 42883 for
 * arguments that are not text: each statement's rows (labels and JDBC types) or SQLSTATE must
 * match an embedded PostgreSQL's.
 */
class RegexpMatchesDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE rms (id INT PRIMARY KEY, s TEXT)",
            "INSERT INTO rms VALUES (1, 'a1b22c333'), (2, 'none'), (3, NULL), (4, 'x9')",
            "SELECT regexp_matches('abcabc', 'b(c)', 'g')",
            "SELECT regexp_matches('abcabc', 'b(c)')",
            "SELECT * FROM regexp_matches('abcabc', 'b(c)', 'g')",
            "SELECT * FROM regexp_matches('foobarbequebaz', '(bar)(beque)')",
            "SELECT m FROM regexp_matches('a1b2', '[0-9]', 'g') AS m",
            "SELECT regexp_matches('ABab', 'a', 'gi')",
            "SELECT regexp_matches('abc', 'z')",
            "SELECT regexp_matches('abc', '(x)?b')",
            "SELECT id, regexp_matches(s, '[0-9]+', 'g') FROM rms ORDER BY id, 2",
            "SELECT id, (regexp_matches(s, '([a-z])([0-9]+)', 'g'))[2] AS d FROM rms ORDER BY id, d",
            "SELECT r.id, m FROM rms r, regexp_matches(r.s, '[0-9]+') m ORDER BY r.id",
            "SELECT regexp_matches(1, 2)",
            "SELECT regexp_matches(1, 'a')",
            "SELECT regexp_matches('abc', 'b', 'z')",
            "SELECT regexp_matches('abc', '(')");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("regexpmatches-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void answersAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
