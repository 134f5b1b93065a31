package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * SERIAL values under {@code kill -9}: a writer inserts rows whose id comes from a BIGSERIAL
 * column (reading it back with RETURNING) until the server is killed; after the restart every
 * acknowledged id is stored, and the ids handed out next are all new. The same for values handed
 * out by {@code SELECT nextval(...)}, also of a sequence with options.
 */
class SequenceCrashTest {
    private static final int CYCLES = 2;

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void acknowledgedSerialValuesAreNeverHandedOutAgain() throws Exception {
        Path dataDir = tempDir.resolve("seq");
        ServerProcess server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE s (id BIGSERIAL PRIMARY KEY, w INT)");
        }
        Set<Long> acknowledged = new HashSet<>();
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
            AtomicBoolean stop = new AtomicBoolean();
            String url = server.jdbcUrl();
            Thread writer = new Thread(() -> insertUntilKilled(url, ids, stop));
            writer.start();
            while (ids.size() < 200 && writer.isAlive()) {
                Thread.sleep(10);
            }
            server.kill9();
            stop.set(true);
            writer.join();
            long highest = 0;
            for (long id : ids) {
                assertTrue(acknowledged.add(id), "id " + id + " was handed out twice");
                highest = Math.max(highest, id);
            }
            server = start(dataDir);
            try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                    Statement st = c.createStatement()) {
                Set<Long> stored = new HashSet<>();
                try (ResultSet rs = st.executeQuery("SELECT id FROM s")) {
                    while (rs.next()) {
                        stored.add(rs.getLong(1));
                    }
                }
                assertTrue(stored.containsAll(acknowledged), "an acknowledged row was lost");
                try (ResultSet rs = st.executeQuery("INSERT INTO s (w) VALUES (-1) RETURNING id")) {
                    rs.next();
                    long next = rs.getLong(1);
                    assertTrue(next > highest, "id " + next + " after the restart is not past " + highest);
                    acknowledged.add(next);
                }
            }
        }
        assertEquals(acknowledged.size(), new HashSet<>(acknowledged).size());
    }

    @Test
    void valuesFromNextvalAreNeverHandedOutAgain() throws Exception {
        Path dataDir = tempDir.resolve("nextval");
        ServerProcess server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE n (id BIGSERIAL PRIMARY KEY, w INT)");
        }
        ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        String url = server.jdbcUrl();
        Thread writer = new Thread(() -> nextvalUntilKilled(url, ids, stop));
        writer.start();
        while (ids.size() < 200 && writer.isAlive()) {
            Thread.sleep(10);
        }
        server.kill9();
        stop.set(true);
        writer.join();
        assertEquals(ids.size(), new HashSet<>(ids).size(), "nextval gave a value twice");
        long highest = ids.stream().mapToLong(Long::longValue).max().orElse(0);
        server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT nextval('n_id_seq')")) {
                rs.next();
                assertTrue(rs.getLong(1) > highest, rs.getLong(1) + " after the restart is not past " + highest);
            }
            try (ResultSet rs = st.executeQuery("INSERT INTO n (w) VALUES (0) RETURNING id")) {
                rs.next();
                assertTrue(rs.getLong(1) > highest + 1, "an INSERT after the restart reused a nextval value");
            }
        }
    }

    /**
     * A sequence made with options (counting down by 3 from 1000) keeps them and its position
     * across {@code kill -9}, and so does a RESTART.
     */
    @Test
    void aSequenceWithOptionsKeepsThemAndItsPosition() throws Exception {
        Path dataDir = tempDir.resolve("options");
        ServerProcess server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE SEQUENCE down START WITH 1000 INCREMENT BY -3 MINVALUE -100000000 MAXVALUE 1000");
        }
        ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        String url = server.jdbcUrl();
        Thread writer = new Thread(() -> nextvalUntilKilled(url, "down", ids, stop));
        writer.start();
        while (ids.size() < 200 && writer.isAlive()) {
            Thread.sleep(10);
        }
        server.kill9();
        stop.set(true);
        writer.join();
        assertEquals(ids.size(), new HashSet<>(ids).size(), "nextval gave a value twice");
        long lowest = ids.stream().mapToLong(Long::longValue).min().orElse(1000);
        server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            long next = one(st, "SELECT nextval('down')");
            assertTrue(next < lowest, next + " after the restart is not below " + lowest);
            assertEquals(0, (1000 - next) % 3, next + " is not on the sequence's steps");
            st.execute("ALTER SEQUENCE down RESTART WITH 7");
        }
        server.kill9();
        server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            assertEquals(7, one(st, "SELECT nextval('down')"));
            assertEquals(4, one(st, "SELECT nextval('down')"));
        }
    }

    private static long one(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void nextvalUntilKilled(String url, ConcurrentLinkedQueue<Long> ids, AtomicBoolean stop) {
        nextvalUntilKilled(url, "n_id_seq", ids, stop);
    }

    private static void nextvalUntilKilled(
            String url, String sequence, ConcurrentLinkedQueue<Long> ids, AtomicBoolean stop) {
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            while (!stop.get()) {
                try (ResultSet rs = st.executeQuery("SELECT nextval('" + sequence + "')")) {
                    rs.next();
                    ids.add(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            // the server was killed: the call in flight was not acknowledged
        }
    }

    private static void insertUntilKilled(String url, ConcurrentLinkedQueue<Long> ids, AtomicBoolean stop) {
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            for (int i = 0; !stop.get(); i++) {
                try (ResultSet rs = st.executeQuery("INSERT INTO s (w) VALUES (" + i + ") RETURNING id")) {
                    rs.next();
                    ids.add(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            // the server was killed: the statement in flight was not acknowledged
        }
    }

    private ServerProcess start(Path dataDir) throws Exception {
        return servers.start(dataDir, 20);
    }
}
