package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Materialized views grouped by {@code date_trunc} with PostgreSQL's units Calcite lacks or reads
 * differently (weeks from Monday, decades, centuries, millennia, milliseconds), and by {@code
 * date_trunc} of a date column (a timestamptz, as in PostgreSQL), and beside {@code extract}, created over rows
 * and kept through inserts, updates and deletes, equal PostgreSQL's answer to their query after
 * each step: column labels and every row as text, exactly.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DateTruncViewsDifferentialTest {
    private static final String[] QUERIES = {
        "SELECT date_trunc('week', ts) AS w, count(*) AS n, sum(v) AS s FROM t GROUP BY date_trunc('week', ts)",
        "SELECT date_trunc('decade', ts) AS d, date_trunc('century', ts) AS c, date_trunc('millennium', ts) AS m,"
                + " count(*) AS n FROM t GROUP BY 1, 2, 3",
        "SELECT id, date_trunc('milliseconds', ts) AS ms, date_trunc('weeks', ts) AS w, date_trunc('quarter', ts) AS q"
                + " FROM t",
        "SELECT date_trunc('month', dt) AS m, count(*) AS n, sum(v) AS s FROM t GROUP BY date_trunc('month', dt)",
        "SELECT id, date_trunc('week', dt) AS w, date_trunc('year', dt + 1) AS y FROM t",
        // extract of a field with a fraction beside a date_trunc unit Calcite lacks (was 42000:
        // "'microseconds' is not a valid time frame", the extract left unrewritten)
        "SELECT id, extract(microseconds FROM ts) AS us, date_part('second', ts) AS s,"
                + " date_trunc('milliseconds', ts) AS ms FROM t",
    };

    private static final String[] STEPS = {
        "INSERT INTO t VALUES (10, TIMESTAMP '2024-03-03 23:59:59.999', 5, DATE '2024-03-03'),"
                + " (11, TIMESTAMP '2024-03-04 00:00:00', 7, DATE '2024-03-04')",
        "UPDATE t SET ts = ts + INTERVAL '1 day', dt = dt + 1 WHERE id % 2 = 0",
        "DELETE FROM t WHERE id IN (1, 11)",
        "INSERT INTO t VALUES (12, TIMESTAMP '1999-12-31 23:59:59.5', 1, DATE '1999-12-31'), (13, NULL, 2, NULL)",
    };

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("datetrunc-views-", 200, "root", "", 120);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void viewsGroupedByDateTruncEqualPostgres() throws Exception {
        String setup = "CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP, v INT, dt DATE);"
                + "INSERT INTO t VALUES (1, TIMESTAMP '2024-02-29 13:45:59.123', 1, DATE '2024-02-29'),"
                + " (2, TIMESTAMP '2024-02-26 00:00:00', 2, DATE '2024-02-26'),"
                + " (3, TIMESTAMP '2024-02-25 23:59:59', 3, DATE '2024-02-25'),"
                + " (4, TIMESTAMP '2000-12-31 10:00:00', 4, DATE '2000-12-31'),"
                + " (5, TIMESTAMP '2001-01-01 00:00:00', 5, DATE '2001-01-01'),"
                + " (6, TIMESTAMP '0800-01-01 00:00:00', 6, DATE '1800-01-01')";
        InProcessTributary.execScript(tributary.connection, setup);
        InProcessTributary.execScript(pg, setup);
        for (int v = 0; v < QUERIES.length; v++) {
            InProcessTributary.execScript(
                    tributary.connection, "CREATE MATERIALIZED VIEW dv" + v + " AS " + QUERIES[v]);
        }
        compare("after the backfill");
        for (String step : STEPS) {
            InProcessTributary.execScript(tributary.connection, step);
            InProcessTributary.execScript(pg, step);
            compare("after " + step);
        }
    }

    private static void compare(String when) throws SQLException {
        for (int v = 0; v < QUERIES.length; v++) {
            assertEquals(
                    SortedRows.withLabels(pg, QUERIES[v]),
                    SortedRows.withLabels(tributary.connection, "SELECT * FROM dv" + v),
                    QUERIES[v] + " " + when);
        }
    }
}
