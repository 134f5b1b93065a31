package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GROUP BY views backfilled over existing rows (so MIN/MAX take the new view's unread value-table
 * path, see {@code ValueTable}), then kept through changes that remove each group's current
 * extremes, move rows between groups and bring new extremes: after every step each view equals
 * PostgreSQL's answer to its query. count, sum, min and max over NUMERIC(10,2), INT, BIGINT and
 * TEXT; INT, BIGINT and TEXT group keys with NULLs; NULL arguments. avg's digits in views are
 * checked by {@code ExpressionViewsDifferentialTest}. A second test changes random rows (updates of
 * the grouped and aggregated columns, deletes, inserts) while a view is being backfilled.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class GroupByExtremesDifferentialTest {
    private static final int ROWS = 20_000;

    private static final String[] QUERIES = {
        "SELECT gi, count(*) AS c, count(n) AS cn, sum(n) AS sn, min(n) AS mnn, max(n) AS mxn,"
                + " sum(i) AS si, min(i) AS mni, max(i) AS mxi, sum(b) AS sb, max(b) AS mxb, min(s) AS mns,"
                + " max(s) AS mxs FROM t GROUP BY gi",
        "SELECT gt, count(*) AS c, max(n) AS mxn, min(n) AS mnn, sum(i) AS si, max(s) AS mxs FROM t GROUP BY gt",
        "SELECT gb, gi, count(*) AS c, max(i) AS mxi, min(b) AS mnb, max(n) AS mxn FROM t GROUP BY gb, gi",
        "SELECT count(*) AS c, max(n) AS mxn, min(i) AS mni, max(s) AS mxs FROM t",
    };

    /** Each step changes rows that hold current extremes (or brings new ones); views are compared after each. */
    private static final String[] STEPS = {
        "DELETE FROM t WHERE n > 900",
        "UPDATE t SET i = i - 1000 WHERE i > 400",
        "DELETE FROM t WHERE s >= 'v45'",
        "UPDATE t SET gi = NULL WHERE id % 5 = 0",
        "UPDATE t SET n = n + 5000 WHERE id % 97 = 0",
        "INSERT INTO t SELECT x, x % 7, CAST(x % 3 AS BIGINT) * 10000000000, 'k' || (x % 4), (x % 50) + 0.75,"
                + " x % 900, CAST(x AS BIGINT) * 3, 'w' || (x % 9) FROM generate_series(" + (ROWS + 1) + ", "
                + (ROWS + 500) + ") AS s(x)",
        "DELETE FROM t WHERE id % 2 = 0",
        "DELETE FROM t WHERE n >= 5000 OR s >= 'w'",
    };

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("extremes-", 1000, 120);

    @Test
    void viewsEqualPostgresAfterTheirExtremesAreDeleted() throws Exception {
        String setup = "CREATE TABLE t (id BIGINT PRIMARY KEY, gi INT, gb BIGINT, gt TEXT, n NUMERIC(10,2), i INT,"
                + " b BIGINT, s TEXT);"
                + "INSERT INTO t SELECT x,"
                + " CASE WHEN x % 17 = 0 THEN NULL ELSE x % 40 END,"
                + " CAST(x % 3 AS BIGINT) * 10000000000,"
                + " CASE WHEN x % 19 = 0 THEN NULL ELSE 'k' || (x % 25) END,"
                + " CASE WHEN x % 13 = 0 THEN NULL ELSE ((x * 37) % 997) + 0.25 END,"
                + " CASE WHEN x % 11 = 0 THEN NULL ELSE (x * 7) % 1000 - 500 END,"
                + " CAST((x * 1009) % 100000 AS BIGINT) * 100000,"
                + " 'v' || ((x * 13) % 500)"
                + " FROM generate_series(1, " + ROWS + ") AS s(x)";
        InProcessTributary.execScript(databases.trib(), setup);
        InProcessTributary.execScript(databases.pg(), setup);
        for (int v = 0; v < QUERIES.length; v++) {
            InProcessTributary.execScript(databases.trib(), "CREATE MATERIALIZED VIEW v" + v + " AS " + QUERIES[v]);
        }
        compare("after the backfill");
        for (String step : STEPS) {
            InProcessTributary.execScript(databases.trib(), step);
            InProcessTributary.execScript(databases.pg(), step);
            compare("after " + step);
        }
    }

    /**
     * NUMERIC sums whose unscaled value crosses {@code long}'s range and comes back (the
     * accumulator's compact path and its exact BigDecimal fallback): a view backfilled over
     * existing rows, then kept through inserts that push each group's sum past 2^63 units of its
     * scale, deletes that bring it back and deletes that empty a group; negative values and NULLs
     * throughout. Equal to PostgreSQL after each step.
     */
    @Test
    void numericSumsPastLongRangeEqualPostgres() throws Exception {
        String setup = "CREATE TABLE w (id BIGINT PRIMARY KEY, g INT, n NUMERIC(30,4));"
                + "INSERT INTO w SELECT x, CASE WHEN x % 9 = 0 THEN NULL ELSE x % 4 END,"
                + " CASE WHEN x % 7 = 0 THEN NULL WHEN x % 5 = 0 THEN -(x * 1.0001) ELSE 300000000000000 + x * 0.0003 END"
                + " FROM generate_series(1, 400) AS s(x)";
        String view =
                "SELECT g, count(*) AS c, count(n) AS cn, sum(n) AS sn, min(n) AS mn, max(n) AS mx FROM w GROUP BY g";
        String[] steps = {
            "INSERT INTO w SELECT x, x % 4, 922337203685477.5807 - x FROM generate_series(1001, 1040) AS s(x)",
            "DELETE FROM w WHERE id BETWEEN 1001 AND 1030",
            "INSERT INTO w SELECT x, 2, -922337203685477.5808 FROM generate_series(2001, 2060) AS s(x)",
            "DELETE FROM w WHERE id > 1000 OR n > 300000000000000.05",
            "DELETE FROM w WHERE g = 1",
            "INSERT INTO w VALUES (3001, 1, 0.0001), (3002, 1, NULL), (3003, 1, -0.0002)",
        };
        backfillThenCompareAfterEachStep(setup, "wide", view, steps);
    }

    /**
     * Groups that lose their last row and get one back within one statement (an UPDATE of a
     * group's only row, an UPDATE moving every row one group up) and across statements, with
     * MIN/MAX of negative NUMERICs whose extreme is deleted, NULL arguments, and NUMERIC(20,2)
     * sums whose unscaled value crosses {@code long}'s range: a view backfilled over existing rows
     * equals PostgreSQL's answer after each step.
     */
    @Test
    void groupsThatVanishAndReturnEqualPostgres() throws Exception {
        String setup = "CREATE TABLE z (id BIGINT PRIMARY KEY, g INT, n NUMERIC(10,2), w NUMERIC(20,2));"
                + "INSERT INTO z SELECT x, CASE WHEN x % 23 = 0 THEN NULL ELSE x % 30 END,"
                + " CASE WHEN x % 7 = 0 THEN NULL ELSE ((x * 53) % 2001 - 1000) * 0.37 END,"
                + " CASE WHEN x % 5 = 0 THEN NULL WHEN x % 2 = 0 THEN 46116860184273879.04"
                + " ELSE -46116860184273879.03 + x END"
                + " FROM generate_series(1, 600) AS s(x);"
                + "INSERT INTO z SELECT x, x, -x * 1.25, x * 0.01 FROM generate_series(1001, 1010) AS s(x)";
        String view = "SELECT g, count(*) AS c, count(n) AS cn, sum(n) AS sn, min(n) AS mn, max(n) AS mx,"
                + " sum(w) AS sw, max(w) AS mw FROM z GROUP BY g";
        String[] steps = {
            "UPDATE z SET n = -n WHERE id > 1000",
            "UPDATE z SET g = g + 1",
            "DELETE FROM z WHERE n = 370.00 OR n = -370.00 OR id = 1005",
            "UPDATE z SET n = NULL, w = NULL WHERE id % 3 = 0",
            "INSERT INTO z SELECT x, x % 4, -99999999.99, 92233720368547758.07 FROM generate_series(2001, 2004) AS s(x)",
            "DELETE FROM z WHERE g % 2 = 0",
            "INSERT INTO z SELECT x, x % 6, 99999999.99, -92233720368547758.08 FROM generate_series(3001, 3012) AS s(x)",
            "UPDATE z SET g = 1003 WHERE id = 1002",
            "DELETE FROM z WHERE id >= 2001",
        };
        backfillThenCompareAfterEachStep(setup, "vanishing", view, steps);
    }

    /**
     * Random single-row and small-range UPDATEs (moving rows between groups, changing and nulling
     * the aggregated values), DELETEs and INSERTs run while the view is backfilled, each on
     * Tributary and on PostgreSQL; then a few more once the view is live. The view then equals
     * PostgreSQL's answer to its query.
     */
    @Test
    void viewBackfilledDuringRandomUpdatesAndDeletesEqualsPostgres() throws Exception {
        int rows = 60_000;
        String setup = "CREATE TABLE r (id BIGINT PRIMARY KEY, g INT, n NUMERIC(10,2), i INT);"
                + "INSERT INTO r SELECT x,"
                + " CASE WHEN x % 29 = 0 THEN NULL ELSE (x * 7919) % 300 END,"
                + " CASE WHEN x % 13 = 0 THEN NULL ELSE ((x * 37) % 9973) * 0.25 END,"
                + " CASE WHEN x % 11 = 0 THEN NULL ELSE (x * 7) % 100000 - 50000 END"
                + " FROM generate_series(1, " + rows + ") AS s(x)";
        InProcessTributary.execScript(databases.trib(), setup);
        InProcessTributary.execScript(databases.pg(), setup);
        String query = "SELECT g, count(*) AS c, count(n) AS cn, sum(n) AS sn, min(n) AS mnn, max(n) AS mxn,"
                + " sum(i) AS si, min(i) AS mni, max(i) AS mxi FROM r GROUP BY g";
        Random random = new Random(11);
        long nextId = rows + 1;
        int duringBackfill = 0;
        try (Connection ddl = databases.tributary().connect("root", "", 600)) {
            CompletableFuture<Void> create = CompletableFuture.runAsync(() -> {
                try {
                    InProcessTributary.execScript(ddl, "CREATE MATERIALIZED VIEW rv AS " + query);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            while (!create.isDone()) {
                nextId = change(random, rows, nextId);
                duringBackfill++;
            }
            create.get();
        }
        for (int k = 0; k < 200; k++) {
            nextId = change(random, rows, nextId);
        }
        System.out.println("random changes while the view was backfilled: " + duringBackfill);
        assertTrue(duringBackfill > 0, "some changes ran while the view was backfilled");
        assertEquals(SortedRows.of(databases.pg(), query), SortedRows.of(databases.trib(), "SELECT * FROM rv"));
    }

    /** One random change, run on Tributary and then on PostgreSQL; returns the next unused id. */
    private static long change(Random random, int rows, long nextId) throws SQLException {
        long id = 1 + random.nextInt(rows);
        String n = random.nextInt(10) == 0 ? "NULL" : random.nextInt(1_000_000) / 100 + "." + random.nextInt(100);
        String sql = switch (random.nextInt(6)) {
            case 0 -> "UPDATE r SET n = " + n + " WHERE id = " + id;
            case 1 ->
                "UPDATE r SET g = " + (random.nextInt(8) == 0 ? "NULL" : random.nextInt(320)) + " WHERE id BETWEEN "
                        + id + " AND " + (id + random.nextInt(20));
            case 2 -> "UPDATE r SET i = " + (random.nextInt(200_000) - 100_000) + ", n = " + n + " WHERE id = " + id;
            case 3 -> "DELETE FROM r WHERE id BETWEEN " + id + " AND " + (id + random.nextInt(5));
            case 4 ->
                "INSERT INTO r VALUES (" + nextId++ + ", " + random.nextInt(320) + ", " + n + ", "
                        + random.nextInt(1000) + ")";
            default -> "UPDATE r SET n = NULL, g = " + random.nextInt(300) + " WHERE id = " + id;
        };
        InProcessTributary.execScript(databases.trib(), sql);
        InProcessTributary.execScript(databases.pg(), sql);
        return nextId;
    }

    private static void compare(String when) throws SQLException {
        for (int v = 0; v < QUERIES.length; v++) {
            assertEquals(
                    SortedRows.of(databases.pg(), QUERIES[v]),
                    SortedRows.of(databases.trib(), "SELECT * FROM v" + v),
                    "view v" + v + " " + when);
        }
    }

    /**
     * Runs {@code setup} on both databases, backfills view {@code name} of {@code view} in Tributary
     * over its rows, then runs each of {@code steps} on both; the view must equal PostgreSQL's
     * answer to {@code view} after the backfill and after every step.
     */
    private void backfillThenCompareAfterEachStep(String setup, String name, String view, String[] steps)
            throws Exception {
        InProcessTributary.execScript(databases.trib(), setup);
        InProcessTributary.execScript(databases.pg(), setup);
        InProcessTributary.execScript(databases.trib(), "CREATE MATERIALIZED VIEW " + name + " AS " + view);
        assertEquals(
                SortedRows.of(databases.pg(), view),
                SortedRows.of(databases.trib(), "SELECT * FROM " + name),
                "after the backfill");
        for (String step : steps) {
            InProcessTributary.execScript(databases.trib(), step);
            InProcessTributary.execScript(databases.pg(), step);
            assertEquals(
                    SortedRows.of(databases.pg(), view),
                    SortedRows.of(databases.trib(), "SELECT * FROM " + name),
                    "after " + step);
        }
    }
}
