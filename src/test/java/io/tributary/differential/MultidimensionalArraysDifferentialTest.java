package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Multidimensional arrays against embedded PostgreSQL: Tributary holds one-dimensional arrays only,
 * so each statement must answer as PostgreSQL does or be 0A000 naming the feature, never a syntax
 * error (42601) or an internal one.
 */
class MultidimensionalArraysDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "SELECT ARRAY[[1, 2], [3, 4]]",
            "SELECT cardinality(ARRAY[[1, 2], [3, 4]])",
            "SELECT array_length(ARRAY[[1, 2], [3, 4]], 2)",
            "SELECT array_upper(ARRAY[[1, 2], [3, 4]], 1), array_lower(ARRAY[[1, 2], [3, 4]], 1)",
            "SELECT array_ndims(ARRAY [ [1, 2], [3, 4] ])");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("mdarrays-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void answersAsPostgresOrNotSupported() {
        List<String> mismatches = new ArrayList<>();
        for (String sql : STATEMENTS) {
            String[] outcome = pair.both(sql);
            if (!outcome[0].equals(outcome[1]) && !outcome[1].startsWith("ERROR 0A000")) {
                mismatches.add(sql + "\n  postgres:  " + outcome[0] + "\n  tributary: " + outcome[1]);
            }
        }
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
