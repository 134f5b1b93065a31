package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code -0} and {@code 0} of float8 and real are one key, as in PostgreSQL: one group of a GROUP BY
 * or DISTINCT, one value of {@code count(DISTINCT x)}, equal join keys, a duplicate primary key
 * (23505), in queries and in materialized views kept through inserts, updates and deletes. A group
 * key is shown as {@code abs(x)} ({@code 0} for either zero): PostgreSQL prints the first value of
 * the group it met, which depends on its plan, and a query here prints {@code 0} (README). ({@code
 * x + 0} would do in PostgreSQL, but Calcite simplifies it to {@code x}, which keeps {@code -0}.)
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SignedZeroKeysDifferentialTest {
    private static final String SETUP = "CREATE TABLE z (id INT PRIMARY KEY, g INT, x FLOAT8, r REAL);"
            + "INSERT INTO z VALUES (1, 1, -0.0::float8, -0.0::real), (2, 1, 0.0, 0.0), (3, 2, 1.5, 1.5),"
            + " (4, 2, '-0', '-0'), (5, 1, NULL, NULL), (6, 2, 0, 0)";

    private static final List<String> QUERIES = List.of(
            "SELECT abs(x) AS k, count(*) AS c, sum(id) AS s FROM z GROUP BY x ORDER BY 1",
            "SELECT abs(r) AS k, count(*) AS c FROM z GROUP BY r ORDER BY 1",
            "SELECT g, abs(x) AS k, count(*) AS c FROM z GROUP BY g, x ORDER BY 1, 2",
            "SELECT count(*) FROM (SELECT DISTINCT x FROM z) d",
            "SELECT count(*) FROM (SELECT DISTINCT r, g FROM z) d",
            "SELECT count(DISTINCT x) AS dx, count(DISTINCT r) AS dr, count(*) AS c FROM z",
            "SELECT g, count(DISTINCT x) AS dx FROM z GROUP BY g ORDER BY g",
            "SELECT a.id, b.id FROM z a JOIN z b ON a.x = b.x ORDER BY 1, 2",
            "SELECT a.id, b.id FROM z a JOIN z b ON a.r = b.r AND a.g = b.g ORDER BY 1, 2",
            "SELECT a.id, b.id FROM z a LEFT JOIN z b ON a.x = b.x AND a.id < b.id ORDER BY 1, 2",
            "SELECT -0.0::float8 = 0.0::float8 AS e, x FROM z WHERE x = -0.0::float8 ORDER BY id");

    private static final String[] VIEWS = {
        "SELECT abs(x) AS k, count(*) AS c, sum(id) AS s FROM z GROUP BY x",
        "SELECT g, abs(r) AS k, count(*) AS c FROM z GROUP BY g, r",
        "SELECT g, count(DISTINCT x) AS dx FROM z GROUP BY g",
        "SELECT a.id AS a, b.id AS b FROM z a JOIN z b ON a.x = b.x",
    };

    private static final String[] STEPS = {
        "INSERT INTO z VALUES (7, 3, -0.0::float8, -0.0::real), (8, 3, 0, 0)",
        "UPDATE z SET x = -x, r = -r WHERE id IN (1, 2, 3)",
        "DELETE FROM z WHERE id IN (4, 6)",
        "UPDATE z SET g = 1 WHERE id = 7",
        "DELETE FROM z WHERE x = 0",
    };

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("signedzero-", 100, 120);

    @Test
    void signedZerosAreOneKey() throws Exception {
        databases.compareViewsThroughSteps(SETUP, "zv", VIEWS, STEPS);
        // the setup's zeros again (the steps deleted them), for the queries
        String zeros = "INSERT INTO z VALUES (1, 1, -0.0::float8, -0.0::real), (2, 1, 0.0, 0.0), (4, 2, '-0', '-0'),"
                + " (6, 2, 0, 0)";
        InProcessTributary.execScript(databases.trib(), zeros);
        InProcessTributary.execScript(databases.pg(), zeros);
        List<String> statements = new java.util.ArrayList<>(QUERIES);
        statements.add("CREATE TABLE zk (k FLOAT8 PRIMARY KEY, q REAL UNIQUE)");
        statements.add("INSERT INTO zk VALUES (-0.0::float8, 1)");
        statements.add("INSERT INTO zk VALUES (0.0, 2)");
        statements.add("INSERT INTO zk VALUES (1, -0.0::real)");
        statements.add("INSERT INTO zk VALUES (2, 0)");
        statements.add("SELECT k, q FROM zk ORDER BY k");
        List<String> mismatches = StatementOutcome.mismatches(databases.pg(), databases.trib(), statements);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
