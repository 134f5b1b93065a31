package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code -0} and {@code 0} of float8 and real are one key, as in PostgreSQL: one group of a GROUP BY
 * or DISTINCT, one row of a UNION, INTERSECT or EXCEPT, one window partition, one value of {@code
 * count(DISTINCT x)}, equal join keys, a match of {@code IN (SELECT ...)} and of a correlated
 * sub-query, a duplicate primary key (23505), in queries and in materialized views kept through
 * inserts, updates and deletes; and {@code x + 0} of {@code -0} is {@code 0}. A group of both zeros
 * is shown as {@code abs(x)} or {@code x + 0}: PostgreSQL prints the first value of the group it
 * met, which depends on its plan and the rows' physical order; a group of one sign's zeros, whose
 * value is certain, is shown as it is in queries (views show {@code 0}, README).
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
            "SELECT -0.0::float8 = 0.0::float8 AS e, x FROM z WHERE x = -0.0::float8 ORDER BY id",
            "SELECT id, x + 0 AS a, 0 + x AS b, r + 0 AS c, x + 0.0 AS d, x - 0 AS e, x * 1 AS f, -x AS g, abs(x) AS h"
                    + " FROM z ORDER BY id",
            "SELECT '-0'::float8 + 0 AS a, round('-0.4'::float8) AS b, ceil('-0.5'::float8) AS c, 0 * -1::float8 AS d",
            "SELECT x FROM z WHERE id IN (1, 4) GROUP BY x",
            "SELECT DISTINCT r FROM z WHERE id = 2",
            "SELECT g, x, count(*) AS c FROM z WHERE id NOT IN (2, 6) GROUP BY g, x ORDER BY 1, 2",
            "SELECT x + 0 AS k FROM z UNION SELECT x + 0 FROM z ORDER BY 1",
            "SELECT count(*) AS c FROM (SELECT x FROM z UNION SELECT r FROM z) u",
            "SELECT x FROM z WHERE id = 1 UNION SELECT x FROM z WHERE id = 4",
            "SELECT x FROM z WHERE id = 1 INTERSECT SELECT x FROM z WHERE id = 4",
            "SELECT x + 0 AS k FROM z INTERSECT SELECT x FROM z WHERE id IN (2, 3) ORDER BY 1",
            "SELECT x FROM z EXCEPT SELECT x FROM z WHERE id = 2 ORDER BY 1",
            "SELECT x, g FROM z WHERE id <> 6 EXCEPT SELECT x, 1 FROM z ORDER BY 2, 1",
            "SELECT count(*) AS c FROM (SELECT x FROM z INTERSECT ALL SELECT x FROM z WHERE id IN (2, 3)) i",
            "SELECT count(*) AS c FROM (SELECT r FROM z EXCEPT ALL SELECT r FROM z WHERE id IN (2, 3)) e",
            "SELECT id, count(*) OVER (PARTITION BY x) AS c, rank() OVER (PARTITION BY r ORDER BY id) AS k FROM z"
                    + " ORDER BY id",
            "SELECT id FROM z WHERE x IN (SELECT x FROM z WHERE id = 2) ORDER BY id",
            "SELECT id FROM z WHERE x NOT IN (SELECT x FROM z WHERE id = 1) ORDER BY id",
            "SELECT id FROM z WHERE x = ANY (SELECT r FROM z WHERE id = 1) ORDER BY id",
            "SELECT id FROM z a WHERE EXISTS (SELECT 1 FROM z b WHERE b.x = a.x AND b.id <> a.id) ORDER BY id",
            "SELECT id, (SELECT count(*) FROM z b WHERE b.x = a.x) AS c FROM z a ORDER BY id",
            "SELECT id FROM z WHERE id IN (SELECT count(*) FROM z GROUP BY x) ORDER BY id");

    private static final String[] VIEWS = {
        "SELECT abs(x) AS k, count(*) AS c, sum(id) AS s FROM z GROUP BY x",
        "SELECT g, abs(r) AS k, count(*) AS c FROM z GROUP BY g, r",
        "SELECT g, count(DISTINCT x) AS dx FROM z GROUP BY g",
        "SELECT a.id AS a, b.id AS b FROM z a JOIN z b ON a.x = b.x",
        "SELECT id, x + 0 AS a, 0 + r AS b, x - 0 AS c FROM z",
        "SELECT DISTINCT abs(x) AS k FROM z",
        "SELECT count(*) AS c FROM (SELECT DISTINCT x FROM z) d",
        "SELECT x + 0 AS k FROM (SELECT x FROM z UNION SELECT r FROM z) u",
        "SELECT id, count(*) OVER (PARTITION BY x) AS c FROM z",
        "SELECT id FROM z WHERE x IN (SELECT x FROM z WHERE g = 2)",
        "SELECT a.id AS a, b.id AS b FROM z a LEFT JOIN z b ON a.r = b.r AND a.id <> b.id",
    };

    private static final String[] STEPS = {
        "INSERT INTO z VALUES (7, 3, -0.0::float8, -0.0::real), (8, 3, 0, 0)",
        "UPDATE z SET x = -x, r = -r WHERE id IN (1, 2, 3)",
        "DELETE FROM z WHERE id IN (4, 6)",
        "UPDATE z SET g = 1 WHERE id = 7",
        "DELETE FROM z WHERE x = 0",
        "INSERT INTO z VALUES (9, 2, '-0', '-0'), (10, 2, 0, 0)",
        "DELETE FROM z WHERE id = 9",
        "INSERT INTO z VALUES (11, 2, '-0', '-0')",
        "DELETE FROM z WHERE id = 10",
        "DELETE FROM z WHERE id = 11",
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
        // INTERSECT ALL and EXCEPT ALL show the first input's zero (-0 from zl, 0 from zr), repeated
        statements.add("CREATE TABLE zl (id INT PRIMARY KEY, f FLOAT8, r REAL)");
        statements.add("CREATE TABLE zr (id INT PRIMARY KEY, f FLOAT8, r REAL)");
        statements.add("INSERT INTO zl VALUES (1, '-0', '-0'), (2, '-0', '-0'), (3, 1.5, 2.5), (4, NULL, NULL)");
        statements.add(
                "INSERT INTO zr VALUES (1, 0.0, 0.0), (2, 0.0, 0.0), (3, 0.0, 0.0), (4, 1.5, 2.5), (5, NULL, NULL)");
        statements.add("SELECT f, r FROM zl INTERSECT ALL SELECT f, r FROM zr ORDER BY 1, 2");
        statements.add("SELECT f, r FROM zr INTERSECT ALL SELECT f, r FROM zl ORDER BY 1, 2");
        statements.add("SELECT f FROM zr EXCEPT ALL SELECT f FROM zl ORDER BY 1");
        statements.add("SELECT f FROM zl EXCEPT ALL SELECT f FROM zr WHERE id > 2 ORDER BY 1");
        List<String> mismatches = StatementOutcome.mismatches(databases.pg(), databases.trib(), statements);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
