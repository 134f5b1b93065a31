package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Exactly-once ingestion under {@code kill -9}: a datagen source with three splits fills a table
 * without a primary key (so a row applied twice would be a second row, not an overwrite) and a
 * keyed table, each with an aggregation view; the server is killed twice while the sources run
 * and restarted on the same data directory. In the end each table holds every generated row
 * exactly once and each view equals its query on the table. The kill moments are random; rerun a
 * seed with {@code -Dsourcecrash.seed=N}.
 */
class SourceCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 30_000;
    private static final int KILLS = 2;
    private static final String VIEW_QUERY = "SELECT g, count(*) AS c, sum(id) AS s, sum(v) AS sv FROM %s GROUP BY g";

    @TempDir
    Path dataDir;

    @RegisterExtension
    final RestartingServer servers = new RestartingServer(BARRIER_INTERVAL_MS);

    @Test
    void everyGeneratedRowLandsExactlyOnceThroughKill9() throws Exception {
        long seed = Long.getLong("sourcecrash.seed", System.nanoTime());
        System.out.println("source crash seed " + seed);
        Random random = new Random(seed);
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            for (String table : List.of("appended", "keyed")) {
                String key = table.equals("keyed") ? " PRIMARY KEY" : "";
                st.execute(
                        "CREATE TABLE " + table + " (id BIGINT" + key + ", g INT, v INT) WITH (connector = 'datagen',"
                                + " fields.id.kind = 'sequence', fields.id.end = '" + ROWS + "', fields.g.end = '9',"
                                + " fields.v.start = '-1000', fields.v.end = '1000', fields.v.seed = '" + seed + "',"
                                + " datagen.rows.per.second = '3000', datagen.split.num = '3')");
                st.execute("CREATE MATERIALIZED VIEW " + table + "_agg AS " + VIEW_QUERY.formatted(table));
            }
        }
        for (int kill = 0; kill < KILLS; kill++) {
            long seen = servers.killWhileProgressing("SELECT count(*) FROM appended", ROWS, 500, random);
            System.out.printf("  kill %d: %d of %d rows seen before%n", kill, seen, ROWS);
            servers.start(dataDir);
        }
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            long deadline = System.currentTimeMillis() + 60_000;
            while ((Sql.scalar(st, "SELECT count(*) FROM appended") < ROWS
                            || Sql.scalar(st, "SELECT count(*) FROM keyed") < ROWS)
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            for (String table : List.of("appended", "keyed")) {
                try (ResultSet rs = st.executeQuery(
                        "SELECT count(*), count(DISTINCT id), min(id), max(id), sum(id)" + " FROM " + table)) {
                    rs.next();
                    assertEquals(
                            List.of((long) ROWS, (long) ROWS, 1L, (long) ROWS, (long) ROWS * (ROWS + 1) / 2),
                            List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)),
                            table + ": count, distinct ids, min, max, sum (seed " + seed + ")");
                }
                assertEquals(
                        Sql.rows(st, VIEW_QUERY.formatted(table)),
                        Sql.rows(st, "SELECT * FROM " + table + "_agg"),
                        table + "_agg equals its query (seed " + seed + ")");
            }
            // the random columns are a function of the sequence number: both tables got the same rows
            assertEquals(Sql.rows(st, "SELECT id, g, v FROM appended"), Sql.rows(st, "SELECT id, g, v FROM keyed"));
            assertTrue(Sql.rows(st, "SELECT g FROM appended_agg").size() == 10, "ten groups");
        }
    }
}
