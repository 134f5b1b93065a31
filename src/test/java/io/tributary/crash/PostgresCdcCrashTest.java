package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.connector.postgres.UpstreamPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.replication.LogSequenceNumber;

/**
 * Exactly-once change data capture under {@code kill -9}: a Tributary table mirrors an upstream
 * PostgreSQL table (embedded, {@code wal_level = logical}) while a writer inserts, updates and
 * deletes rows upstream, in small transactions and now and then one larger than a batch. The
 * server is killed once during the initial snapshot (slowed by a SOURCE_RATE_LIMIT) and once
 * while streaming, and restarted each time. Once caught up, the table equals the upstream table
 * row for row and its view equals its query; the slot never confirmed more than Tributary had
 * committed; DROP TABLE drops the slot and its publication. Rerun a seed with
 * {@code -Dcdccrash.seed=N}.
 */
class PostgresCdcCrashTest {
    private static final long BARRIER_INTERVAL_MS = 20;
    private static final int ROWS = 200_000;
    private static final String UPSTREAM = "cdc_crash";
    private static final String SLOT = "tributary_cdc_crash";
    private static final String COLUMNS = "id, g, v, name";
    private static final String VIEW_QUERY =
            "SELECT g, count(*) AS c, sum(v) AS s, count(name) AS n FROM %s GROUP BY g";
    private static final String PROGRESS =
            "SELECT sum(rows_ingested) FROM tributary_catalog.source_progress" + " WHERE table_name = 'mirror'";

    @TempDir
    Path dataDir;

    @RegisterExtension
    final RestartingServer servers = new RestartingServer(BARRIER_INTERVAL_MS);

    private final AtomicBoolean writing = new AtomicBoolean(true);

    @BeforeEach
    void upstream() throws Exception {
        UpstreamPostgres.execute(
                "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots" + " WHERE slot_name = '" + SLOT
                        + "'",
                "DROP PUBLICATION IF EXISTS " + SLOT + "_pub",
                "DROP TABLE IF EXISTS " + UPSTREAM,
                "CREATE TABLE " + UPSTREAM + " (id int PRIMARY KEY, g int NOT NULL, v bigint, name text)",
                "INSERT INTO " + UPSTREAM + " SELECT i, i % 10, i * 7919 % 2001 - 1000,"
                        + " CASE WHEN i % 11 = 0 THEN NULL ELSE 'n' || i END FROM generate_series(1, " + ROWS + ") i");
    }

    @AfterEach
    void stop() throws Exception {
        writing.set(false);
        // the server holds the replication slot: stop it before the slot is dropped
        servers.stopAll();
        UpstreamPostgres.execute(
                "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots" + " WHERE slot_name = '" + SLOT
                        + "' AND NOT active",
                "DROP PUBLICATION IF EXISTS " + SLOT + "_pub",
                "DROP TABLE IF EXISTS " + UPSTREAM);
    }

