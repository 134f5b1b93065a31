package io.tributary.meta;

import static io.tributary.meta.ServedDatabase.explainView;
import static io.tributary.meta.ServedDatabase.lateRows;
import static io.tributary.meta.ServedDatabase.rows;
import static io.tributary.meta.ServedDatabase.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
class SessionStateCleaningTest implements CleaningRounds.Workload {
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

    @RegisterExtension
    static final PostgresOracle postgres = new PostgresOracle();

    @TempDir
    static Path dir;

    private final Random r = new Random(SEED);
    private final StateKeyBounds bounds =
            new StateKeyBounds("s", CASES.stream().mapToInt(c -> (Integer) c[2]).toArray());
    private final ClosedWindowsCheck closed = new ClosedWindowsCheck(postgres, "ev", EOWC_PG, "session");

    /** PostgreSQL's sessions of {@code ev} per {@code partition}: gaps and islands, numbered per partition. */
    private static String pgSessions(String partition, String gap) {
        String order = "OVER (PARTITION BY " + partition + " ORDER BY ts";
        return "(SELECT *, sum(starts) " + order + " ROWS UNBOUNDED PRECEDING) AS session FROM (SELECT *, CASE WHEN"
                + " ts - lag(ts) " + order + ") <= INTERVAL '" + gap + "' THEN 0 ELSE 1 END AS starts"
                + " FROM ev WHERE ts IS NOT NULL) marked) sessions";
    }

    @Test
    void sessionStateStaysBoundedAndViewsMatchPostgresOverOnTimeRows() throws Exception {
        postgres.execute("CREATE TABLE ev (id INT, k INT, g INT, v INT, ts TIMESTAMP)");
        CleaningRounds.run(dir, ROUNDS, ROWS_PER_ROUND, EOWC, bounds, closed, this);
        System.out.println("most state keys per view: " + bounds);
    }

    /** The watermarked table {@code ev} and the views under test, whose plans clean their state. */
    @Override
    public void create(Statement st) throws SQLException {
        st.execute("CREATE TABLE ev (id INT, k INT, g INT, v INT, ts TIMESTAMP,"
                + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)");
        for (int i = 0; i < CASES.size(); i++) {
            st.execute("CREATE MATERIALIZED VIEW s" + i + " AS " + CASES.get(i)[0]);
            String plan = explainView(st, (String) CASES.get(i)[0]);
            assertTrue(plan.contains((String) CASES.get(i)[3]), "s" + i + " plans its cleaning:\n" + plan);
            assertEquals(3, occurrences(plan, "sessions cleaned when watermark > last"), "s" + i + ":\n" + plan);
        }
    }

    /**
     * One INSERT (one epoch) of rows around {@code round}'s ten seconds, from 15 s before to 10 s after
     * its start, in whole milliseconds; partition {@code k} drifts with the rounds, so partitions
     * keep appearing and falling idle, and {@code g} has three values, whose sessions keep merging.
     */
    @Override
    public String insert(int round) {
        StringJoiner rows = new StringJoiner(", ", "INSERT INTO ev VALUES ", "");
        LocalDateTime base = T0.plusSeconds(10L * round);
        for (int i = 0; i < ROWS_PER_ROUND; i++) {
            LocalDateTime ts = base.plusNanos((r.nextInt(25_000) - 15_000) * 1_000_000L);
            rows.add("(" + (round * ROWS_PER_ROUND + i) + ", " + (round / 4 + r.nextInt(6)) + ", " + r.nextInt(3) + ", "
                    + r.nextInt(1000) + ", TIMESTAMP '" + ts.toString().replace('T', ' ') + "')");
        }
        return rows.toString();
    }

    /** Views equal PostgreSQL's queries over the rows the table kept; every inserted row is kept or late. */
    @Override
    public void compare(Statement st, long inserted, String when) throws SQLException {
        long kept = scalar(st, "SELECT count(*) FROM ev");
        long late = lateRows(st, "ev");
        assertEquals(inserted, kept + late, when + ": kept " + kept + " + late " + late);
        assertTrue(late > 0 && kept > 0, when + ": some rows are late, some on time");
        postgres.replaceRows("ev", rows(st, "SELECT id, k, g, v, ts FROM ev"));
        for (int i = 0; i < CASES.size(); i++) {
            assertEquals(postgres.rows((String) CASES.get(i)[1]), rows(st, "SELECT * FROM s" + i), when + ": s" + i);
        }
        // three window functions' tables keep every row if no session were forgotten
        bounds.checkFarBelow(kept, 2, when);
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
