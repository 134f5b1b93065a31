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
 * Window aggregates over a watermarked table forget finished windows: while rows keep arriving
 * (ten seconds of event time per round, some of them later than the watermark), the keys in each
 * view's state tables stay below a fixed number, though the views' rows keep growing; and each
 * view equals PostgreSQL's query over the rows the table kept (the on-time ones), before and
 * after a restart. An EMIT ON WINDOW CLOSE view only ever gains rows, and holds exactly the
 * windows the watermark closed, with PostgreSQL's values; so does one created after the rows
 * (backfilled) and after a restart.
 */
class WindowStateCleaningTest implements CleaningRounds.Workload {
    private static final long SEED = 20261202L;
    private static final int ROUNDS = 60;
    private static final int ROWS_PER_ROUND = 50;
    private static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 1, 10, 0);

    /** Each case: Tributary's view query, PostgreSQL's equivalent, the most state keys allowed. */
    private static final List<Object[]> CASES = List.of(
            new Object[] {
                "SELECT window_start, window_end, count(*) AS c, sum(v) AS s"
                        + " FROM TUMBLE(ev, ts, INTERVAL '10' SECOND) GROUP BY window_start, window_end",
                "SELECT date_bin('10 seconds', ts, TIMESTAMP '1970-01-01') AS window_start,"
                        + " date_bin('10 seconds', ts, TIMESTAMP '1970-01-01') + INTERVAL '10 seconds' AS window_end,"
                        + " count(*) AS c, sum(v) AS s FROM ev WHERE ts IS NOT NULL GROUP BY 1, 2",
                10
            },
            new Object[] {
                "SELECT k, window_start, max(v) AS m FROM TUMBLE(ev, ts, INTERVAL '1' MINUTE) GROUP BY k, window_start",
                "SELECT k, date_bin('1 minute', ts, TIMESTAMP '1970-01-01') AS window_start, max(v) AS m"
                        + " FROM ev WHERE ts IS NOT NULL GROUP BY 1, 2",
                400
            },
            new Object[] {
                "SELECT window_start, count(*) AS c, min(v) AS m"
                        + " FROM HOP(ev, ts, INTERVAL '5' SECOND, INTERVAL '15' SECOND) GROUP BY window_start",
                "SELECT date_bin('5 seconds', ts, TIMESTAMP '1970-01-01') - i * INTERVAL '5 seconds' AS window_start,"
                        + " count(*) AS c, min(v) AS m FROM ev CROSS JOIN generate_series(0, 2) AS g(i)"
                        + " WHERE ts IS NOT NULL GROUP BY 1",
                400
            });

    private static final String EOWC = "SELECT window_start, window_end, count(*) AS c, sum(v) AS s"
            + " FROM TUMBLE(ev, ts, INTERVAL '10' SECOND) GROUP BY window_start, window_end EMIT ON WINDOW CLOSE";
    /** {@link #EOWC}'s rows in PostgreSQL: the windows that end at or before the watermark. */
    private static final String EOWC_PG =
            "SELECT * FROM (" + CASES.get(0)[1] + ") w WHERE window_end <= TIMESTAMP '%s'";

    @RegisterExtension
    static final PostgresOracle postgres = new PostgresOracle();

    @TempDir
    static Path dir;

    private final Random r = new Random(SEED);
    private final StateKeyBounds bounds =
            new StateKeyBounds("w", CASES.stream().mapToInt(c -> (Integer) c[2]).toArray());
    private final ClosedWindowsCheck closed = new ClosedWindowsCheck(postgres, "ev", EOWC_PG, "window");

    @Test
    void windowStateStaysBoundedAndViewsMatchPostgresOverOnTimeRows() throws Exception {
        postgres.execute("CREATE TABLE ev (id INT, k INT, v INT, ts TIMESTAMP)");
        CleaningRounds.run(dir, ROUNDS, ROWS_PER_ROUND, EOWC, bounds, closed, this);
        System.out.println("most state keys per view: " + bounds);
    }

    /** The watermarked table {@code ev} and the views under test, whose plans clean their state. */
    @Override
    public void create(Statement st) throws SQLException {
        st.execute("CREATE TABLE ev (id INT, k INT, v INT, ts TIMESTAMP,"
                + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)");
        for (int i = 0; i < CASES.size(); i++) {
            st.execute("CREATE MATERIALIZED VIEW w" + i + " AS " + CASES.get(i)[0]);
            String plan = explainView(st, (String) CASES.get(i)[0]);
            assertTrue(plan.contains("cleaned when watermark"), "w" + i + " plans cleaning:\n" + plan);
        }
    }

    /** One INSERT (one epoch) of rows around {@code round}'s ten seconds, from 15 s before to 10 s after its start. */
    @Override
    public String insert(int round) {
        StringJoiner rows = new StringJoiner(", ", "INSERT INTO ev VALUES ", "");
        LocalDateTime base = T0.plusSeconds(10L * round);
        for (int i = 0; i < ROWS_PER_ROUND; i++) {
            LocalDateTime ts = base.plusNanos((r.nextInt(25_000) - 15_000) * 1_000_000L);
            rows.add("(" + (round * ROWS_PER_ROUND + i) + ", " + r.nextInt(5) + ", " + r.nextInt(1000) + ", TIMESTAMP '"
                    + ts.toString().replace('T', ' ') + "')");
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
        postgres.replaceRows("ev", rows(st, "SELECT id, k, v, ts FROM ev"));
        for (int i = 0; i < CASES.size(); i++) {
            assertEquals(postgres.rows((String) CASES.get(i)[1]), rows(st, "SELECT * FROM w" + i), when + ": w" + i);
        }
        // the bounds are far below the rows, which state would grow with if no window were forgotten
        bounds.checkFarBelow(kept, 3, when);
    }
}
