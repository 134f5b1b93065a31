package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batches under {@code kill -9}: a pgjdbc {@code executeBatch} waits for durability once per
 * batch, so its answers must come only once all of it is durable. A client sends batches of
 * single-row INSERTs while the server is killed; after a restart every row of every answered batch
 * is there, and nothing of a batch not yet sent is.
 */
class BatchCrashTest {
    private static final int BATCH = 50;

    @TempDir
    Path dataDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void everyRowOfAnAnsweredBatchSurvivesKill9() throws Exception {
        ServerProcess server = servers.start(dataDir, 20);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT)");
        }
        String url = server.jdbcUrl();
        AtomicLong answered = new AtomicLong(); // ids 1..answered are in answered batches
        AtomicLong sent = new AtomicLong(); // ids up to sent were sent, answered or not
        Thread client = new Thread(() -> {
            try (Connection c = DriverManager.getConnection(url);
                    PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                for (long next = 1; ; next += BATCH) {
                    for (long id = next; id < next + BATCH; id++) {
                        ps.setLong(1, id);
                        ps.setInt(2, (int) (id % 97));
                        ps.addBatch();
                    }
                    sent.set(next + BATCH - 1);
                    ps.executeBatch();
                    answered.set(next + BATCH - 1);
                }
            } catch (SQLException e) {
                // the server died under the batch in flight
            }
        });
        client.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (answered.get() < 5L * BATCH && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        server.kill9();
        client.join(30_000);
        long acknowledged = answered.get();
        assertTrue(acknowledged >= 5L * BATCH, "too few batches answered before the kill: " + acknowledged);

        server = servers.start(dataDir, 20);
        Set<Long> stored = new HashSet<>();
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id FROM t")) {
            while (rs.next()) {
                stored.add(rs.getLong(1));
            }
        }
        for (long id = 1; id <= acknowledged; id++) {
            assertTrue(stored.contains(id), "row " + id + " of an answered batch is lost");
        }
        long beyond = stored.stream().filter(id -> id > sent.get()).count();
        assertEquals(0, beyond, "rows never sent are stored");
    }
}
