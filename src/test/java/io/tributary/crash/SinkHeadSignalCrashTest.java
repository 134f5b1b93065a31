package io.tributary.crash;

import static io.tributary.crash.SinkTargets.awaitEqual;
import static io.tributary.crash.SinkTargets.target;
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
 * Sink heads that learn of their relation's changes from the commit signal only: the server runs
 * with the heads' idle wait at an hour ({@code tributary.sink.head.idle_ms}), so after its first
 * read of the log at each (re)start a head reads it again only when an epoch that logged its
 * relation's rows commits. Writers change a busy table and, rarely, a quiet one (most epochs log
 * nothing of it) while the server is killed with {@code kill -9} twice; at the end every target
 * (an upsert sink of each table, an append-only sink of the quiet table's events) equals its
 * relation in the embedded PostgreSQL, the append-only one with the same multiplicity (nothing
 * doubled), and no head's position went back.
 */
class SinkHeadSignalCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 2_000;

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    private String schema;

    @Test
    void headsWokenOnlyByTheSignalMissAndDoubleNothingAcrossKill9() throws Exception {
        long seed = Long.getLong("sinkcrash.seed", System.nanoTime());
        System.out.println("sink head signal crash seed " + seed);
        schema = "sink_signal_" + Long.toHexString(System.nanoTime());
        UpstreamPostgres.execute("CREATE SCHEMA " + schema);
        Path dataDir = tempDir.resolve("data");
        List<SignalWriter> writers = List.of(new SignalWriter(1, seed), new SignalWriter(2, seed + 1));

        ServerProcess server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE busy (id BIGINT PRIMARY KEY, v BIGINT)");
            st.execute("INSERT INTO busy SELECT x, x FROM generate_series(1, " + ROWS + ") AS g(x)");
            st.execute("CREATE TABLE quiet (id BIGINT PRIMARY KEY, v BIGINT)");
            st.execute("CREATE TABLE quiet_ev (id BIGINT, w INT)");
            st.execute("CREATE SINK b FROM busy" + with("busy_out", ""));
            st.execute("CREATE SINK q FROM quiet" + with("quiet_out", ""));
            st.execute("CREATE SINK e FROM quiet_ev" + with("ev_out", ", type = 'append-only'"));
        }
        long[] heads = new long[3];
        server.writeThenKill(writers, 2_000);
        server = start(dataDir);
        checkMonotonic(heads);
        server.writeThenKill(writers, 2_000);
        server = start(dataDir);
        checkMonotonic(heads);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            // after the restart's first read, single rows in otherwise quiet epochs: only the
            // signal can bring them to the targets
            for (int i = 0; i < 5; i++) {
                st.executeUpdate("INSERT INTO quiet VALUES (" + (-1 - i) + ", " + i + ")");
                st.executeUpdate("INSERT INTO quiet_ev VALUES (" + (-1 - i) + ", 0)");
                awaitEqual(
                        c,
                        "SELECT id, v FROM quiet ORDER BY id",
                        "SELECT id, v FROM " + schema + ".quiet_out ORDER BY id");
            }
            awaitEqual(
                    c, "SELECT id, v FROM busy ORDER BY id", "SELECT id, v FROM " + schema + ".busy_out ORDER BY id");
            awaitEqual(
                    c,
                    "SELECT id, w FROM quiet_ev ORDER BY id, w",
                    "SELECT id, w FROM " + schema + ".ev_out ORDER BY id, w");
        }
        checkMonotonic(heads);
        server.close();
    }

    private String with(String table, String extra) throws Exception {
        return " WITH (connector = 'jdbc', jdbc.url = 'jdbc:postgresql://localhost:"
                + UpstreamPostgres.server().getPort() + "/postgres', user = 'postgres', "
                + "schema.name = '" + schema + "', table.name = '" + table + "', create_table_if_not_exists = 'true'"
                + extra + ")";
    }

    private ServerProcess start(Path dataDir) throws Exception {
        return servers.start(dataDir, BARRIER_INTERVAL_MS, List.of("-Dtributary.sink.head.idle_ms=3600000"), List.of());
    }

    /** Each head's position in the target never goes back across kills. */
    private void checkMonotonic(long[] last) throws Exception {
        String[] sinks = {"b", "q", "e"};
        for (int i = 0; i < sinks.length; i++) {
            List<String> now = target("SELECT last_success_version FROM " + schema + ".processor_status "
                    + "WHERE processor = '" + sinks[i] + "'");
            long v = now.isEmpty() ? 0 : Long.parseLong(now.get(0));
            assertTrue(v >= last[i], sinks[i] + ": processor_status went back from " + last[i] + " to " + v);
            last[i] = v;
        }
    }

    /**
     * Updates, deletes and inserts rows of {@code busy} at every statement; one statement in 50
     * changes {@code quiet} (upsert or delete) or appends to {@code quiet_ev}, so most epochs log
     * nothing of those two.
     */
    private static final class SignalWriter implements CrashWriter {
        private final int id;
        private final Random random;
        private long next;

        SignalWriter(int id, long seed) {
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
                    int pick = random.nextInt(150);
                    if (pick == 0) {
                        st.executeUpdate("INSERT INTO quiet VALUES (" + key + ", " + (++next) + ") "
                                + "ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v");
                    } else if (pick == 1) {
                        st.executeUpdate("DELETE FROM quiet WHERE id = " + key);
                    } else if (pick == 2) {
                        st.executeUpdate("INSERT INTO quiet_ev VALUES (" + (++next) + ", " + id + ")");
                    } else if (pick % 3 == 0) {
                        st.executeUpdate("UPDATE busy SET v = v + 1 WHERE id = " + key);
                    } else if (pick % 3 == 1) {
                        st.executeUpdate("DELETE FROM busy WHERE id = " + key);
                    } else {
                        st.executeUpdate("INSERT INTO busy VALUES (" + (++next) + ", 0)");
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
