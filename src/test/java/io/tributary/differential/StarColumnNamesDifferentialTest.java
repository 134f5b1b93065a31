package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A {@code *} over a join (or over derived tables) whose relations share column names: PostgreSQL
 * names each column by its own name ({@code id | v | id | v}), where Calcite numbers the later ones
 * apart ({@code id0}); a table column or alias that really is {@code id0} keeps its name; a
 * materialized or plain view of such a query is 42701. Run in order on Tributary and on an embedded
 * PostgreSQL: each statement's rows (labels and JDBC types) or SQLSTATE must match.
 */
class StarColumnNamesDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE sj1 (id INT, v TEXT)",
            "CREATE TABLE sj2 (id INT, v TEXT)",
            "CREATE TABLE sj3 (id INT, id0 INT, v TEXT)",
            "INSERT INTO sj1 VALUES (1, 'a'), (2, 'b')",
            "INSERT INTO sj2 VALUES (1, 'x')",
            "INSERT INTO sj3 VALUES (1, 2, 'q')",
            "SELECT * FROM sj1 JOIN sj2 ON sj1.id = sj2.id",
            "SELECT * FROM sj1 JOIN sj2 USING (id)",
            "SELECT * FROM sj1 LEFT JOIN sj2 ON sj1.id = sj2.id ORDER BY 1",
            "SELECT sj1.*, sj2.* FROM sj1, sj2 WHERE sj1.id = sj2.id",
            "SELECT * FROM sj1 a, sj1 b, sj1 c WHERE a.id = 1 AND b.id = 1 AND c.id = 2",
            "SELECT * FROM sj3",
            "SELECT * FROM sj3 a JOIN sj3 b ON a.id = b.id",
            "SELECT a.*, b.* FROM sj3 a, sj3 b",
            "SELECT * FROM (SELECT 1 AS x) a, (SELECT 2 AS x) b",
            "SELECT * FROM (SELECT 1 AS x) a, (SELECT 2 AS x1) b",
            "SELECT * FROM (SELECT v AS x FROM sj3) a, (SELECT v AS x FROM sj3) b",
            "SELECT * FROM sj1 JOIN (SELECT v AS v0, id FROM sj2) s ON s.id = sj1.id",
            "SELECT *, 1 AS id FROM sj1 ORDER BY 1",
            "CREATE MATERIALIZED VIEW sjm AS SELECT * FROM sj1 JOIN sj2 ON sj1.id = sj2.id",
            "CREATE VIEW sjv AS SELECT * FROM sj3 a JOIN sj3 b USING (id)",
            "CREATE MATERIALIZED VIEW sjm2 AS SELECT * FROM sj3 JOIN (SELECT id AS k FROM sj1) s ON s.k = sj3.id",
            "SELECT * FROM sjm2",
            "DROP MATERIALIZED VIEW sjm2");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("star-names-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void namesColumnsAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
