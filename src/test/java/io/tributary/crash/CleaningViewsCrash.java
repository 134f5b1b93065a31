package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.meta.Cluster;
import io.tributary.meta.PostgresOracle;
import io.tributary.meta.ServedDatabase;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Random;

/**
 * The run of a state-cleaning crash test: views {@code v0, v1, ...} over a watermarked datagen
 * table that produces {@code rows} rows, killed with SIGKILL while rows stream through them, then
 * compared with PostgreSQL over the rows the table kept, and their state measured once the servers
 * are down. The test calls the steps in order from its test thread; the seed is in every message,
 * so a failure can be rerun.
 */
final class CleaningViewsCrash {
    /** How long the rate-limited source may take to finish after the kills, on a loaded machine. */
    private static final long FINISH_TIMEOUT_MS = 240_000;

    private final RestartingServer servers;
    private final Path dataDir;
    private final long barrierIntervalMs;
    private final String table;
    private final int rows;
    private final long seed;
    /** The rows stored plus the rows dropped as late: {@link #rows} once the source finished. */
    private final String progress;

    CleaningViewsCrash(
            RestartingServer servers, Path dataDir, long barrierIntervalMs, String table, int rows, long seed) {
        this.servers = servers;
        this.dataDir = dataDir;
        this.barrierIntervalMs = barrierIntervalMs;
        this.table = table;
        this.rows = rows;
        this.seed = seed;
        this.progress = "SELECT count(*) + (SELECT late_rows FROM tributary_catalog.watermarks"
                + " WHERE table_name = '" + table + "') FROM " + table;
    }

    /**
     * Starts the first server and creates the table: {@code id BIGINT} counting from 0, the
     * {@code otherColumns}, and {@code ts TIMESTAMP} one second per row from 2024-01-01 with a
     * watermark five seconds behind, from datagen in two splits with {@code otherFields} options.
     * Then, with its source paused so the kills fall while rows stream through them, it creates view
     * {@code vi} of each of {@code views}, whose plan must show one of {@code planMarkers} (its
     * cleaning), and lets the source run.
     */
    void createViews(String otherColumns, String otherFields, List<String> views, String... planMarkers)
            throws Exception {
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE " + table + " (id BIGINT, " + otherColumns + ", ts TIMESTAMP,"
                    + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (connector = 'datagen',"
                    + " fields.id.kind = 'sequence', fields.id.start = '0', fields.id.end = '" + (rows - 1) + "',"
                    + " fields.ts.kind = 'sequence', fields.ts.start = '2024-01-01 00:00:00', " + otherFields
                    + ", datagen.split.num = '2')");
            st.execute("ALTER TABLE " + table + " SET SOURCE_RATE_LIMIT = 0");
            for (int i = 0; i < views.size(); i++) {
                String plan = ServedDatabase.explainView(st, views.get(i));
                assertTrue(List.of(planMarkers).stream().anyMatch(plan::contains), plan);
                st.execute("CREATE MATERIALIZED VIEW v" + i + " AS " + views.get(i));
            }
            st.execute("ALTER TABLE " + table + " SET SOURCE_RATE_LIMIT = 200");
        }
    }

    /** Kills the server {@code kills} times while rows arrive, starting it again after each; the first kill falls before the end. */
    void killWhileStreaming(int kills, Random random) throws Exception {
        for (int kill = 0; kill < kills; kill++) {
            long seen = servers.killWhileProgressing(progress, rows, 400, random);
            System.out.printf("  kill %d: %d of %d rows stored or late before%n", kill, seen, rows);
            if (kill == 0) {
                assertTrue(seen < rows, "the first kill falls while rows stream (seed " + seed + ")");
            }
            servers.start(dataDir);
        }
    }

    /**
     * Waits until every row is stored or late, checks that no stored row is there twice, and loads
     * the stored rows (their {@code columns}) into {@code postgres}'s table of the same name.
     */
    void awaitAndCopyKeptRows(Statement st, PostgresOracle postgres, String columns) throws Exception {
        long deadline = System.currentTimeMillis() + FINISH_TIMEOUT_MS;
        while (Sql.scalar(st, progress) < rows && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(rows, Sql.scalar(st, progress), "every row stored or late (seed " + seed + ")");
        assertEquals(
                Sql.scalar(st, "SELECT count(*) FROM " + table),
                Sql.scalar(st, "SELECT count(DISTINCT id) FROM " + table));
        postgres.replaceRows(table, Sql.rows(st, "SELECT " + columns + " FROM " + table));
    }

    /**
     * View {@code vi} holds PostgreSQL's rows of {@code expected.get(i)}, of which there are more
     * than 50; read until equal for up to {@code pollMs} (0: read once), for a view whose rows
     * come at a barrier after the last row (a window the watermark closes).
     */
    void checkViews(Statement st, PostgresOracle postgres, List<String> expected, long pollMs) throws Exception {
        for (int i = 0; i < expected.size(); i++) {
            List<String> want = postgres.rows(expected.get(i));
            assertTrue(want.size() > 50, "v" + i + " has rows to compare: " + want.size());
            List<String> actual = ServedDatabase.awaitRows(st, "SELECT * FROM v" + i, want, pollMs);
            assertEquals(want, actual, "v" + i + " (seed " + seed + ")");
        }
    }

    /** Stops every server, opens the data directory in process and checks each of {@code views} views' committed state keys. */
    void checkStateKeys(int views, long maxStateKeys) throws Exception {
        servers.stopAll();
        try (Cluster cluster = Cluster.open(dataDir, barrierIntervalMs, CalciteViewPlanner::new)) {
            var db = cluster.database("dev").orElseThrow();
            for (int i = 0; i < views; i++) {
                long keys = ServedDatabase.stateKeys(db, "v" + i);
                System.out.printf("  v%d holds %d state keys%n", i, keys);
                assertTrue(keys <= maxStateKeys, "v" + i + " holds " + keys + " state keys");
            }
        }
    }
}
