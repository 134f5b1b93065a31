package io.tributary.crash;

import static io.tributary.crash.SinkTargets.awaitEqual;
import static io.tributary.crash.SinkTargets.target;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.connector.postgres.UpstreamPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sinks under {@code kill -9}: a server in a child process delivers an upsert sink (with a
 * snapshot backfill, later a RESYNC) and an append-only sink to an embedded PostgreSQL while
 * writers change every kind of row; the server is killed during the backfill, during the head and
 * during the RESYNC, and restarted on the same data. At the end each target equals its relation row
 * for row (for the append-only sink, with the same multiplicity: nothing doubled), the status rows
 * never went back, and the backfill is complete.
 */
class SinkCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 20_000;

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    private String schema;

    @Test
    void targetsEqualTheirRelationsAfterKill9DuringBackfillHeadAndResync() throws Exception {
        long seed = Long.getLong("sinkcrash.seed", System.nanoTime());
        System.out.println("sink crash seed " + seed);
        schema = "sink_crash_" + Long.toHexString(System.nanoTime());
        UpstreamPostgres.execute("CREATE SCHEMA " + schema);
        Path dataDir = tempDir.resolve("data");
        List<SinkWriter> writers = List.of(new SinkWriter(1, seed), new SinkWriter(2, seed + 1));

        ServerProcess server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT, note VARCHAR)");
            st.execute("INSERT INTO t SELECT x, x, 'n' || x FROM generate_series(1, " + ROWS + ") AS g(x)");
            st.execute("CREATE TABLE ev (id BIGINT, payload VARCHAR)");
            st.execute("INSERT INTO ev SELECT x, 'e' || x FROM generate_series(1, 2000) AS g(x)");
            // slow, so the kill lands in the backfill
            st.execute("SET sink_rate_limit = 3000");
            st.execute("CREATE SINK k FROM t" + with("t_out", ""));
            st.execute("RESET sink_rate_limit");
            st.execute("CREATE SINK a FROM ev" + with("ev_out", ", type = 'append-only'"));
        }
        long[] head = {0};
        server.writeThenKill(writers, 1_500);
        System.out.println("  killed during the backfill: " + status());

        server = start(dataDir);
        checkMonotonic(head);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("ALTER SINK k SET SINK_RATE_LIMIT = DEFAULT");
        }
        server.writeThenKill(writers, 1_000);
        System.out.println("  killed during the head: " + status());

        server = start(dataDir);
        checkMonotonic(head);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            UpstreamPostgres.execute(
                    "DELETE FROM " + schema + ".t_out WHERE id % 10 = 0",
                    "INSERT INTO " + schema + ".t_out VALUES (-1, -1, 'stray')");
            st.execute("ALTER SINK k SET SINK_RATE_LIMIT = 3000");
            st.execute("ALTER SINK k RESYNC");
        }
        server.writeThenKill(writers, 1_500);
        System.out.println("  killed during the RESYNC: " + status());

        server = start(dataDir);
        checkMonotonic(head);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            // the sink's connections are killed too: it retries
            UpstreamPostgres.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    + "WHERE application_name = 'tributary-sink' AND pid <> pg_backend_pid()");
            st.execute("ALTER SINK k SET SINK_RATE_LIMIT = DEFAULT");
            awaitEqual(
                    c,
                    "SELECT id, v, note FROM t ORDER BY id",
                    "SELECT id, v, note FROM " + schema + ".t_out ORDER BY id");
            awaitEqual(
                    c,
                    "SELECT id, payload FROM ev ORDER BY id, payload",
                    "SELECT id, payload FROM " + schema + ".ev_out ORDER BY id, payload");
            assertEquals(
                    List.of("complete"),
                    target("SELECT backfill_status FROM " + schema + ".backfill_processor_status "
                            + "WHERE backfill_alias = 'k_backfill'"));
        }
        checkMonotonic(head);
        server.close();
    }

    private String with(String table, String extra) throws Exception {
        return " WITH (connector = 'jdbc', jdbc.url = 'jdbc:postgresql://localhost:"
                + UpstreamPostgres.server().getPort() + "/postgres', user = 'postgres', "
                + "schema.name = '" + schema + "', table.name = '" + table + "', create_table_if_not_exists = 'true'"
                + extra + ")";
    }

    private ServerProcess start(Path dataDir) throws Exception {
        // two key ranges whatever the machine's cores, so kills also land between ranges' chunks
        return servers.start(dataDir, BARRIER_INTERVAL_MS, List.of("-Dtributary.sink.backfill.ranges=2"), List.of());
    }

    private String status() throws Exception {
        return target("SELECT processor || '=' || last_success_version FROM " + schema + ".processor_status "
                        + "ORDER BY 1")
                + " "
                + target("SELECT backfill_alias || ' ' || backfill_status || ' from ' || backfill_start_version FROM "
                        + schema + ".backfill_processor_status");
    }

    /** The head's position in the target never goes back across kills. */
    private void checkMonotonic(long[] last) throws Exception {
        List<String> now =
                target("SELECT last_success_version FROM " + schema + ".processor_status " + "WHERE processor = 'k'");
        long v = now.isEmpty() ? 0 : Long.parseLong(now.get(0));
        assertTrue(v >= last[0], "processor_status went back from " + last[0] + " to " + v);
        last[0] = v;
    }

    /** Updates, deletes and inserts rows of t and appends to ev until the server dies. */
    private static final class SinkWriter implements CrashWriter {
        private final int id;
        private final Random random;
        private long next;

        SinkWriter(int id, long seed) {
            this.id = id;
            this.random = new Random(seed);
            this.next = id * 1_000_000_000L;
        }

        @Override
        public void run(String jdbcUrl, AtomicBoolean killing, CountDownLatch firstAcknowledged) {
            try (Connection c = DriverManager.getConnection(jdbcUrl);
                    Statement st = c.createStatement()) {
                while (true) {
                    int key = 1 + random.nextInt(ROWS);
                    switch (random.nextInt(4)) {
                        case 0 -> st.executeUpdate("UPDATE t SET v = v + 1, note = 'u' WHERE id = " + key);
                        case 1 -> st.executeUpdate("DELETE FROM t WHERE id = " + key);
                        case 2 -> st.executeUpdate("INSERT INTO t VALUES (" + (++next) + ", 0, 'i') ");
                        default -> st.executeUpdate("INSERT INTO ev VALUES (" + (++next) + ", 'w" + id + "')");
                    }
                    firstAcknowledged.countDown();
                }
            } catch (SQLException e) {
                if (!killing.get()) {
                    throw new AssertionError("writer " + id + " failed before the kill", e);
                }
            }
        }
    }
}
