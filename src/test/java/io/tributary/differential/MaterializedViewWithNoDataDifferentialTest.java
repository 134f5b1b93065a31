package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code CREATE MATERIALIZED VIEW ... WITH NO DATA}, which pg_dump writes for every materialized
 * view, and the {@code REFRESH MATERIALIZED VIEW} that populates it: until the refresh, reading the
 * view fails with PostgreSQL's 55000; rows written meanwhile are in it after the refresh; {@code
 * WITH DATA} is the default spelled out. Each outcome (rows with labels and types, or SQLSTATE) must
 * match an embedded PostgreSQL's. (After the refresh a Tributary view stays current, where
 * PostgreSQL's would wait for the next refresh, so nothing is written after it here.)
 */
class MaterializedViewWithNoDataDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE nd (id INT PRIMARY KEY, g INT, v INT)",
            "INSERT INTO nd VALUES (1, 1, 10), (2, 1, 20), (3, 2, 5)",
            "CREATE MATERIALIZED VIEW nd_sum AS SELECT g, sum(v) AS s, count(*) AS n FROM nd GROUP BY g WITH NO DATA",
            "SELECT * FROM nd_sum",
            "SELECT count(*) FROM nd_sum WHERE g = 1",
            "SELECT matviewname, ispopulated FROM pg_matviews WHERE matviewname = 'nd_sum'",
            "SELECT relname, relispopulated FROM pg_class WHERE relname IN ('nd', 'nd_sum') ORDER BY 1",
            "INSERT INTO nd VALUES (4, 2, 7), (5, 3, NULL)",
            "UPDATE nd SET v = 11 WHERE id = 1",
            "DELETE FROM nd WHERE id = 2",
            "REFRESH MATERIALIZED VIEW nd_sum",
            "SELECT * FROM nd_sum ORDER BY g",
            "SELECT matviewname, ispopulated FROM pg_matviews WHERE matviewname = 'nd_sum'",
            "REFRESH MATERIALIZED VIEW nd_sum",
            "SELECT * FROM nd_sum ORDER BY g",
            "CREATE MATERIALIZED VIEW nd_cte AS\n WITH x AS (SELECT g, v FROM nd WHERE v > 6) SELECT g, v FROM x\n  WITH NO DATA;",
            "SELECT * FROM nd_cte",
            "REFRESH MATERIALIZED VIEW nd_cte WITH DATA",
            "SELECT * FROM nd_cte ORDER BY g, v",
            "CREATE MATERIALIZED VIEW nd_with AS SELECT id FROM nd WITH DATA",
            "SELECT * FROM nd_with ORDER BY id",
            "CREATE MATERIALIZED VIEW IF NOT EXISTS nd_with AS SELECT id FROM nd WITH NO DATA",
            "SELECT * FROM nd_with ORDER BY id",
            "CREATE MATERIALIZED VIEW nd_bad AS SELECT nope FROM nd WITH NO DATA",
            "SELECT * FROM nd_bad",
            "REFRESH MATERIALIZED VIEW nd_missing",
            "DROP MATERIALIZED VIEW nd_cte",
            "SELECT count(*) FROM pg_matviews WHERE matviewname LIKE 'nd%'");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("nodata-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void withNoDataAndRefreshAnswerAsPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS));
    }
}
