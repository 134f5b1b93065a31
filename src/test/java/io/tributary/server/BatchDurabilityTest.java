package io.tributary.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.meta.ClusterFixture;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pgjdbc's {@code executeBatch} (one Sync for many statements) waits for durability once per batch:
 * the answers are held until every statement of the batch is durable, a statement that reads still
 * sees the batch's earlier writes, and when a commit fails the client gets an error, never the
 * count of a statement that may be lost.
 */
class BatchDurabilityTest {
    @TempDir
    Path dataDir;

    private ServedCluster served;

    @AfterEach
    void stop() {
        if (served != null) {
            served.close();
        }
    }

    @Test
    void aBatchOfInsertsAnswersOnceDurableAndLaterStatementsSeeIt() throws Exception {
        served = ServedCluster.open(dataDir);
        try (Connection c = served.connect("dev", 30)) {
            exec(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            exec(c, "CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n, sum(v) AS total FROM t");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                for (int i = 1; i <= 200; i++) {
                    ps.setInt(1, i);
                    ps.setInt(2, i % 7);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                int[] ones = new int[200];
                Arrays.fill(ones, 1);
                assertArrayEquals(ones, counts);
            }
            // the view is current when the batch's answers arrive
            assertEquals("200 598", row(c, "SELECT n, total FROM s"));

            // an UPDATE after INSERTs in one batch reads them: it waits for their durability first
            try (Statement st = c.createStatement()) {
                st.addBatch("INSERT INTO t VALUES (1001, 1)");
                st.addBatch("INSERT INTO t VALUES (1002, 2)");
                st.addBatch("UPDATE t SET v = v + 10 WHERE id > 1000");
                st.addBatch("INSERT INTO t VALUES (1003, 3)");
                assertArrayEquals(new int[] {1, 1, 2, 1}, st.executeBatch());
            }
            assertEquals("3 26", row(c, "SELECT count(*), sum(v) FROM t WHERE id > 1000"));

            // a duplicate key in the batch fails there; what came before it is answered and durable
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, 0)")) {
                for (int id : new int[] {2001, 2002, 2001, 2003}) {
                    ps.setInt(1, id);
                    ps.addBatch();
                }
                BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
                assertEquals("23505", e.getNextException().getSQLState());
            }
            assertEquals("2", row(c, "SELECT count(*) FROM t WHERE id > 2000"));
        }
    }

    @Test
    void aFailedCommitAnswersTheBatchWithAnErrorAndNoCountOfALostRow() throws Exception {
        AtomicInteger failNext = new AtomicInteger();
        served = new ServedCluster(ClusterFixture.withFailingCommits(dataDir, 20, "a", failNext));
        try (Connection dev = served.connect("dev", 30)) {
            exec(dev, "CREATE DATABASE a");
        }
        try (Connection a = served.connect("a", 30)) {
            exec(a, "CREATE TABLE t (id INT PRIMARY KEY)");
            int[] counts;
            try (PreparedStatement ps = a.prepareStatement("INSERT INTO t VALUES (?)")) {
                for (int i = 1; i <= 50; i++) {
                    ps.setInt(1, i);
                    ps.addBatch();
                }
                failNext.set(1_000_000); // every commit of a fails while the batch runs
                BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
                assertEquals(
                        "XX000",
                        e.getNextException().getSQLState(),
                        e.getNextException().getMessage());
                counts = e.getUpdateCounts();
            }
            failNext.set(0);
            try (Statement st = a.createStatement();
                    ResultSet rs = st.executeQuery("SELECT id FROM t")) {
                java.util.Set<Integer> stored = new java.util.HashSet<>();
                while (rs.next()) {
                    stored.add(rs.getInt(1));
                }
                for (int i = 0; i < counts.length; i++) {
                    if (counts[i] >= 0) {
                        assertTrue(stored.contains(i + 1), "row " + (i + 1) + " was acknowledged but is lost");
                    }
                }
            }
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static String row(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            StringBuilder out = new StringBuilder();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                out.append(i == 1 ? "" : " ").append(rs.getString(i));
            }
            return out.toString();
        }
    }
}
