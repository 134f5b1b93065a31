package io.tributary.differential;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The expression fixes of {@link ExpressionCorpusDifferentialTest}'s families hold in materialized
 * views too: one view per family ({@code avg}'s scale; {@code variance}/{@code stddev} and their
 * sample and population forms; {@code lpad}/{@code rpad} with an empty fill and a signed cast's
 * label; {@code ^}, {@code power} and {@code log(b, x)} of numerics, {@code starts_with} and
 * {@code COLLATE "C"}; {@code ::} in a BETWEEN's bounds, after LIKE and IS DISTINCT FROM; {@code
 * ARRAY[...]} of numbers of several scales), created over rows and kept through inserts, updates and deletes, equals PostgreSQL's
 * answer to its query after each step: column labels and every row as text, exactly.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ExpressionViewsDifferentialTest {
    private static final String[] QUERIES = {
        "SELECT g, avg(i2) AS a2, avg(i4) AS a4, avg(i8) AS a8, avg(nu) AS an, avg(f8) AS af FROM a GROUP BY g",
        "SELECT g, stddev(i2) AS s2, variance(i4) AS v4, stddev_pop(i8) AS s8, var_pop(nu) AS vn,"
                + " stddev_samp(nu) AS sn, var_samp(i2) AS v2 FROM a GROUP BY g",
        "SELECT id, lpad(tx, 4, '') AS l, rpad(tx, 6, 'xy') AS r, +7::int2, -7::int2 AS m FROM a",
        "SELECT id, nu ^ 2 AS p2, abs(i2) ^ 1.5 AS p15, power(abs(nu), 0.5) AS r, i4 ^ 2 AS f,"
                + " log(2.0, abs(nu) + 1) AS lg, starts_with(tx, 'a') AS sw, tx < 'b' COLLATE \"C\" AS lt FROM a",
        "SELECT id, i4 BETWEEN -20 AND 10::int8 AS b1, i2 NOT BETWEEN 0::int2 AND 5 AS b2, tx LIKE 'a%'::text AS l,"
                + " i4 IS DISTINCT FROM 10::int8 AS d, ARRAY[nu, 1.5, i2] AS ar FROM a WHERE i4 BETWEEN SYMMETRIC 100 AND"
                + " -100::int8",
    };

    private static final String[] STEPS = {
        "INSERT INTO a VALUES (10, 1, 5, 50, 500, 0.5, 0.5, 'five'), (11, 2, -7, 70, 9223372036854775807, 99999999.9999, 1000.5, 'x')",
        "UPDATE a SET i2 = i2 - 1, nu = nu - 1.5, tx = tx || 'z' WHERE id % 2 = 0",
        "DELETE FROM a WHERE id IN (1, 11)",
        "UPDATE a SET g = 3 WHERE id = 2",
        "DELETE FROM a WHERE g = 2",
    };

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("exprviews-", 200, 120);

    @Test
    void viewsOfFixedExpressionsEqualPostgres() throws Exception {
        String setup = "CREATE TABLE a (id INT PRIMARY KEY, g INT, i2 SMALLINT, i4 INT, i8 BIGINT, nu NUMERIC(12,4),"
                + " f8 DOUBLE PRECISION, tx TEXT);"
                + "INSERT INTO a VALUES (1, 1, 1, 10, 100, 2.5, 1.5, 'alpha'), (2, 1, -2, -20, -200, -1.125, -0.25, 'Beta'),"
                + " (3, 1, NULL, NULL, NULL, NULL, NULL, NULL), (4, 2, 32767, 2147483647, 9223372036854775807,"
                + " 99999999.9999, 1000.5, 'gamma delta'), (5, 2, 0, 0, 0, 0, 0, ''), (6, 3, 4, 4, 4, 4, 4, 'ab')";
        databases.compareViewsThroughSteps(setup, "ev", QUERIES, STEPS);
    }
}
