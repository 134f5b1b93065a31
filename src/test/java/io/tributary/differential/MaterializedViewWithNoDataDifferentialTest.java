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
 * WITH DATA} is the default spelled out; a dump's order (views over unpopulated views {@code WITH NO
 * DATA}, then the rows, then {@code ADD PRIMARY KEY} on the tables they read, then the REFRESHes in
 * dependency order) restores, and refreshing out of order fails as PostgreSQL's. Each outcome (rows with labels and types, or SQLSTATE) must
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
            "ALTER MATERIALIZED VIEW nd_cte RENAME TO nd_cte2",
            "SELECT * FROM nd_cte2",
            "ALTER MATERIALIZED VIEW nd_cte2 RENAME TO nd_cte",
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
            "SELECT count(*) FROM pg_matviews WHERE matviewname LIKE 'nd%'",
            // pg_dump's order: tables, every view WITH NO DATA (views over views too), rows, keys, REFRESHes
            "CREATE TABLE nk (id INT NOT NULL, g INT, v INT)",
            "CREATE MATERIALIZED VIEW nk_g AS SELECT g, count(*) AS n, sum(v) AS s FROM nk GROUP BY g WITH NO DATA",
            "CREATE MATERIALIZED VIEW nk_big AS SELECT g, n FROM nk_g WHERE n > 1 WITH NO DATA",
            "CREATE MATERIALIZED VIEW nk_now AS SELECT g FROM nk_g",
            "SELECT * FROM nk_big",
            "INSERT INTO nk VALUES (1, 1, 10), (2, 1, 20), (3, 2, 5), (4, 3, 1), (5, 3, 2)",
            "ALTER TABLE ONLY nk ADD CONSTRAINT nk_pkey PRIMARY KEY (id)",
            "REFRESH MATERIALIZED VIEW nk_big",
            "REFRESH MATERIALIZED VIEW CONCURRENTLY nk_g",
            "REFRESH MATERIALIZED VIEW nk_g",
            "REFRESH MATERIALIZED VIEW nk_big",
            "SELECT * FROM nk_g ORDER BY g",
            "SELECT * FROM nk_big ORDER BY g",
            "SELECT matviewname, ispopulated FROM pg_matviews WHERE matviewname LIKE 'nk%' ORDER BY 1",
            "INSERT INTO nk VALUES (1, 2, 2)",
            "DROP TABLE nk",
            "CREATE MATERIALIZED VIEW nk_later AS SELECT id FROM nk WHERE v > 1 WITH NO DATA",
            "DROP MATERIALIZED VIEW nk_later",
            "SELECT * FROM nk_later",
            "DROP TABLE nk CASCADE",
            "SELECT count(*) FROM pg_matviews WHERE matviewname LIKE 'nk%'");

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
