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
 * Joins that forget state under {@code kill -9}: views joining a watermarked datagen table (one
 * second of event time per row) on window bounds (Nexmark q8's shape) and by an interval of time
 * (q7's, and a join within seconds either way) are killed twice while the source runs. After the
 * restarts every view equals PostgreSQL's query over the rows the table kept, so no joined row
 * was lost or doubled by a forget that committed with or without its epoch; and the views' state
 * holds a few windows' rows, not the table's.
 */
class JoinCleaningCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 1_500;
    private static final int KILLS = 2;
    /** The most state keys a view may hold at the end: a few windows' rows, far below {@link #ROWS}. */
    private static final long MAX_STATE_KEYS = 150;

    private static final String EPOCH = "TIMESTAMP '1970-01-01'";

    /** Each view: Tributary's query, PostgreSQL's. */
    private static final List<String[]> VIEWS = List.of(
            new String[] {
                "SELECT x.id, x.price, x.ts FROM bid x JOIN (SELECT max(price) AS maxprice, window_end AS we"
                        + " FROM TUMBLE(bid, ts, INTERVAL '10' SECOND) GROUP BY window_end) w"
                        + " ON x.price = w.maxprice WHERE x.ts BETWEEN w.we - INTERVAL '10' SECOND AND w.we",
                "SELECT x.id, x.price, x.ts FROM bid x JOIN (SELECT max(price) AS maxprice, date_bin('10 seconds', ts, "
                        + EPOCH + ") + INTERVAL '10 seconds' AS we FROM bid GROUP BY 2) w"
                        + " ON x.price = w.maxprice WHERE x.ts BETWEEN w.we - INTERVAL '10 seconds' AND w.we"
            },
            new String[] {
                "SELECT x.id AS xid, y.id AS yid FROM bid x JOIN bid y ON x.id % 4 = y.id % 4"
                        + " AND x.ts BETWEEN y.ts - INTERVAL '3' SECOND AND y.ts + INTERVAL '2' SECOND",
                "SELECT x.id AS xid, y.id AS yid FROM bid x JOIN bid y ON x.id % 4 = y.id % 4"
                        + " AND x.ts BETWEEN y.ts - INTERVAL '3' SECOND AND y.ts + INTERVAL '2' SECOND"
            },
            new String[] {
                "SELECT p.ws, p.c, q.c AS c2 FROM (SELECT window_start AS ws, count(*) AS c"
                        + " FROM TUMBLE(bid, ts, INTERVAL '10' SECOND) GROUP BY window_start) p"
                        + " JOIN (SELECT window_start AS ws, count(*) AS c FROM TUMBLE(bid, ts, INTERVAL '5' SECOND)"
                        + " GROUP BY window_start) q ON p.ws = q.ws",
                "SELECT p.ws, p.c, q.c AS c2 FROM (SELECT date_bin('10 seconds', ts, " + EPOCH
                        + ") AS ws, count(*) AS c"
                        + " FROM bid GROUP BY 1) p JOIN (SELECT date_bin('5 seconds', ts, " + EPOCH + ") AS ws,"
                        + " count(*) AS c FROM bid GROUP BY 1) q ON p.ws = q.ws"
            });

    @TempDir
    Path dataDir;

    @RegisterExtension
    final SourceServers servers = new SourceServers(BARRIER_INTERVAL_MS);

    @Test
    void cleaningJoinsMatchPostgresAndStayBoundedThroughKill9() throws Exception {
        long seed = Long.getLong("joincleaningcrash.seed", System.nanoTime());
        System.out.println("join cleaning crash seed " + seed);
        Random random = new Random(seed);
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE bid (id BIGINT, price INT, ts TIMESTAMP,"
                    + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'datagen',"
                    + " fields.id.kind = 'sequence', fields.id.start = '0', fields.id.end = '" + (ROWS - 1) + "',"
                    + " fields.ts.kind = 'sequence', fields.ts.start = '2024-01-01 00:00:00',"
                    + " fields.price.seed = '" + seed
                    + "', datagen.split.num = '2')");
            // paused while the views are created, so the kills below fall while rows stream through them
            st.execute("ALTER TABLE bid SET SOURCE_RATE_LIMIT = 0");
            for (int i = 0; i < VIEWS.size(); i++) {
                String plan =
                        String.join("\n", Sql.rows(st, "EXPLAIN CREATE MATERIALIZED VIEW x AS " + VIEWS.get(i)[0]));
                assertTrue(plan.contains("cleaned when watermarks") || plan.contains("interval cleaning"), plan);
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
            p.execute("CREATE TABLE bid (id BIGINT, price INT, ts TIMESTAMP)");
            List<String> kept = Sql.rows(st, "SELECT id, price, ts FROM bid");
            for (int from = 0; from < kept.size(); from += 1_000) {
                StringJoiner insert = new StringJoiner(", ", "INSERT INTO bid VALUES ", "");
                for (String row : kept.subList(from, Math.min(kept.size(), from + 1_000))) {
                    String[] f = row.split("\\|");
                    insert.add("(" + f[0] + ", " + f[1] + ", TIMESTAMP '" + f[2] + "')");
                }
                p.execute(insert.toString());
            }
            // a view commits with the table rows it read: every row is in, so the views are complete
            for (int i = 0; i < VIEWS.size(); i++) {
                List<String> expected = Sql.rows(p, VIEWS.get(i)[1]);
                assertTrue(expected.size() > 50, "v" + i + " has rows to compare: " + expected.size());
                assertEquals(expected, Sql.rows(st, "SELECT * FROM v" + i), "v" + i + " (seed " + seed + ")");
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
