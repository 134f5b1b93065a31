package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code FILTER (WHERE ...)} on an aggregate used as a window function, against embedded
 * PostgreSQL: {@code count(*)}, {@code count(x)}, {@code sum}, {@code avg}, {@code max} and a
 * two-argument statistics aggregate under running and partitioned windows. Each statement's rows
 * (labels and JDBC types) or SQLSTATE must match.
 */
class WindowFilterDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE wf (id INT PRIMARY KEY, g INT, x INT, y FLOAT8)",
            "INSERT INTO wf VALUES (1, 1, 5, 1), (2, 1, NULL, 2), (3, 1, 2, 4), (4, 2, 7, 1), (5, 2, 1, NULL),"
                    + " (6, 2, 9, 3)",
            "SELECT id, count(*) FILTER (WHERE x > 1) OVER (ORDER BY id) FROM wf ORDER BY id",
            "SELECT id, count(x) FILTER (WHERE id <> 3) OVER (PARTITION BY g) AS c,"
                    + " sum(x) FILTER (WHERE x < 9) OVER (PARTITION BY g ORDER BY id) AS s,"
                    + " avg(x) FILTER (WHERE g = 1) OVER () AS a, max(y) FILTER (WHERE x IS NOT NULL) OVER w AS m"
                    + " FROM wf WINDOW w AS (ORDER BY id DESC) ORDER BY id",
            "SELECT id, corr(y, x) FILTER (WHERE id > 1) OVER (ORDER BY id) FROM wf ORDER BY id",
            "SELECT id, count(*) FILTER (WHERE false) OVER (PARTITION BY g) FROM wf ORDER BY id");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("windowfilter-diff-");
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
