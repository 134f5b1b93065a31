package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sum} of a bigint in materialized views, against embedded PostgreSQL: GROUP BY and global
 * views backfilled over existing rows, then kept through inserts and deletes that take sums past
 * 2^63 and below -2^63 and back, across a restart of Tributary; after every step each view equals
 * PostgreSQL's answer to its query (the view's query recomputed there), and its sum columns are
 * numeric in {@code pg_attribute} as in PostgreSQL's materialized view of the same query.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BigintSumViewsDifferentialTest {
    private static final String SETUP = "CREATE TABLE vb (id INT PRIMARY KEY, g INT, b BIGINT, i INT);"
            + "INSERT INTO vb VALUES (1, 1, 9223372036854775807, 1), (2, 1, 5, 2), (3, 2, -9223372036854775808, 3),"
            + " (4, 2, NULL, NULL), (5, 3, 7, 4)";

    private static final String[] VIEWS = {
        "SELECT g, sum(b) AS s, count(*) AS c, sum(i) AS si FROM vb GROUP BY g",
        "SELECT sum(b) AS s, count(b) AS c FROM vb",
        "SELECT g, sum(b) AS s FROM vb WHERE id > 1 GROUP BY g",
    };

    private static final String[] BEFORE_RESTART = {
        "INSERT INTO vb VALUES (6, 1, 9223372036854775807, 5), (7, 2, -9223372036854775808, 6)",
        "DELETE FROM vb WHERE id = 1",
        "INSERT INTO vb VALUES (8, 1, 9223372036854775800, 7), (9, 3, 9223372036854775807, 8)",
    };

    private static final String[] AFTER_RESTART = {
        "INSERT INTO vb VALUES (10, 1, 9223372036854775807, 9), (11, 2, -1, 10)",
        "DELETE FROM vb WHERE id IN (6, 8)",
        "DELETE FROM vb WHERE id IN (3, 7)",
        "UPDATE vb SET b = -b WHERE g = 3",
        "DELETE FROM vb WHERE g = 2",
    };

    private static final String COLUMN_TYPES = "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute"
            + " WHERE attrelid = 'v%d'::regclass AND attnum > 0 ORDER BY attnum";

    @Test
    void bigintSumsInViewsEqualPostgresAcrossRangeAndRestart(@TempDir Path dir) throws Exception {
        try (Connection pg = DifferentialPostgres.freshDev()) {
            InProcessTributary.execScript(pg, SETUP);
            try (InProcessTributary tributary = new InProcessTributary(dir, 20)) {
                InProcessTributary.execScript(tributary.connection, SETUP);
                for (int v = 0; v < VIEWS.length; v++) {
                    InProcessTributary.execScript(
                            tributary.connection, "CREATE MATERIALIZED VIEW v" + v + " AS " + VIEWS[v]);
                    InProcessTributary.execScript(pg, "CREATE MATERIALIZED VIEW v" + v + " AS " + VIEWS[v]);
                    String types = String.format(COLUMN_TYPES, v);
                    assertEquals(SortedRows.of(pg, types), SortedRows.of(tributary.connection, types), "v" + v);
                }
                compare(pg, tributary.connection, "after the backfill");
                steps(pg, tributary.connection, BEFORE_RESTART);
            }
            try (InProcessTributary tributary = new InProcessTributary(dir, 20)) {
                compare(pg, tributary.connection, "after the restart");
                steps(pg, tributary.connection, AFTER_RESTART);
            }
        }
    }

    private static void steps(Connection pg, Connection trib, String[] steps) throws SQLException {
        for (String step : steps) {
            InProcessTributary.execScript(pg, step);
            InProcessTributary.execScript(trib, step);
            compare(pg, trib, "after " + step);
        }
    }

    private static void compare(Connection pg, Connection trib, String when) throws SQLException {
        for (int v = 0; v < VIEWS.length; v++) {
            List<String> expected = SortedRows.of(pg, VIEWS[v]);
            assertEquals(expected, SortedRows.of(trib, "SELECT * FROM v" + v), "view v" + v + " " + when);
        }
    }
}
