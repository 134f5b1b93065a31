package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Join views built over a big side large enough that each join actor takes in far more than
 * {@code JoinSide.RELEASE_ROWS} of its rows after the small side's snapshot is read, so the big
 * side leaves held mode during the backfill; then both sides change (dimension rows renamed,
 * deleted and added back, orders moved to other keys, deleted and added), which probes the
 * released side through the store. After every batch of changes each view equals PostgreSQL's
 * answer to its query, for INNER, LEFT and FULL joins (the padded ones keep degrees).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class JoinBackfillReleaseDifferentialTest {
    private static final int ORDERS = 160_000;
    private static final int KEYS = 1_000;
    private static final int BATCHES = 4;
    private static final int STATEMENTS_PER_BATCH = 60;

    private static final String[] QUERIES = {
        "SELECT o.id, o.v, d.k, d.name FROM o JOIN d ON o.k = d.k",
        "SELECT o.id, o.v, d.k, d.name FROM o LEFT JOIN d ON o.k = d.k",
        "SELECT o.id, o.v, d.k, d.name FROM o FULL JOIN d ON o.k = d.k",
    };

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("joinrelease-", 200, 300);

    @Test
    void joinViewsOverABigSideStayEqualToPostgresThroughChangesOfBothSides() throws Exception {
        // d holds keys 0..799 of the 1,000 orders use, plus keys no order has
        String setup = "CREATE TABLE o (id BIGINT PRIMARY KEY, k INT, v INT);"
                + "CREATE TABLE d (k INT PRIMARY KEY, name TEXT);"
                + "INSERT INTO o SELECT x, (x * 7) % " + KEYS + ", x % 1000 FROM generate_series(1, " + ORDERS
                + ") AS s(x);"
                + "INSERT INTO d SELECT x, 'd' || x FROM generate_series(0, 799) AS s(x);"
                + "INSERT INTO d SELECT x, 'lone' || x FROM generate_series(5000, 5019) AS s(x)";
        InProcessTributary.execScript(databases.trib(), setup);
        InProcessTributary.execScript(databases.pg(), setup);
        for (int i = 0; i < QUERIES.length; i++) {
            InProcessTributary.execScript(databases.trib(), "CREATE MATERIALIZED VIEW rv" + i + " AS " + QUERIES[i]);
        }
        compare("after the backfills");
        Random rnd = new Random(23);
        long nextOrder = ORDERS + 1;
        boolean[] inD = new boolean[KEYS];
        Arrays.fill(inD, 0, 800, true);
        for (int b = 0; b < BATCHES; b++) {
            for (int s = 0; s < STATEMENTS_PER_BATCH; s++) {
                int roll = rnd.nextInt(100);
                int key = rnd.nextInt(KEYS);
                long order = 1 + rnd.nextInt(ORDERS);
                String sql;
                if (roll < 20) {
                    sql = "UPDATE d SET name = 'r" + rnd.nextInt(1000) + "' WHERE k = " + key;
                } else if (roll < 50 && inD[key]) {
                    inD[key] = false;
                    sql = "DELETE FROM d WHERE k = " + key;
                } else if (roll < 50) {
                    inD[key] = true;
                    sql = "INSERT INTO d VALUES (" + key + ", 'back" + rnd.nextInt(1000) + "')";
                } else if (roll < 70) {
                    sql = "UPDATE o SET k = " + key + ", v = v + 1 WHERE id = " + order;
                } else if (roll < 85) {
                    sql = "DELETE FROM o WHERE id = " + order;
                } else {
                    sql = "INSERT INTO o VALUES (" + nextOrder++ + ", " + key + ", " + rnd.nextInt(1000) + ")";
                }
                for (Connection c : new Connection[] {databases.trib(), databases.pg()}) {
                    try (Statement st = c.createStatement()) {
                        st.execute(sql);
                    }
                }
            }
            compare("after batch " + b);
        }
    }

    private static void compare(String when) throws SQLException {
        for (int i = 0; i < QUERIES.length; i++) {
            ViewResults.Rows expected = ViewResults.read(databases.pg(), QUERIES[i]);
            ViewResults.Rows actual = ViewResults.read(databases.trib(), "SELECT * FROM rv" + i);
            assertNull(ViewResults.difference(expected, actual, false), "rv" + i + " differs from PostgreSQL " + when);
        }
    }
}
