package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.meta.Cluster;
import io.tributary.meta.ServedDatabase;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
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
    final SourceServers servers = new SourceServers(BARRIER_INTERVAL_MS);

    @Test
    void cleanedSessionViewsMatchPostgresAndStayBoundedThroughKill9() throws Exception {
        long seed = Long.getLong("sessioncleaningcrash.seed", System.nanoTime());
        System.out.println("session cleaning crash seed " + seed);
        Random random = new Random(seed);
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE bid (id BIGINT, k INT, ts TIMESTAMP,"
                    + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'datagen',"
                    + " fields.id.kind = 'sequence', fields.id.start = '0', fields.id.end = '" + (ROWS - 1) + "',"
                    + " fields.ts.kind = 'sequence', fields.ts.start = '2024-01-01 00:00:00',"
                    + " fields.k.kind = 'random', fields.k.start = '0', fields.k.end = '3', fields.k.seed = '" + seed
                    + "', datagen.split.num = '2')");
            // paused while the views are created, so the kills below fall while rows stream through them
            st.execute("ALTER TABLE bid SET SOURCE_RATE_LIMIT = 0");
            for (int i = 0; i < VIEWS.size(); i++) {
                String plan =
                        String.join("\n", Sql.rows(st, "EXPLAIN CREATE MATERIALIZED VIEW x AS " + VIEWS.get(i)[0]));
                assertTrue(plan.contains("sessions cleaned when watermark"), plan);
                st.execute("CREATE MATERIALIZED VIEW v" + i + " AS " + VIEWS.get(i)[0]);
            }
            st.execute("ALTER TABLE bid SET SOURCE_RATE_LIMIT = 200");
        }
        String progress = "SELECT count(*) + (SELECT late_rows FROM tributary_catalog.watermarks"
                + " WHERE table_name = 'bid') FROM bid";
        for (int kill = 0; kill < KILLS; kill++) {
            long seen = servers.killWhileProgressing(progress, ROWS, 400, random);
            System.out.printf("  kill %d: %d of %d rows stored or late before%n", kill, seen, ROWS);
            if (kill == 0) {
                assertTrue(seen < ROWS, "the first kill falls while rows stream (seed " + seed + ")");
            }
            servers.start(dataDir);
        }
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
                Connection pg = postgres.getPostgresDatabase().getConnection();
                Statement p = pg.createStatement();
                Connection c = servers.connect();
                Statement st = c.createStatement()) {
            // the source is rate-limited, and slower still on a loaded machine
            long deadline = System.currentTimeMillis() + 240_000;
            while (Sql.scalar(st, progress) < ROWS && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(ROWS, Sql.scalar(st, progress), "every row stored or late (seed " + seed + ")");
            assertEquals(
                    Sql.scalar(st, "SELECT count(*) FROM bid"), Sql.scalar(st, "SELECT count(DISTINCT id) FROM bid"));
            p.execute("CREATE TABLE bid (id BIGINT, k INT, ts TIMESTAMP)");
            List<String> kept = Sql.rows(st, "SELECT id, k, ts FROM bid");
            for (int from = 0; from < kept.size(); from += 1_000) {
                StringJoiner insert = new StringJoiner(", ", "INSERT INTO bid VALUES ", "");
                for (String row : kept.subList(from, Math.min(kept.size(), from + 1_000))) {
                    String[] f = row.split("\\|");
                    insert.add("(" + f[0] + ", " + f[1] + ", TIMESTAMP '" + f[2] + "')");
                }
                p.execute(insert.toString());
            }
            String watermark = Sql.rows(
                            st, "SELECT watermark FROM tributary_catalog.watermarks" + " WHERE table_name = 'bid'")
                    .get(0);
            // a view commits with the table rows it read, and a closed session's row comes at the next
            // barrier: poll
            for (int i = 0; i < VIEWS.size(); i++) {
                List<String> expected = Sql.rows(p, VIEWS.get(i)[1].formatted(watermark));
                assertTrue(expected.size() > 50, "v" + i + " has rows to compare: " + expected.size());
                long until = System.currentTimeMillis() + 10_000;
                List<String> actual = Sql.rows(st, "SELECT * FROM v" + i);
                while (!actual.equals(expected) && System.currentTimeMillis() < until) {
                    Thread.sleep(50);
                    actual = Sql.rows(st, "SELECT * FROM v" + i);
                }
                assertEquals(expected, actual, "v" + i + " (seed " + seed + ")");
            }
        }
        servers.stopAll();
        try (Cluster cluster = Cluster.open(dataDir, BARRIER_INTERVAL_MS, CalciteViewPlanner::new)) {
            var db = cluster.database("dev").orElseThrow();
            for (int i = 0; i < VIEWS.size(); i++) {
                long keys = ServedDatabase.stateKeys(db, "v" + i);
                System.out.printf("  v%d holds %d state keys%n", i, keys);
                assertTrue(keys <= MAX_STATE_KEYS, "v" + i + " holds " + keys + " state keys");
            }
        }
    }
}
