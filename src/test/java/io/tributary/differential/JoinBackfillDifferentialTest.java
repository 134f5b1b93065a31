package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Join views built over existing rows while both sides change: each CREATE MATERIALIZED VIEW
 * (INNER, LEFT, RIGHT, FULL) runs, rate limited so its backfill spans many writes, while another
 * session inserts, updates (join keys too) and deletes rows of both tables with random literals, the
 * same statements in the same order on PostgreSQL; after the view is live the writes go on a while,
 * then the view equals PostgreSQL's answer to its query. Fresh view state is held in memory by the
 * join ({@code JoinSide}'s held mode, whose bound and the path past it {@code HashJoinOperatorTest}
 * covers), so this covers held probes during the backfill and the live maintenance after it.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class JoinBackfillDifferentialTest {
    private static final int ORDERS = 12_000;
    private static final int KEYS = 300;
    /** Statements the writer runs after the view went live, so live maintenance is compared too. */
    private static final int WRITES_AFTER_LIVE = 40;

    private static final String[] QUERIES = {
        "SELECT o.id, o.v, d.k, d.name FROM o JOIN d ON o.k = d.k",
        "SELECT o.id, o.v, d.k, d.name FROM o LEFT JOIN d ON o.k = d.k",
        "SELECT o.id, o.v, d.k, d.name FROM o RIGHT JOIN d ON o.k = d.k",
        "SELECT o.id, o.v, d.k, d.name FROM o FULL JOIN d ON o.k = d.k",
    };

    @RegisterExtension
    static final ViewTestDatabases databases = new ViewTestDatabases("joinfill-", 200, 120);

    @Test
    void joinViewsBuiltWhileBothSidesChangeEqualPostgres() throws Exception {
        // k: NULL for every 17th order; d holds keys 0..199 of the 300 orders use, plus keys no order has
        String setup = "CREATE TABLE o (id BIGINT PRIMARY KEY, k INT, v INT);"
                + "CREATE TABLE d (k INT PRIMARY KEY, name TEXT);"
                + "INSERT INTO o SELECT x, CASE WHEN x % 17 = 0 THEN NULL ELSE (x * 7) % " + KEYS
                + " END, x % 1000 FROM generate_series(1, " + ORDERS + ") AS s(x);"
                + "INSERT INTO d SELECT x, 'd' || x FROM generate_series(0, 199) AS s(x);"
                + "INSERT INTO d SELECT x, 'lone' || x FROM generate_series(1000, 1019) AS s(x)";
        InProcessTributary.execScript(databases.trib(), setup);
        InProcessTributary.execScript(databases.pg(), setup);
        Writes writes = new Writes(new Random(11));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection ddl = databases.tributary().connect("root", "", 600);
                Statement st = ddl.createStatement()) {
            st.execute("SET backfill_rate_limit = 4000");
            for (int i = 0; i < QUERIES.length; i++) {
                String view = "jv" + i;
                String create = "CREATE MATERIALIZED VIEW " + view + " AS " + QUERIES[i];
                Future<?> done = pool.submit(() -> {
                    try (Statement s = ddl.createStatement()) {
                        s.execute(create);
                    }
                    return null;
                });
                int during = 0;
                while (!done.isDone()) {
                    writes.next();
                    during++;
                }
                done.get();
                for (int w = 0; w < WRITES_AFTER_LIVE; w++) {
                    writes.next();
                }
                assertTrue(during > 5, view + ": only " + during + " writes while it was built");
                ViewResults.Rows expected = ViewResults.read(databases.pg(), QUERIES[i]);
                ViewResults.Rows actual = ViewResults.read(databases.trib(), "SELECT * FROM " + view);
                assertNull(ViewResults.difference(expected, actual, false), view + " differs from PostgreSQL");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Random single statements on both tables, each run on Tributary and then on PostgreSQL: new
     * orders (some with a NULL key), orders moved to another key or deleted, dimension rows renamed,
     * deleted and added back. The ids it touches are drawn from what it knows exists.
     */
    private static final class Writes {
        private final Random rnd;
        private final List<Integer> dimensionKeys = new ArrayList<>();
        private final List<Integer> removedKeys = new ArrayList<>();
        private long nextOrder = ORDERS + 1;

        Writes(Random rnd) {
            this.rnd = rnd;
            for (int k = 0; k < 200; k++) {
                dimensionKeys.add(k);
            }
        }

        void next() throws SQLException {
            int roll = rnd.nextInt(100);
            long order = 1 + rnd.nextInt((int) (nextOrder - 1));
            String sql;
            if (roll < 25) {
                sql = "INSERT INTO o VALUES (" + nextOrder++ + ", " + key() + ", " + rnd.nextInt(1000) + ")";
            } else if (roll < 45) {
                sql = "UPDATE o SET k = " + key() + ", v = v + 1 WHERE id = " + order;
            } else if (roll < 60) {
                sql = "DELETE FROM o WHERE id = " + order;
            } else if (roll < 75) {
                sql = "UPDATE d SET name = 'r" + rnd.nextInt(1000) + "' WHERE k = " + dimensionKey();
            } else if (roll < 88 && dimensionKeys.size() > 20) {
                Integer k = dimensionKeys.remove(rnd.nextInt(dimensionKeys.size()));
                removedKeys.add(k);
                sql = "DELETE FROM d WHERE k = " + k;
            } else if (!removedKeys.isEmpty()) {
                Integer k = removedKeys.remove(rnd.nextInt(removedKeys.size()));
                dimensionKeys.add(k);
                sql = "INSERT INTO d VALUES (" + k + ", 'back" + rnd.nextInt(1000) + "')";
            } else {
                sql = "UPDATE o SET v = v - 1 WHERE id = " + order;
            }
            for (Connection c : new Connection[] {databases.trib(), databases.pg()}) {
                try (Statement st = c.createStatement()) {
                    st.execute(sql);
                }
            }
        }

        private String key() {
            return rnd.nextInt(20) == 0 ? "NULL" : Integer.toString(rnd.nextInt(KEYS));
        }

        private int dimensionKey() {
            return dimensionKeys.get(rnd.nextInt(dimensionKeys.size()));
        }
    }
}
