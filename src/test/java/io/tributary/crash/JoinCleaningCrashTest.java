package io.tributary.crash;

import io.tributary.meta.PostgresOracle;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
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
    final RestartingServer servers = new RestartingServer(BARRIER_INTERVAL_MS);

    @RegisterExtension
    static final PostgresOracle postgres = new PostgresOracle();

    @Test
    void cleaningJoinsMatchPostgresAndStayBoundedThroughKill9() throws Exception {
        long seed = Long.getLong("joincleaningcrash.seed", System.nanoTime());
        System.out.println("join cleaning crash seed " + seed);
        CleaningViewsCrash run = new CleaningViewsCrash(servers, dataDir, BARRIER_INTERVAL_MS, "bid", ROWS, seed);
        run.createViews(
                "price INT",
                "fields.price.seed = '" + seed + "'",
                VIEWS.stream().map(v -> v[0]).toList(),
                "cleaned when watermarks",
                "interval cleaning");
        run.killWhileStreaming(KILLS, new Random(seed));
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            postgres.execute("CREATE TABLE bid (id BIGINT, price INT, ts TIMESTAMP)");
            run.awaitAndCopyKeptRows(st, postgres, "id, price, ts");
            // a view commits with the table rows it read: every row is in, so the views are complete
            run.checkViews(st, postgres, VIEWS.stream().map(v -> v[1]).toList(), 0);
        }
        run.checkStateKeys(VIEWS.size(), MAX_STATE_KEYS);
    }
}
