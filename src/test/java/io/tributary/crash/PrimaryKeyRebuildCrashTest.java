package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ALTER TABLE ... ADD PRIMARY KEY} on a large table without a key, with the server
 * SIGKILLed while the rebuild runs, at growing delays until one rebuild completes: after every
 * restart the table is either wholly the old one (no key) or wholly the rebuilt one (keyed), and
 * holds every row exactly once.
 */
class PrimaryKeyRebuildCrashTest {
    private static final int ROWS = 60_000;
    private static final long SUM = (long) ROWS * (ROWS + 1) / 2;

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void killedRebuildLeavesTheOldTableOrTheNewWithEveryRowOnce() throws Exception {
        Path dataDir = tempDir.resolve("pk");
        ServerProcess server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE big (id INT, v TEXT)");
            st.execute("INSERT INTO big SELECT x, 'row ' || x FROM generate_series(1, " + ROWS + ") AS s(x)");
        }
        server = GrowingKills.untilApplied(
                server,
                "ALTER TABLE big ADD CONSTRAINT big_pkey PRIMARY KEY (id)",
                200,
                () -> start(dataDir),
                PrimaryKeyRebuildCrashTest::check);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            SQLException dup = null;
            try {
                st.execute("INSERT INTO big VALUES (1, 'again')");
            } catch (SQLException e) {
                dup = e;
            }
            assertEquals("23505", dup == null ? null : dup.getSQLState());
        }
    }

    /** Every row once, and whether the table is keyed on id; fails when it is neither old nor new. */
    private static boolean check(ServerProcess server) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT id), sum(id) FROM big")) {
                rs.next();
                assertEquals(ROWS, rs.getLong(1), "rows lost or doubled");
                assertEquals(ROWS, rs.getLong(2));
                assertEquals(SUM, rs.getLong(3));
            }
            List<String> key = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getPrimaryKeys(null, "public", "big")) {
                while (rs.next()) {
                    key.add(rs.getString("COLUMN_NAME"));
                }
            }
            assertTrue(key.isEmpty() || key.equals(List.of("id")), key.toString());
            return !key.isEmpty();
        }
    }

    private ServerProcess start(Path dataDir) throws Exception {
        return servers.start(dataDir, 20);
    }
}