    @Test
    void theMirrorEqualsTheUpstreamTableAfterKillsInSnapshotAndStream() throws Exception {
        long seed = Long.getLong("cdccrash.seed", System.nanoTime());
        System.out.println("cdc crash seed " + seed);
        Random random = new Random(seed);
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE mirror (id INT PRIMARY KEY, g INT, v BIGINT, name TEXT) WITH ("
                    + " connector = 'postgres-cdc', hostname = 'localhost', port = '"
                    + UpstreamPostgres.server().getPort()
                    + "', username = 'postgres', database.name = 'postgres', table.name = '" + UPSTREAM
                    + "', slot.name = '" + SLOT + "')");
            st.execute("ALTER TABLE mirror SET SOURCE_RATE_LIMIT = 5000");
            st.execute("CREATE MATERIALIZED VIEW mirror_agg AS " + VIEW_QUERY.formatted("mirror"));
        }
        long consistentPoint = confirmedFlush();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> write(new Random(seed + 1)));

        long seen = servers.killWhileProgressing(PROGRESS, ROWS, 300, random);
        System.out.printf("  kill in the snapshot: %d of %d rows seen before%n", seen, ROWS);
        assertEquals(consistentPoint, confirmedFlush(), "a snapshot confirms nothing upstream");
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            assertEquals(
                    List.of("snapshotting"),
                    Sql.rows(st, "SELECT phase FROM tributary_catalog.source_progress"),
                    "the restart resumes the snapshot");
            st.execute("ALTER TABLE mirror SET SOURCE_RATE_LIMIT = DEFAULT");
            awaitStreaming(st);
        }

        long changes = servers.killWhileProgressing(PROGRESS, Long.MAX_VALUE, 500, random);
        long confirmedAtKill = confirmedFlush();
        System.out.printf("  kill while streaming: %d changes applied before%n", changes);
        servers.start(dataDir);
        try (Connection c = servers.connect();
                Statement st = c.createStatement()) {
            String position = Sql.rows(st, "SELECT position FROM tributary_catalog.source_progress")
                    .get(0);
            assertTrue(position.startsWith("lsn "), position);
            long resumedAt = LogSequenceNumber.valueOf(position.substring(4).split(" ")[0])
                    .asLong();
            assertTrue(
                    confirmedAtKill <= resumedAt,
                    "the slot confirmed " + LogSequenceNumber.valueOf(confirmedAtKill) + " but Tributary resumed at "
                            + position);
        }
        // let the restarted server stream the writer's changes for a while before the writer stops
        Thread.sleep(500);
        writing.set(false);
        writer.get(30, TimeUnit.SECONDS);

        try (Connection c = servers.connect();
                Statement st = c.createStatement();
                Connection up = UpstreamPostgres.connect();
                Statement ust = up.createStatement()) {
            String summary = "SELECT count(*), sum(id), sum(v), count(name), sum(g) FROM ";
            List<String> upstream = Sql.rows(ust, summary + UPSTREAM);
            long deadline = System.currentTimeMillis() + 60_000;
            while (!Sql.rows(st, summary + "mirror").equals(upstream) && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(
                    Sql.rows(ust, "SELECT " + COLUMNS + " FROM " + UPSTREAM),
                    Sql.rows(st, "SELECT " + COLUMNS + " FROM mirror"),
                    "the mirror equals the upstream table (seed " + seed + ")");
            assertEquals(
                    Sql.rows(st, VIEW_QUERY.formatted("mirror")),
                    Sql.rows(st, "SELECT * FROM mirror_agg"),
                    "mirror_agg equals its query (seed " + seed + ")");
            assertEquals(
                    Sql.rows(ust, VIEW_QUERY.formatted(UPSTREAM)),
                    Sql.rows(st, "SELECT * FROM mirror_agg"),
                    "mirror_agg equals its query on the upstream table (seed " + seed + ")");

            deadline = System.currentTimeMillis() + 30_000;
            while (confirmedFlush() <= confirmedAtKill && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(confirmedFlush() > confirmedAtKill, "the slot's confirmed LSN advances after the restart");

            st.execute("DROP TABLE mirror CASCADE");
            assertEquals(
                    0,
                    Sql.scalar(ust, "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'"),
                    "DROP TABLE drops the slot");
            assertEquals(
                    0,
                    Sql.scalar(ust, "SELECT count(*) FROM pg_publication WHERE pubname = '" + SLOT + "_pub'"),
                    "DROP TABLE drops the publication");
        }
    }

    private static void awaitStreaming(Statement st) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!Sql.rows(st, "SELECT phase FROM tributary_catalog.source_progress")
                .equals(List.of("streaming"))) {
            assertTrue(
                    System.currentTimeMillis() < deadline,
                    "the snapshot did not end within a minute: "
                            + Sql.rows(
                                    st, "SELECT phase, position, last_error FROM tributary_catalog.source_progress"));
            Thread.sleep(50);
        }
    }

    private static long confirmedFlush() throws Exception {
        return LogSequenceNumber.valueOf(UpstreamPostgres.queryOne(
                        "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'"))
                .asLong();
    }

    /**
     * Until {@link #writing} is cleared: transactions of 1 to 10 random inserts (new ids), updates
     * and deletes (of ids that may be gone), and every 50th a range update of 2,000 rows, which is
     * larger than a batch.
     */
    private void write(Random random) {
        try (Connection c = UpstreamPostgres.connect();
                PreparedStatement insert = c.prepareStatement("INSERT INTO " + UPSTREAM + " VALUES (?, ?, ?, ?)");
                PreparedStatement update =
                        c.prepareStatement("UPDATE " + UPSTREAM + " SET v = v + 1, g = ?, name = ? WHERE id = ?");
                PreparedStatement delete = c.prepareStatement("DELETE FROM " + UPSTREAM + " WHERE id = ?");
                PreparedStatement range =
                        c.prepareStatement("UPDATE " + UPSTREAM + " SET v = v - 1 WHERE id BETWEEN ? AND ?")) {
            c.setAutoCommit(false);
            int nextId = ROWS + 1;
            for (int tx = 1; writing.get(); tx++) {
                if (tx % 50 == 0) {
                    int from = 1 + random.nextInt(ROWS - 2000);
                    range.setInt(1, from);
                    range.setInt(2, from + 1999);
                    range.executeUpdate();
                }
                for (int n = 1 + random.nextInt(10); n > 0; n--) {
                    int op = random.nextInt(10);
                    String name = random.nextInt(5) == 0 ? null : "w" + random.nextInt(1_000_000);
                    if (op < 4) {
                        insert.setInt(1, nextId++);
                        insert.setInt(2, random.nextInt(10));
                        insert.setLong(3, random.nextInt(2001) - 1000);
                        insert.setString(4, name);
                        insert.executeUpdate();
                    } else if (op < 8) {
                        update.setInt(1, random.nextInt(10));
                        update.setString(2, name);
                        update.setInt(3, 1 + random.nextInt(nextId - 1));
                        update.executeUpdate();
                    } else {
                        delete.setInt(1, 1 + random.nextInt(nextId - 1));
                        delete.executeUpdate();
                    }
                }
                c.commit();
                Thread.sleep(2);
            }
        } catch (SQLException | IOException e) {
            throw new AssertionError("the upstream writer failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
