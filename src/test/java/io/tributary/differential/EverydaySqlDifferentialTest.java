package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Everyday SQL that once answered wrongly or failed inside Tributary, against embedded PostgreSQL:
 * {@code ||} between an array and an element or array of another numeric type (PostgreSQL's common
 * type, never a truncation). Compared exactly: rows with labels and type names, or SQLSTATE,
 * message, HINT and position.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EverydaySqlDifferentialTest {
    private static final String SETUP = "CREATE TABLE a (id INT PRIMARY KEY, ia INT[], ba BIGINT[], na NUMERIC[],"
            + " x INT, b BIGINT, n NUMERIC);"
            + "INSERT INTO a VALUES (1, ARRAY[1,2], ARRAY[10,20], ARRAY[1.5,2.5], 3, 40, 0.25),"
            + " (2, NULL, NULL, NULL, NULL, NULL, NULL),"
            + " (3, ARRAY[5,NULL], ARRAY[8,7], ARRAY[0.5,NULL], -1, -2, -3.5)";

    private static final List<String> ARRAY_CONCATENATIONS = List.of(
            "SELECT ARRAY[1,2] || 1.5 AS c",
            "SELECT 1.5 || ARRAY[1,2] AS c",
            "SELECT ARRAY[1,2] || 5000000000 AS c, 5000000000 || ARRAY[1,2] AS d",
            "SELECT ARRAY[1,2] || ARRAY[1.5] AS c, ARRAY[2.5] || ARRAY[1,2] AS d",
            "SELECT ARRAY[1,2] || ARRAY[5000000000] AS c",
            "SELECT ARRAY[1.5] || 2 AS c, 2 || ARRAY[1.5] AS d",
            "SELECT id, ia || n AS c, n || ia AS d FROM a ORDER BY id",
            "SELECT id, ia || b AS c, b || ia AS d FROM a ORDER BY id",
            "SELECT id, ba || x AS c, x || ba AS d FROM a ORDER BY id",
            "SELECT id, ia || na AS c, na || ia AS d FROM a ORDER BY id",
            "SELECT id, ia || ba AS c, ba || ia AS d FROM a ORDER BY id",
            "SELECT id, na || x AS c, x || na AS d, na || b AS e FROM a ORDER BY id",
            "SELECT id, ia || 1.5 AS c, 2.5 || ia AS d FROM a ORDER BY id",
            "SELECT id, ia || x AS c, ia || ia AS d FROM a ORDER BY id",
            "SELECT a.id, a.ia || b.ia AS c, a.na || b.ba AS d FROM a, a AS b WHERE b.id = 2 ORDER BY a.id",
            "SELECT 2.5::float8 || ia AS c, ba || 1.5::real AS d FROM a ORDER BY id");

    private static final ComparedOutcomes OUTCOMES = new ComparedOutcomes(false, true, true);

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("everyday-diff-", 20, "postgres", "", 60);
        InProcessTributary.execScript(pg, SETUP);
        InProcessTributary.execScript(tributary.connection, SETUP);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void arrayConcatenationTakesTheCommonNumericType() {
        assertEquals(List.of(), OUTCOMES.mismatches(pg, tributary.connection, ARRAY_CONCATENATIONS));
    }
}
