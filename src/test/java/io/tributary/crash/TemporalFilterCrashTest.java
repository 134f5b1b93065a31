package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Temporal filters under {@code kill -9}: views with a lower bound, an upper bound and both over a
 * datagen table whose times spread around the wall clock, killed twice while the source runs.
 * After the restarts, as time passes, every view holds exactly the rows its filter passes at the
 * time of its last epoch: each row whose visibility is the same at the start and at the end of a
 * read (the start taken a little early, since the read's epoch committed before it) is checked,
 * so a row lost, doubled or left behind by a restarted filter shows.
 */
class TemporalFilterCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 8_000;
    private static final int KILLS = 2;
    /** How long before a read its epoch may have committed, on a loaded machine. */
    private static final long SLACK_MS = 3_000;

    private static final Map<String, BiPredicate<Long, Long>> VIEWS = Map.of(
            "SELECT id FROM ev WHERE ts > now() - INTERVAL '10' SECOND", (ts, now) -> ts > now - 10_000,
            "SELECT id FROM ev WHERE now() + INTERVAL '5' SECOND >= ts", (ts, now) -> ts <= now + 5_000,
            "SELECT id FROM ev WHERE ts BETWEEN now() - INTERVAL '15' SECOND AND now()",
                    (ts, now) -> ts >= now - 15_000 && ts <= now);

    @TempDir
    Path dataDir;

    @RegisterExtension
    final RestartingServer servers = new RestartingServer(BARRIER_INTERVAL_MS);

    @Test
    void viewsFollowTheClockThroughKill9() throws Exception {
        long seed = Long.getLong("temporalcrash.seed", System.nanoTime());
        System.out.println("temporal filter crash seed " + seed);
        Random random = new Random(seed);
        LocalDateTime wall = LocalDateTime.now(ZoneOffset.UTC);
        List<String> queries = List.copyOf(VIEWS.keySet());
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ev (id BIGINT, ts TIMESTAMP) WITH (connector = 'datagen',"
                    + " fields.id.kind = 'sequence', fields.id.end = '" + ROWS + "',"
                    + " fields.ts.start = '" + text(wall.minusSeconds(20)) + "',"
                    + " fields.ts.end = '" + text(wall.plusSeconds(40)) + "',"
                    + " fields.ts.seed = '" + seed + "', datagen.rows.per.second = '1000', datagen.split.num = '2')");
            for (int i = 0; i < queries.size(); i++) {
                st.execute("CREATE MATERIALIZED VIEW v" + i + " AS " + queries.get(i));
            }
        }
        for (int kill = 0; kill < KILLS; kill++) {
            long seen = servers.killWhileProgressing("SELECT count(*) FROM ev", ROWS, 400, random);
            System.out.printf("  kill %d: %d of %d rows before%n", kill, seen, ROWS);
            servers.start(dataDir);
        }
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            long deadline = System.currentTimeMillis() + 60_000;
            while (Sql.scalar(st, "SELECT count(*) FROM ev") < ROWS && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(ROWS, Sql.scalar(st, "SELECT count(DISTINCT id) FROM ev"), "every row once");
            assertEquals(ROWS, Sql.scalar(st, "SELECT count(*) FROM ev"), "every row once");
            Map<Long, Long> times = new HashMap<>();
            try (ResultSet rs = st.executeQuery("SELECT id, ts FROM ev")) {
                while (rs.next()) {
                    Timestamp ts = rs.getTimestamp(2);
                    times.put(
                            rs.getLong(1),
                            ts.toLocalDateTime().toInstant(ZoneOffset.UTC).toEpochMilli());
                }
            }
            // rows keep entering and leaving for a minute: check several times while they do
            for (int check = 0; check < 4; check++) {
                for (int i = 0; i < queries.size(); i++) {
                    check(st, "v" + i, VIEWS.get(queries.get(i)), times, "check " + check + " of " + queries.get(i));
                }
                Thread.sleep(3_000);
            }
        }
    }

    /** View {@code view} holds every row its filter passes throughout the read, and none it fails throughout. */
    private static void check(
            Statement st, String view, BiPredicate<Long, Long> filter, Map<Long, Long> times, String what)
            throws Exception {
        long from = System.currentTimeMillis() - SLACK_MS;
        Set<Long> ids = new HashSet<>();
        long rows = 0;
        try (ResultSet rs = st.executeQuery("SELECT id FROM " + view)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
                rows++;
            }
        }
        long to = System.currentTimeMillis();
        assertEquals(ids.size(), rows, what + ": no row twice");
        int checked = 0;
        for (Map.Entry<Long, Long> e : times.entrySet()) {
            boolean before = filter.test(e.getValue(), from);
            if (before != filter.test(e.getValue(), to)) {
                continue;
            }
            checked++;
            assertEquals(
                    before,
                    ids.contains(e.getKey()),
                    what + ": row " + e.getKey() + " at " + e.getValue() + ", read between " + from + " and " + to);
        }
        assertTrue(ids.stream().allMatch(times::containsKey), what + ": only rows of the table");
        assertTrue(checked > ROWS / 2, what + ": " + checked + " rows checked");
    }

    private static String text(LocalDateTime t) {
        return t.withNano(0).toString().replace('T', ' ');
    }
}
