package io.tributary.crash;

import io.tributary.meta.PostgresOracle;
import io.tributary.meta.ServedDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * SESSION views that forget closed sessions, under {@code kill -9}: a watermarked datagen table (one
 * second of event time per row, rows of random partitions, so sessions keep growing and closing)
 * feeds a session aggregate, the sessions' rows ungrouped and an EMIT ON WINDOW CLOSE aggregate,
 * and is killed twice while the source runs. After the restarts each view equals PostgreSQL's gaps
 * and islands over the rows the table kept (the EMIT ON WINDOW CLOSE view: the sessions the
 * watermark closed), so no row was lost or doubled by a forget that committed with or without its
 * epoch; and the views' state holds a few sessions' rows, not the table's.
 */
class SessionCleaningCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 1_500;
    private static final int KILLS = 2;
    /** The most state keys a view may hold at the end: a few sessions' rows, far below {@link #ROWS}. */
    private static final long MAX_STATE_KEYS = 150;

    private static final String SESSIONS = "(SELECT *, sum(starts) OVER (PARTITION BY k ORDER BY ts ROWS UNBOUNDED"
            + " PRECEDING) AS session FROM (SELECT *, CASE WHEN ts - lag(ts) OVER (PARTITION BY k ORDER BY ts)"
            + " <= INTERVAL '5 seconds' THEN 0 ELSE 1 END AS starts FROM bid) marked) sessions";
    private static final String AGGREGATE_PG = "SELECT k, min(ts) AS window_start, max(ts) + INTERVAL '5 seconds'"
            + " AS window_end, count(*) AS c, sum(id) AS s FROM " + SESSIONS + " GROUP BY k, session";

    /** Each view: Tributary's query, PostgreSQL's (with the watermark for {@code %s}). */
    private static final List<String[]> VIEWS = List.of(
            new String[] {
                "SELECT k, window_start, window_end, count(*) AS c, sum(id) AS s"
                        + " FROM SESSION(bid PARTITION BY k, ts, INTERVAL '5' SECOND) GROUP BY k, window_start, window_end",
                AGGREGATE_PG
            },
            new String[] {
                "SELECT id, window_start, window_end FROM SESSION(bid PARTITION BY k, ts, INTERVAL '5' SECOND)",
                "SELECT id, min(ts) OVER (PARTITION BY k, session) AS window_start,"
                        + " max(ts) OVER (PARTITION BY k, session) + INTERVAL '5 seconds' AS window_end FROM "
                        + SESSIONS
            },
            new String[] {
                "SELECT k, window_start, window_end, count(*) AS c, sum(id) AS s"
                        + " FROM SESSION(bid PARTITION BY k, ts, INTERVAL '5' SECOND) GROUP BY k, window_start, window_end"
                        + " EMIT ON WINDOW CLOSE",
                "SELECT * FROM (" + AGGREGATE_PG + ") w WHERE window_end < TIMESTAMP '%s'"
            });

    @TempDir
    Path dataDir;

    @RegisterExtension
    final RestartingServer servers = new RestartingServer(BARRIER_INTERVAL_MS);

    @RegisterExtension
    static final PostgresOracle postgres = new PostgresOracle();

    @Test
    void cleanedSessionViewsMatchPostgresAndStayBoundedThroughKill9() throws Exception {
        long seed = Long.getLong("sessioncleaningcrash.seed", System.nanoTime());
        System.out.println("session cleaning crash seed " + seed);
        CleaningViewsCrash run = new CleaningViewsCrash(servers, dataDir, BARRIER_INTERVAL_MS, "bid", ROWS, seed);
        run.createViews(
                "k INT",
                "fields.k.kind = 'random', fields.k.start = '0', fields.k.end = '3', fields.k.seed = '" + seed + "'",
                VIEWS.stream().map(v -> v[0]).toList(),
                "sessions cleaned when watermark");
        run.killWhileStreaming(KILLS, new Random(seed));
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            postgres.execute("CREATE TABLE bid (id BIGINT, k INT, ts TIMESTAMP)");
            run.awaitAndCopyKeptRows(st, postgres, "id, k, ts");
            String watermark = ServedDatabase.watermark(st, "bid");
            // a view commits with the table rows it read, and a closed session's row comes at the next
            // barrier: poll
            run.checkViews(
                    st,
                    postgres,
                    VIEWS.stream().map(v -> v[1].formatted(watermark)).toList(),
                    10_000);
        }
        run.checkStateKeys(VIEWS.size(), MAX_STATE_KEYS);
    }
}
