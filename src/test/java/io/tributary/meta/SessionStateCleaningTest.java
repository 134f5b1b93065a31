package io.tributary.meta;

import static io.tributary.meta.ServedDatabase.rows;
import static io.tributary.meta.ServedDatabase.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SESSION views over a watermarked table forget closed sessions: while rows keep arriving (ten
 * seconds of event time per round, out of order within the watermark's delay, some later than the
 * watermark, partitions that come and go), the keys in each view's state tables (its three window
 * functions' and its aggregate's) stay below a fixed number though the views' rows keep growing;
 * and each view equals PostgreSQL's gaps and islands over the rows the table kept (the on-time ones),
 * before and after a restart, which must index the stored sessions again to go on forgetting them.
 * The shapes: the three spellings (RisingWave's, Calcite's, Flink's group window as in Nexmark q11),
 * the sessions' rows ungrouped, and an EMIT ON WINDOW CLOSE aggregate, which only ever gains rows
 * and holds exactly the sessions the watermark closed (also when created after the rows).
 */
class SessionStateCleaningTest {
    private static final long SEED = 20261203L;
    private static final int ROUNDS = 60;
    private static final int ROWS_PER_ROUND = 30;
    private static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 1, 10, 0);

    /**
     * Each case: Tributary's view query, PostgreSQL's equivalent, the most state keys allowed, what
     * EXPLAIN must show.
     */
    private static final List<Object[]> CASES = List.of(
            new Object[] {
                "SELECT k, window_start, window_end, count(*) AS c, sum(v) AS s"
                        + " FROM SESSION(ev PARTITION BY k, ts, INTERVAL '3' SECOND) GROUP BY k, window_start, window_end",
                "SELECT k, min(ts) AS window_start, max(ts) + INTERVAL '3 seconds' AS window_end, count(*) AS c,"
                        + " sum(v) AS s FROM " + pgSessions("k", "3 seconds") + " GROUP BY k, session",
                300,
                "cleaned when watermark >= $"
            },
            new Object[] {
                "SELECT id, g, window_start, window_end FROM SESSION(ev PARTITION BY g, ts, INTERVAL '2' SECOND)",
                "SELECT id, g, min(ts) OVER (PARTITION BY g, session) AS window_start,"
                        + " max(ts) OVER (PARTITION BY g, session) + INTERVAL '2 seconds' AS window_end FROM "
                        + pgSessions("g", "2 seconds"),
                300,
                "sessions cleaned when watermark > last"
            },
            new Object[] {
                "SELECT e.k, count(*) AS c, SESSION_START(e.ts, INTERVAL '4' SECOND) AS st,"
                        + " SESSION_END(e.ts, INTERVAL '4' SECOND) AS en FROM ev AS e"
                        + " GROUP BY e.k, SESSION(e.ts, INTERVAL '4' SECOND)",
                "SELECT k, count(*) AS c, min(ts) AS st, max(ts) + INTERVAL '4 seconds' AS en FROM "
                        + pgSessions("k", "4 seconds") + " GROUP BY k, session",
                300,
                "cleaned when watermark >= $"
            },
            new Object[] {
                "SELECT k, g, window_end, max(v) AS m FROM TABLE(SESSION(TABLE ev, DESCRIPTOR(ts),"
                        + " DESCRIPTOR(k, g), INTERVAL '3' SECOND)) GROUP BY k, g, window_end",
                "SELECT k, g, max(ts) + INTERVAL '3 seconds' AS window_end, max(v) AS m FROM "
                        + pgSessions("k, g", "3 seconds") + " GROUP BY k, g, session",
                300,
                "cleaned when watermark >= $"
            });

    private static final String EOWC = "SELECT k, window_start, window_end, count(*) AS c, sum(v) AS s"
            + " FROM SESSION(ev PARTITION BY k, ts, INTERVAL '3' SECOND) GROUP BY k, window_start, window_end"
            + " EMIT ON WINDOW CLOSE";
    /** {@link #EOWC}'s rows in PostgreSQL: the sessions that end before the watermark (times are whole ms). */
    private static final String EOWC_PG = "SELECT * FROM (" + CASES.get(0)[1] + ") w WHERE window_end < TIMESTAMP '%s'";

    private static EmbeddedPostgres postgres;
    private static Connection pg;
    private static Path dir;

    private ServedDatabase served;
    /** The most state keys seen per view, printed to show the margin under the bounds. */
    private final long[] mostKeys = new long[CASES.size()];

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        pg = postgres.getPostgresDatabase().getConnection();
        pg.setAutoCommit(true);
        dir = Files.createTempDirectory("session-cleaning-");
    }

    @AfterAll
    static void stop() throws Exception {
        pg.close();
        postgres.close();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** PostgreSQL's sessions of {@code ev} per {@code partition}: gaps and islands, numbered per partition. */
    private static String pgSessions(String partition, String gap) {
        String order = "OVER (PARTITION BY " + partition + " ORDER BY ts";
        return "(SELECT *, sum(starts) " + order + " ROWS UNBOUNDED PRECEDING) AS session FROM (SELECT *, CASE WHEN"
                + " ts - lag(ts) " + order + ") <= INTERVAL '" + gap + "' THEN 0 ELSE 1 END AS starts"
                + " FROM ev WHERE ts IS NOT NULL) marked) sessions";
    }

    @Test
    void sessionStateStaysBoundedAndViewsMatchPostgresOverOnTimeRows() throws Exception {
        Random r = new Random(SEED);
        try (Statement p = pg.createStatement()) {
            p.execute("CREATE TABLE ev (id INT, k INT, g INT, v INT, ts TIMESTAMP)");
        }
        long inserted = 0;
        served = ServedDatabase.open(dir, 20);
        try (Connection c = served.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ev (id INT, k INT, g INT, v INT, ts TIMESTAMP,"
                    + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)");
            for (int i = 0; i < CASES.size(); i++) {
                st.execute("CREATE MATERIALIZED VIEW s" + i + " AS " + CASES.get(i)[0]);
                String plan = explain(st, (String) CASES.get(i)[0]);
                assertTrue(plan.contains((String) CASES.get(i)[3]), "s" + i + " plans its cleaning:\n" + plan);
                assertEquals(3, occurrences(plan, "sessions cleaned when watermark > last"), "s" + i + ":\n" + plan);
            }
            st.execute("CREATE MATERIALIZED VIEW closed AS " + EOWC);
            List<String> emitted = List.of();
            for (int round = 0; round < ROUNDS; round++) {
                st.execute(insert(r, round));
                inserted += ROWS_PER_ROUND;
                if (round >= 5) {
                    checkBounded("round " + round);
                }
                List<String> now = rows(st, "SELECT * FROM closed");
                assertTrue(now.containsAll(emitted), "round " + round + ": a closed session's row changed or went");
                emitted = now;
            }
            compare(st, inserted, "after " + ROUNDS + " rounds");
            compareClosed(st, "closed", "after " + ROUNDS + " rounds");
        }
        served.close();
        served = ServedDatabase.open(dir, 20);
        try (Connection c = served.connect();
                Statement st = c.createStatement()) {
            compare(st, inserted, "after a restart");
            st.execute("CREATE MATERIALIZED VIEW closed_later AS " + EOWC);
            for (int round = ROUNDS; round < ROUNDS + 20; round++) {
                st.execute(insert(r, round));
                inserted += ROWS_PER_ROUND;
                checkBounded("round " + round + " after the restart");
            }
            compare(st, inserted, "after the restart and more rounds");
            compareClosed(st, "closed", "after the restart and more rounds");
            compareClosed(st, "closed_later", "backfilled, after the restart and more rounds");
        }
        served.close();
        System.out.println("most state keys per view: " + Arrays.toString(mostKeys));
    }

    /**
     * One INSERT (one epoch) of rows around {@code round}'s ten seconds, from 15 s before to 10 s after
     * its start, in whole milliseconds; partition {@code k} drifts with the rounds, so partitions
     * keep appearing and falling idle, and {@code g} has three values, whose sessions keep merging.
     */
    private static String insert(Random r, int round) {
        StringJoiner rows = new StringJoiner(", ", "INSERT INTO ev VALUES ", "");
        LocalDateTime base = T0.plusSeconds(10L * round);
        for (int i = 0; i < ROWS_PER_ROUND; i++) {
            LocalDateTime ts = base.plusNanos((r.nextInt(25_000) - 15_000) * 1_000_000L);
            rows.add("(" + (round * ROWS_PER_ROUND + i) + ", " + (round / 4 + r.nextInt(6)) + ", " + r.nextInt(3) + ", "
                    + r.nextInt(1000) + ", TIMESTAMP '" + ts.toString().replace('T', ' ') + "')");
        }
        return rows.toString();
    }

    /** Every view's state keys stay under its bound. */
    private void checkBounded(String when) {
        for (int i = 0; i < CASES.size(); i++) {
            long keys = served.stateKeys("s" + i);
            mostKeys[i] = Math.max(mostKeys[i], keys);
            int bound = (Integer) CASES.get(i)[2];
            assertTrue(keys <= bound, when + ": s" + i + " holds " + keys + " state keys, more than " + bound);
        }
    }

    /** Views equal PostgreSQL's queries over the rows the table kept; every inserted row is kept or late. */
    private void compare(Statement st, long inserted, String when) throws SQLException {
        long kept = scalar(st, "SELECT count(*) FROM ev");
        long late = scalar(st, "SELECT late_rows FROM tributary_catalog.watermarks WHERE table_name = 'ev'");
        assertEquals(inserted, kept + late, when + ": kept " + kept + " + late " + late);
        assertTrue(late > 0 && kept > 0, when + ": some rows are late, some on time");
        try (Statement p = pg.createStatement()) {
            p.execute("TRUNCATE ev");
            StringJoiner copy = new StringJoiner(", ", "INSERT INTO ev VALUES ", "");
            for (String row : rows(st, "SELECT id, k, g, v, ts FROM ev")) {
                String[] f = row.split("\\|");
                copy.add("(" + f[0] + ", " + f[1] + ", " + f[2] + ", " + f[3] + ", TIMESTAMP '" + f[4] + "')");
            }
            p.execute(copy.toString());
            for (int i = 0; i < CASES.size(); i++) {
                List<String> expected = rows(p, (String) CASES.get(i)[1]);
                assertEquals(expected, rows(st, "SELECT * FROM s" + i), when + ": s" + i);
                // three window functions' tables keep every row if no session were forgotten
                int bound = (Integer) CASES.get(i)[2];
                assertTrue(
                        2L * bound < kept,
                        when + ": s" + i + "'s bound " + bound + " against " + kept + " rows; most keys seen "
                                + Arrays.toString(mostKeys));
            }
        }
    }

    /**
     * The EMIT ON WINDOW CLOSE view {@code view} holds PostgreSQL's rows of the sessions the
     * watermark closed: polled, as a session closes at the first barrier after the watermark passed it.
     */
    private void compareClosed(Statement st, String view, String when) throws Exception {
        String watermark = rows(st, "SELECT watermark FROM tributary_catalog.watermarks WHERE table_name = 'ev'")
                .get(0);
        List<String> expected;
        try (Statement p = pg.createStatement()) {
            expected = rows(p, EOWC_PG.formatted(watermark));
        }
        assertTrue(expected.size() > 10, when + ": " + expected.size() + " closed sessions");
        long deadline = System.currentTimeMillis() + 10_000;
        List<String> actual = rows(st, "SELECT * FROM " + view);
        while (!actual.equals(expected) && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
            actual = rows(st, "SELECT * FROM " + view);
        }
        assertEquals(expected, actual, when + ": " + view + " at watermark " + watermark);
    }

    private static String explain(Statement st, String query) throws SQLException {
        return String.join("\n", rows(st, "EXPLAIN CREATE MATERIALIZED VIEW x AS " + query));
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
