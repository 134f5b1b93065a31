package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Processing time under {@code kill -9}: a datagen source fills a table without a primary key that has a
 * {@code p_time TIMESTAMPTZ AS PROCTIME()} column, read by a window aggregate over {@code p_time} (Nexmark q12's
 * shape) and by a temporal join with a keyed side table (q13's); the server is killed twice while the source runs
 * and restarted on the same data directory. In the end the table holds every generated row once, the window
 * view equals its query over the stored rows (so the view saw each row once, with the time that was stored with
 * it), and the join holds one row per event with its side value. Rerun a seed with
 * {@code -Dproctimecrash.seed=N}.
 */
class ProcTimeCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 20_000;
    private static final int KILLS = 2;
    private static final String WINDOWS = "SELECT window_start, count(*) AS c, sum(id) AS s"
            + " FROM TUMBLE(events, p_time, INTERVAL '1' SECOND) GROUP BY window_start";
    private static final String JOINED = "SELECT E.id, E.auction, S.value FROM events E"
            + " JOIN side_input FOR SYSTEM_TIME AS OF PROCTIME() S ON mod(E.auction, 1000) = S.key";

    @TempDir
    Path dataDir;

    @RegisterExtension
    final RestartingServer servers = new RestartingServer(BARRIER_INTERVAL_MS);

    @Test
    void processingTimeViewsLoseAndDoubleNothingThroughKill9() throws Exception {
        long seed = Long.getLong("proctimecrash.seed", System.nanoTime());
        System.out.println("proctime crash seed " + seed);
        Random random = new Random(seed);
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE side_input (key BIGINT PRIMARY KEY, value VARCHAR)");
            st.execute("INSERT INTO side_input SELECT v, 'v' || v FROM generate_series(0, 999) AS t(v)");
            st.execute("CREATE TABLE events (id BIGINT, auction BIGINT, p_time TIMESTAMPTZ AS PROCTIME())"
                    + " WITH (connector = 'datagen', fields.id.kind = 'sequence', fields.id.end = '" + ROWS + "',"
                    + " fields.auction.end = '4999', fields.auction.seed = '" + seed + "',"
                    + " datagen.rows.per.second = '3000', datagen.split.num = '2')");
            st.execute("CREATE MATERIALIZED VIEW windows AS " + WINDOWS);
            st.execute("CREATE MATERIALIZED VIEW joined AS " + JOINED);
        }
        for (int kill = 0; kill < KILLS; kill++) {
            long seen = servers.killWhileProgressing("SELECT count(*) FROM events", ROWS, 500, random);
            System.out.printf("  kill %d: %d of %d rows seen before%n", kill, seen, ROWS);
            servers.start(dataDir);
        }
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            long deadline = System.currentTimeMillis() + 60_000;
            while (Sql.scalar(st, "SELECT count(*) FROM events") < ROWS && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(
                    List.of((long) ROWS, (long) ROWS, (long) ROWS),
                    List.of(
                            Sql.scalar(st, "SELECT count(*) FROM events"),
                            Sql.scalar(st, "SELECT count(DISTINCT id) FROM events"),
                            Sql.scalar(st, "SELECT count(p_time) FROM events")),
                    "events: rows, distinct ids, stamped rows (seed " + seed + ")");
            assertEquals(Sql.rows(st, WINDOWS), Sql.rows(st, "SELECT * FROM windows"), "windows (seed " + seed + ")");
            assertEquals(
                    List.of((long) ROWS, (long) ROWS),
                    List.of(
                            Sql.scalar(st, "SELECT count(*) FROM joined"),
                            Sql.scalar(st, "SELECT count(DISTINCT id) FROM joined")),
                    "joined: rows, distinct ids (seed " + seed + ")");
            // the side input never changed: every event joined the value its key has now
            assertEquals(Sql.rows(st, JOINED), Sql.rows(st, "SELECT id, auction, value FROM joined"), "joined");
        }
    }
}
