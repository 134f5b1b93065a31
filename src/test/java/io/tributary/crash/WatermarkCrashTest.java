package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watermarks under {@code kill -9}: a datagen table with random times and a watermark, next to
 * its twin without one, is killed twice while its source runs. In the end every generated row
 * is either stored or counted late, never both and never twice, and the watermark is the largest
 * stored time minus the delay. A plain table's watermark and late count survive a kill as well:
 * a row late before the kill is late after it.
 */
class WatermarkCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 20_000;
    private static final int KILLS = 2;

    @TempDir
    Path dataDir;

    @RegisterExtension
    final RestartingServer servers = new RestartingServer(BARRIER_INTERVAL_MS);

    @Test
    void lateRowsAndWatermarksCommitWithTheRowsThroughKill9() throws Exception {
        long seed = Long.getLong("watermarkcrash.seed", System.nanoTime());
        System.out.println("watermark crash seed " + seed);
        Random random = new Random(seed);
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            for (String table : List.of("timed", "twin")) {
                String watermark = table.equals("timed") ? ", WATERMARK FOR ts AS ts - INTERVAL '30' MINUTE" : "";
                st.execute("CREATE TABLE " + table + " (id BIGINT, ts TIMESTAMP" + watermark
                        + ") WITH (connector = 'datagen', fields.id.kind = 'sequence', fields.id.end = '" + ROWS
                        + "', fields.ts.start = '2024-01-01 00:00:00', fields.ts.end = '2024-01-01 02:00:00',"
                        + " fields.ts.seed = '" + seed + "', datagen.rows.per.second = '2000',"
                        + " datagen.split.num = '2')");
            }
            st.execute("CREATE TABLE plain (id INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)");
            st.execute("INSERT INTO plain VALUES (1, TIMESTAMP '2024-01-01 10:00:10')");
            st.execute("INSERT INTO plain VALUES (2, TIMESTAMP '2024-01-01 10:00:01')");
        }
        String progress = "SELECT count(*) + (SELECT late_rows FROM tributary_catalog.watermarks"
                + " WHERE table_name = 'timed') FROM timed";
        for (int kill = 0; kill < KILLS; kill++) {
            long seen = servers.killWhileProgressing(progress, ROWS, 400, random);
            System.out.printf("  kill %d: %d of %d rows stored or late before%n", kill, seen, ROWS);
            servers.start(dataDir);
        }
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            long deadline = System.currentTimeMillis() + 60_000;
            while ((Sql.scalar(st, progress) < ROWS || Sql.scalar(st, "SELECT count(*) FROM twin") < ROWS)
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            long stored = Sql.scalar(st, "SELECT count(*) FROM timed");
            long late = Sql.scalar(st, "SELECT late_rows FROM tributary_catalog.watermarks WHERE table_name = 'timed'");
            assertEquals(ROWS, stored + late, "stored " + stored + " + late " + late + " (seed " + seed + ")");
            assertEquals(stored, Sql.scalar(st, "SELECT count(DISTINCT id) FROM timed"), "no row twice");
            // every stored row is the twin's row of the same id: times are a function of the id
            assertEquals(
                    stored, Sql.scalar(st, "SELECT count(*) FROM timed t JOIN twin w ON t.id = w.id AND t.ts = w.ts"));
            assertEquals(
                    Sql.rows(st, "SELECT max(ts) - INTERVAL '30' MINUTE FROM timed"),
                    Sql.rows(st, "SELECT watermark FROM tributary_catalog.watermarks WHERE table_name = 'timed'"));
            assertEquals(
                    List.of("2024-01-01 10:00:05|1"),
                    Sql.rows(
                            st,
                            "SELECT watermark, late_rows FROM tributary_catalog.watermarks"
                                    + " WHERE table_name = 'plain'"));
            st.execute("INSERT INTO plain VALUES (3, TIMESTAMP '2024-01-01 10:00:04'),"
                    + " (4, TIMESTAMP '2024-01-01 10:00:06')");
            try (ResultSet rs = st.executeQuery("SELECT id FROM plain ORDER BY id")) {
                StringBuilder ids = new StringBuilder();
                while (rs.next()) {
                    ids.append(rs.getInt(1)).append(' ');
                }
                assertEquals("1 4 ", ids.toString(), "the late rows stay dropped after the restart");
            }
        }
    }
}
