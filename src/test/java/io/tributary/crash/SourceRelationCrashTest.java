package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once delivery from a source (CREATE SOURCE, nothing stored) to the views over it under
 * {@code kill -9}: a datagen source with three splits feeds a view of its rows and an aggregate view,
 * created after the source started; the server is killed twice while rows flow and restarted on the same
 * data directory (both views are created while the source is paused, so they start at the same
 * positions). The reference is a connector table with the same datagen options (whose rows are a
 * function of the sequence number alone, so they are what the generator produced): once every split has
 * committed its last position, the row view holds, per split, exactly the generated rows from the first
 * one it saw to the end, each once, and the aggregate view equals its query over those rows. The kill
 * moments are random; rerun a seed with {@code -Dsourcecrash.seed=N}.
 */
class SourceRelationCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 30_000;
    private static final int SPLITS = 3;
    private static final int KILLS = 2;
    private static final String AGG = "SELECT g, count(*) AS c, sum(id) AS s, sum(v) AS sv FROM %s GROUP BY g";

    @TempDir
    Path dataDir;

    @RegisterExtension
    final RestartingServer servers = new RestartingServer(BARRIER_INTERVAL_MS);

    @Test
    void viewsOverASourceGetEveryEventOnceThroughKill9() throws Exception {
        long seed = Long.getLong("sourcecrash.seed", System.nanoTime());
        System.out.println("source relation crash seed " + seed);
        Random random = new Random(seed);
        String options = "(id BIGINT, g INT, v INT) WITH (connector = 'datagen', fields.id.kind = 'sequence',"
                + " fields.id.end = '" + ROWS + "', fields.g.end = '9', fields.v.start = '-1000',"
                + " fields.v.end = '1000', fields.v.seed = '" + seed + "', datagen.rows.per.second = '2000',"
                + " datagen.split.num = '" + SPLITS + "')";
        String ingested =
                "SELECT coalesce(sum(rows_ingested), 0) FROM tributary_catalog.source_progress WHERE table_name = ";
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SOURCE src " + options);
            st.execute("CREATE TABLE generated " + options);
            // each view gets the events from its creation on: the source is paused (once its last batch
            // committed) while both are created, so both start at the same positions, after some events
            Thread.sleep(1000);
            st.execute("ALTER SOURCE src SET SOURCE_RATE_LIMIT = 0");
            long before = -1;
            for (long now = Sql.scalar(st, ingested + "'src'");
                    now != before;
                    now = Sql.scalar(st, ingested + "'src'")) {
                before = now;
                Thread.sleep(500);
            }
            st.execute("CREATE MATERIALIZED VIEW src_rows AS SELECT id, g, v FROM src");
            st.execute("CREATE MATERIALIZED VIEW src_agg AS " + AGG.formatted("src"));
            st.execute("ALTER SOURCE src SET SOURCE_RATE_LIMIT = DEFAULT");
        }
        for (int kill = 0; kill < KILLS; kill++) {
            // the source's committed position moves with the views' state (the view missed the rows before it)
            long seen = servers.killWhileProgressing(ingested + "'src'", ROWS, 500, random);
            System.out.printf("  kill %d: the source at %d of %d rows before%n", kill, seen, ROWS);
            servers.start(dataDir);
        }
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            long deadline = System.currentTimeMillis() + 60_000;
            while ((Sql.scalar(st, ingested + "'src'") < ROWS || Sql.scalar(st, ingested + "'generated'") < ROWS)
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(ROWS, Sql.scalar(st, ingested + "'src'"), "the source's committed positions reached the end");
            assertEquals(ROWS, Sql.scalar(st, "SELECT count(*) FROM generated"));
            // split k makes ids k+1, k+1+SPLITS, ...: per split, the view must hold the generated suffix
            String firstSeen = "SELECT (id - 1) % " + SPLITS + " AS split, min(id) AS first FROM src_rows GROUP BY 1";
            assertEquals(SPLITS, Sql.rows(st, firstSeen).size(), "every split reached the view (seed " + seed + ")");
            String expected = "SELECT t.id, t.g, t.v FROM generated t JOIN (" + firstSeen + ") f ON (t.id - 1) % "
                    + SPLITS + " = f.split AND t.id >= f.first";
            try (ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT id) FROM src_rows")) {
                rs.next();
                assertEquals(rs.getLong(1), rs.getLong(2), "no event twice in the view (seed " + seed + ")");
            }
            assertEquals(
                    Sql.rows(st, expected),
                    Sql.rows(st, "SELECT id, g, v FROM src_rows"),
                    "the view holds every generated row after its first, once (seed " + seed + ")");
            assertEquals(
                    Sql.rows(st, AGG.formatted("src_rows")),
                    Sql.rows(st, "SELECT * FROM src_agg"),
                    "the aggregate over the source equals its query over the events (seed " + seed + ")");
            assertTrue(Sql.scalar(st, "SELECT count(*) FROM src_rows") > 0, "the view got events");
        }
    }
}
