package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's two-argument statistics aggregates ({@code corr}, {@code covar_pop}, {@code
 * covar_samp}, {@code regr_*}) against embedded PostgreSQL: double precision results in its text
 * format, its NULL rules (no pair, fewer than two pairs, a vertical or horizontal line), rows with
 * a NULL argument skipped, integer and numeric arguments, FILTER, GROUP BY and OVER. Each statement's
 * rows (labels and JDBC types) or SQLSTATE must match. The sums are of doubles, so their last
 * digits depend on the order rows are added in, which is PostgreSQL's heap order there and the
 * key order here: each aggregated set of rows is one whose results are the same in every order.
 */
class StatisticsAggregatesDifferentialTest {
    private static final String ALL = "corr(y, x), covar_pop(y, x), covar_samp(y, x), regr_slope(y, x),"
            + " regr_intercept(y, x), regr_count(y, x), regr_r2(y, x), regr_avgx(y, x), regr_avgy(y, x),"
            + " regr_sxx(y, x), regr_syy(y, x), regr_sxy(y, x)";

    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE st (id INT PRIMARY KEY, g INT, x FLOAT8, y FLOAT8, i INT, j INT, n NUMERIC(6,2))",
            "INSERT INTO st VALUES (1, 1, 1, 2, 1, 2, 0.5), (2, 1, 2, 4.5, 2, 5, 1.25), (3, 1, 3, 5.5, 3, 7, 2),"
                    + " (4, 2, 1, 1, 1, 1, 1), (5, 3, NULL, 2, NULL, 2, NULL), (6, 3, 2, 2, 2, 2, 3),"
                    + " (7, 3, 3, 2, 3, 2, 3), (8, 4, 0.5, 1, 7, NULL, 0.1), (9, 4, 0.5, 3, 8, 9, 0.1),"
                    + " (11, 5, 1e300, 1e300, 1, 1, 1), (12, 5, 1e300, -1e300, 2, 2, 2)",
            "SELECT g, " + ALL + " FROM st WHERE g < 5 GROUP BY g ORDER BY g",
            "SELECT " + ALL + " FROM st WHERE g = 1",
            "SELECT " + ALL + " FROM st WHERE false",
            "SELECT corr(j, i), covar_pop(j, i), covar_samp(j, i), regr_slope(j, i), regr_intercept(j, i),"
                    + " regr_r2(j, i), regr_sxy(n, i), regr_avgx(n, j) FROM st WHERE g = 1",
            "SELECT g, corr(y, x) FILTER (WHERE id <> 2) AS c, regr_count(y, x) FILTER (WHERE x > 1) AS rc"
                    + " FROM st WHERE g < 5 GROUP BY g ORDER BY g",
            "SELECT covar_samp(y, x), regr_sxx(y, x), regr_avgy(y, x) FROM st WHERE g = 2",
            "SELECT regr_slope(y, x), corr(y, x) FROM st WHERE g = 5",
            "SELECT corr(1, 2), regr_avgx(1.5, 2), covar_pop(NULL, 1)",
            "SELECT corr('a', x) FROM st",
            "SELECT id, corr(y, x) OVER (ORDER BY id) FROM st WHERE g < 3 ORDER BY id");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("statsagg-diff-");
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
