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
 * SESSION views under {@code kill -9}: a datagen table whose rows arrive in random time order (so new rows keep
 * merging sessions) feeds a grouped and an ungrouped session view and is killed twice while it ingests. Once
 * the source is done, each view holds exactly the rows of its query over the table (the ad-hoc query, which
 * {@code SessionWindowDifferentialTest} checks against PostgreSQL): no change lost or applied twice across the
 * restarts of the window-function state the sessions are kept in.
 */
class SessionWindowCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 6_000;
    private static final int KILLS = 2;

    private static final List<String> VIEWS = List.of(
            "SELECT k, window_start, window_end, count(*) AS c, sum(id) AS s"
                    + " FROM SESSION(ev PARTITION BY k, ts, INTERVAL '5' SECOND) GROUP BY k, window_start, window_end",
            "SELECT id, window_start, window_end FROM SESSION(ev PARTITION BY k, ts, INTERVAL '5' SECOND)");

    @TempDir
    Path dataDir;

    @RegisterExtension
    final RestartingServer servers = new RestartingServer(BARRIER_INTERVAL_MS);

    @Test
    void sessionViewsEqualTheirQueriesThroughKill9() throws Exception {
        long seed = Long.getLong("sessioncrash.seed", System.nanoTime());
        System.out.println("session crash seed " + seed);
        Random random = new Random(seed);
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ev (id BIGINT, k INT, ts TIMESTAMP) WITH (connector = 'datagen',"
                    + " fields.id.kind = 'sequence', fields.id.end = '" + ROWS + "',"
                    + " fields.k.kind = 'random', fields.k.start = '0', fields.k.end = '19', fields.k.seed = '" + seed
                    + "', fields.ts.start = '2024-01-01 00:00:00', fields.ts.end = '2024-01-01 00:30:00',"
                    + " fields.ts.seed = '" + (seed + 1) + "', datagen.rows.per.second = '400',"
                    + " datagen.split.num = '2')");
            for (int v = 0; v < VIEWS.size(); v++) {
                st.execute("CREATE MATERIALIZED VIEW s" + v + " AS " + VIEWS.get(v));
            }
        }
        for (int kill = 0; kill < KILLS; kill++) {
            long seen = servers.killWhileProgressing("SELECT count(*) FROM ev", ROWS, 400, random);
            System.out.printf("  kill %d: %d of %d rows stored before%n", kill, seen, ROWS);
            servers.start(dataDir);
        }
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            long deadline = System.currentTimeMillis() + 60_000;
            while (Sql.scalar(st, "SELECT count(*) FROM ev") < ROWS && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(ROWS, Sql.scalar(st, "SELECT count(*) FROM ev"), "rows generated");
            // a view answers for the epoch its last DML committed: one more write waits for the views
            st.execute("CREATE TABLE fence (x INT)");
            st.execute("INSERT INTO fence VALUES (1)");
            for (int v = 0; v < VIEWS.size(); v++) {
                List<String> expected = Sql.rows(st, VIEWS.get(v));
                assertEquals(expected, Sql.rows(st, "SELECT * FROM s" + v), "view s" + v + " (seed " + seed + ")");
            }
        }
    }
}
