package io.tributary.meta;

import static io.tributary.meta.ServedDatabase.explainView;
import static io.tributary.meta.ServedDatabase.lateRows;
import static io.tributary.meta.ServedDatabase.rows;
import static io.tributary.meta.ServedDatabase.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Joins over watermarked tables forget rows no later change can match, both joins on window bounds
 * and joins whose condition bounds the distance between two times: while rows keep arriving in two
 * tables (ten seconds of event time per round, some later than the watermark), the keys in each
 * view's state tables (its joins' and aggregates') stay below a fixed number, though the views' rows
 * keep growing; each view equals PostgreSQL's query over the rows the tables kept (the on-time
 * ones), before and after a restart, which must index the stored rows again to go on forgetting
 * them. The shapes: Nexmark's q8 (a join of two window aggregates, here a LEFT one), q5 (an
 * aggregate joined with an aggregate over it), a join of two window scans, q7 (bids joined with
 * their window's highest bid, by price, within the window), an inner join within a window of time
 * either way, and a LEFT join bounded on one side by a strict comparison.
 */
class JoinStateCleaningTest {
    private static final long SEED = 20261202L;
    private static final int ROUNDS = 40;
    private static final int ROWS_PER_ROUND = 40;
    private static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 1, 10, 0);
    private static final String EPOCH = "TIMESTAMP '1970-01-01'";

    /**
     * Each case: Tributary's view query, PostgreSQL's equivalent, the most state keys allowed, and
     * what EXPLAIN must show for the view's cleaning.
     */
    private static final List<Object[]> CASES = List.of(
            new Object[] {
                "SELECT p.k, p.ws, p.c AS ca, q.c AS cb FROM (SELECT k, window_start AS ws, window_end AS we,"
                        + " count(*) AS c FROM TUMBLE(a, ts, INTERVAL '10' SECOND) GROUP BY k, window_start,"
                        + " window_end) p LEFT JOIN (SELECT k, window_start AS ws, window_end AS we, count(*) AS c"
                        + " FROM TUMBLE(b, ts, INTERVAL '10' SECOND) GROUP BY k, window_start, window_end) q"
                        + " ON p.k = q.k AND p.ws = q.ws AND p.we = q.we",
                "SELECT p.k, p.ws, p.c AS ca, q.c AS cb FROM (SELECT k, date_bin('10 seconds', ts, " + EPOCH
                        + ") AS ws, count(*) AS c FROM a WHERE ts IS NOT NULL GROUP BY 1, 2) p LEFT JOIN (SELECT k,"
                        + " date_bin('10 seconds', ts, " + EPOCH + ") AS ws, count(*) AS c FROM b"
                        + " WHERE ts IS NOT NULL GROUP BY 1, 2) q ON p.k = q.k AND p.ws = q.ws",
                100,
                "cleaned when watermarks"
            },
            new Object[] {
                "SELECT x.k, x.ws, x.c FROM (SELECT k, count(*) AS c, window_start AS ws"
                        + " FROM HOP(a, ts, INTERVAL '5' SECOND, INTERVAL '15' SECOND) GROUP BY window_start, k) x"
                        + " JOIN (SELECT max(y.c) AS m, y.ws2 FROM (SELECT count(*) AS c, window_start AS ws2"
                        + " FROM HOP(a, ts, INTERVAL '5' SECOND, INTERVAL '15' SECOND) GROUP BY k, window_start) y"
                        + " GROUP BY y.ws2) z ON x.ws = z.ws2 AND x.c >= z.m",
                "WITH h AS (SELECT k, date_bin('5 seconds', ts, " + EPOCH + ") - i * INTERVAL '5 seconds' AS ws"
                        + " FROM a CROSS JOIN generate_series(0, 2) AS g(i) WHERE ts IS NOT NULL),"
                        + " c AS (SELECT k, ws, count(*) AS c FROM h GROUP BY 1, 2)"
                        + " SELECT x.k, x.ws, x.c FROM c x JOIN (SELECT ws, max(c) AS m FROM c GROUP BY ws) z"
                        + " ON x.ws = z.ws AND x.c >= z.m",
                250,
                "cleaned when watermarks"
            },
            new Object[] {
                "SELECT x.id AS xid, y.id AS yid, x.window_start AS ws FROM TUMBLE(a, ts, INTERVAL '10' SECOND) x"
                        + " JOIN TUMBLE(b, ts, INTERVAL '10' SECOND) y ON x.window_start = y.window_start AND x.k = y.k",
                "SELECT x.id AS xid, y.id AS yid, date_bin('10 seconds', x.ts, " + EPOCH + ") AS ws FROM a x JOIN b y"
                        + " ON date_bin('10 seconds', x.ts, " + EPOCH + ") = date_bin('10 seconds', y.ts, " + EPOCH
                        + ") AND x.k = y.k",
                200,
                "cleaned when watermarks"
            },
            new Object[] {
                "SELECT x.id, x.price, x.ts FROM a x JOIN (SELECT max(price) AS maxprice, window_end AS we"
                        + " FROM TUMBLE(a, ts, INTERVAL '10' SECOND) GROUP BY window_end) w"
                        + " ON x.price = w.maxprice WHERE x.ts BETWEEN w.we - INTERVAL '10' SECOND AND w.we",
                "SELECT x.id, x.price, x.ts FROM a x JOIN (SELECT max(price) AS maxprice, date_bin('10 seconds', ts, "
                        + EPOCH + ") + INTERVAL '10 seconds' AS we FROM a GROUP BY 2) w"
                        + " ON x.price = w.maxprice WHERE x.ts BETWEEN w.we - INTERVAL '10 seconds' AND w.we",
                150,
                "interval cleaning"
            },
            new Object[] {
                "SELECT x.id AS xid, y.id AS yid FROM a x JOIN b y ON x.k = y.k"
                        + " AND x.ts BETWEEN y.ts - INTERVAL '3' SECOND AND y.ts + INTERVAL '2' SECOND",
                "SELECT x.id AS xid, y.id AS yid FROM a x JOIN b y ON x.k = y.k"
                        + " AND x.ts BETWEEN y.ts - INTERVAL '3' SECOND AND y.ts + INTERVAL '2' SECOND",
                200,
                "interval cleaning"
            },
            new Object[] {
                "SELECT x.id AS xid, y.id AS yid FROM a x LEFT JOIN b y ON x.k = y.k"
                        + " AND y.ts >= x.ts AND y.ts < x.ts + INTERVAL '4' SECOND",
                "SELECT x.id AS xid, y.id AS yid FROM a x LEFT JOIN b y ON x.k = y.k"
                        + " AND y.ts >= x.ts AND y.ts < x.ts + INTERVAL '4' SECOND",
                200,
                "interval cleaning"
            });

    @RegisterExtension
    static final PostgresOracle postgres = new PostgresOracle();

    @TempDir
    static Path dir;

    private ServedDatabase served;
    private final StateKeyBounds bounds =
            new StateKeyBounds("j", CASES.stream().mapToInt(c -> (Integer) c[2]).toArray());

    @Test
    void joinStateStaysBoundedAndViewsMatchPostgresOverOnTimeRows() throws Exception {
        Random r = new Random(SEED);
        postgres.execute("CREATE TABLE a (id INT, k INT, price INT, ts TIMESTAMP)");
        postgres.execute("CREATE TABLE b (id INT, k INT, price INT, ts TIMESTAMP)");
        long inserted = 0;
        served = ServedDatabase.open(dir, 20);
        try (Connection c = served.connect();
                Statement st = c.createStatement()) {
            for (String t : List.of("a", "b")) {
                st.execute("CREATE TABLE " + t + " (id INT, k INT, price INT, ts TIMESTAMP,"
                        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)");
            }
            for (int i = 0; i < CASES.size(); i++) {
                st.execute("CREATE MATERIALIZED VIEW j" + i + " AS " + CASES.get(i)[0]);
                String plan = explainView(st, (String) CASES.get(i)[0]);
                String marker = (String) CASES.get(i)[3];
                assertTrue(plan.contains(marker), "j" + i + " plans its cleaning (" + marker + "):\n" + plan);
            }
            for (int round = 0; round < ROUNDS; round++) {
                inserted += insert(st, r, round);
                if (round >= 5) {
                    bounds.check(served, "round " + round);
                }
            }
            compare(st, inserted, "after " + ROUNDS + " rounds");
        }
        served.close();
        served = ServedDatabase.open(dir, 20);
        try (Connection c = served.connect();
                Statement st = c.createStatement()) {
            compare(st, inserted, "after a restart");
            for (int round = ROUNDS; round < ROUNDS + 15; round++) {
                inserted += insert(st, r, round);
                bounds.check(served, "round " + round + " after the restart");
            }
            compare(st, inserted, "after the restart and more rounds");
        }
        served.close();
        System.out.println("most state keys per view: " + bounds);
    }

    /**
     * Two INSERTs (two epochs), one per table, of rows around {@code round}'s ten seconds, from 15 s
     * before to 10 s after its start.
     *
     * @return the rows inserted
     */
    private static int insert(Statement st, Random r, int round) throws SQLException {
        LocalDateTime base = T0.plusSeconds(10L * round);
        for (String table : List.of("a", "b")) {
            StringJoiner rows = new StringJoiner(", ", "INSERT INTO " + table + " VALUES ", "");
            for (int i = 0; i < ROWS_PER_ROUND; i++) {
                LocalDateTime ts = base.plusNanos((r.nextInt(25_000) - 15_000) * 1_000_000L);
                rows.add("(" + (round * ROWS_PER_ROUND + i) + ", " + r.nextInt(8) + ", " + r.nextInt(1000)
                        + ", TIMESTAMP '" + ts.toString().replace('T', ' ') + "')");
            }
            st.execute(rows.toString());
        }
        return 2 * ROWS_PER_ROUND;
    }

    /** Views equal PostgreSQL's queries over the rows the tables kept; every inserted row is kept or late. */
    private void compare(Statement st, long inserted, String when) throws SQLException {
        long kept = 0;
        long late = 0;
        for (String t : List.of("a", "b")) {
            kept += scalar(st, "SELECT count(*) FROM " + t);
            late += lateRows(st, t);
            postgres.replaceRows(t, rows(st, "SELECT id, k, price, ts FROM " + t));
        }
        assertEquals(inserted, kept + late, when + ": kept " + kept + " + late " + late);
        assertTrue(late > 0 && kept > 0, when + ": some rows are late, some on time");
        for (int i = 0; i < CASES.size(); i++) {
            assertEquals(postgres.rows((String) CASES.get(i)[1]), rows(st, "SELECT * FROM j" + i), when + ": j" + i);
        }
        // the bounds are far below what state would hold if no row were forgotten
        bounds.checkFarBelow(kept, 2, when);
    }
}
