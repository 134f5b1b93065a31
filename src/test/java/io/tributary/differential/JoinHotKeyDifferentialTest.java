package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Join views built over few, hot join keys (hundreds of orders per key, so each held bucket
 * outgrows its plain scan and keeps a table of positions) and NULL keys, then changed in bulk on
 * both sides: most of a hot key's orders deleted (the bucket squeezes its holes), orders moved
 * between keys and to and from NULL, dimension rows renamed (every match re-emitted from the
 * bucket), deleted and added back. After each step every view equals PostgreSQL's answer to its
 * query, for INNER, LEFT, RIGHT and FULL joins (the padded ones keep degrees in their buckets).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class JoinHotKeyDifferentialTest {
    private static final String[] QUERIES = {
        "SELECT o.id, o.v, d.k, d.name FROM o JOIN d ON o.k = d.k",
        "SELECT o.id, o.v, d.k, d.name FROM o LEFT JOIN d ON o.k = d.k",
        "SELECT o.id, o.v, d.k, d.name FROM o RIGHT JOIN d ON o.k = d.k",
        "SELECT o.id, o.v, d.k, d.name FROM o FULL JOIN d ON o.k = d.k",
    };

    private static final String[] STEPS = {
        // most of hot key 1's orders go: holes outnumber rows, the bucket squeezes
        "DELETE FROM o WHERE k = 1 AND id % 10 <> 3",
        // the squeezed bucket: its matches re-emitted, some of its rows deleted by stream key, then
        // its dimension row gone (LEFT and FULL pad each order by its degree) and back
        "UPDATE d SET name = name || '?' WHERE k = 1",
        "DELETE FROM o WHERE k = 1 AND id % 20 = 3",
        "DELETE FROM d WHERE k = 1",
        "INSERT INTO d VALUES (1, 'one again')",
        // every match of keys 2 and 3 re-emitted through their buckets
        "UPDATE d SET name = name || '!' WHERE k IN (2, 3)",
        // orders move between hot keys, to NULL and from NULL
        "UPDATE o SET k = 4 WHERE k = 2 AND id % 3 = 0",
        "UPDATE o SET k = NULL WHERE k = 3 AND id % 4 = 0",
        "UPDATE o SET k = 0 WHERE k IS NULL AND id % 2 = 0",
        // a dimension row goes (LEFT pads its orders) and comes back (they match again)
        "DELETE FROM d WHERE k = 4",
        "INSERT INTO d VALUES (4, 'four again')",
        // a key emptied and filled again: its bucket starts over
        "DELETE FROM o WHERE k = 0",
        "INSERT INTO o SELECT 100000 + x, 0, x FROM generate_series(1, 300) AS s(x)",
        "UPDATE o SET v = v + 1 WHERE k = 0 AND id % 5 = 0",
    };

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("joinhot-", 200, "root", "", 120);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void hotKeyJoinViewsStayEqualToPostgresThroughBulkChanges() throws Exception {
        // 6,000 orders over keys 0..7 (750 each) and NULL (every 13th); d holds keys 0..5 and 9
        String setup = "CREATE TABLE o (id BIGINT PRIMARY KEY, k INT, v INT);"
                + "CREATE TABLE d (k INT PRIMARY KEY, name TEXT);"
                + "INSERT INTO o SELECT x, CASE WHEN x % 13 = 0 THEN NULL ELSE x % 8 END, x % 100"
                + " FROM generate_series(1, 6000) AS s(x);"
                + "INSERT INTO d SELECT x, 'd' || x FROM generate_series(0, 5) AS s(x);"
                + "INSERT INTO d VALUES (9, 'lone')";
        InProcessTributary.execScript(tributary.connection, setup);
        InProcessTributary.execScript(pg, setup);
        for (int i = 0; i < QUERIES.length; i++) {
            InProcessTributary.execScript(
                    tributary.connection, "CREATE MATERIALIZED VIEW hv" + i + " AS " + QUERIES[i]);
        }
        compare("after the backfills");
        for (String step : STEPS) {
            InProcessTributary.execScript(tributary.connection, step);
            InProcessTributary.execScript(pg, step);
            compare("after " + step);
        }
    }

    private static void compare(String when) throws SQLException {
        for (int i = 0; i < QUERIES.length; i++) {
            ViewResults.Rows expected = ViewResults.read(pg, QUERIES[i]);
            ViewResults.Rows actual = ViewResults.read(tributary.connection, "SELECT * FROM hv" + i);
            assertNull(ViewResults.difference(expected, actual, false), "hv" + i + " differs from PostgreSQL " + when);
        }
    }
}
