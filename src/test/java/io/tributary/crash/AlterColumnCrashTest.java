package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * {@code ALTER TABLE ... ADD COLUMN} on a large table, with the server SIGKILLed while the rows are
 * re-encoded, at growing delays until one ALTER completes: after every restart the table is wholly
 * the old one or wholly the new one (every row reads the added column's default), with every row
 * once. Then DROP COLUMN and the renames, each killed right after it returned: the catalog and the
 * rows agree after the restart.
 */
class AlterColumnCrashTest {
    private static final int ROWS = 60_000;
    private static final long SUM = (long) ROWS * (ROWS + 1) / 2;

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void killedAlterLeavesTheOldTableOrTheNewAndAcknowledgedAltersSurvive() throws Exception {
        Path dataDir = tempDir.resolve("alter");
        ServerProcess server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE big (id INT PRIMARY KEY, v TEXT, w INT)");
            st.execute("INSERT INTO big SELECT x, 'row ' || x, x FROM generate_series(1, " + ROWS + ") AS s(x)");
        }
        server = GrowingKills.untilApplied(
                server, "ALTER TABLE big ADD COLUMN x INT NOT NULL DEFAULT 5", 100, () -> start(dataDir), s -> {
                    boolean added = columns(s).contains("x");
                    assertEquals(added ? 5L * ROWS : -1, checkRows(s, added ? "sum(x)" : "-1"));
                    return added;
                });

        execute(server, "ALTER TABLE big DROP COLUMN v");
        server.kill9();
        server = start(dataDir);
        assertEquals(List.of("id", "w", "x"), columns(server));
        assertEquals((long) ROWS, checkRows(server, "count(w)"));

        execute(server, "ALTER TABLE big RENAME COLUMN w TO ww");
        execute(server, "ALTER TABLE big RENAME TO huge");
        execute(server, "CREATE MATERIALIZED VIEW huge_sum AS SELECT sum(ww) AS s, count(*) AS n FROM huge");
        execute(server, "ALTER MATERIALIZED VIEW huge_sum RENAME TO total");
        server.kill9();
        server = start(dataDir);
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("INSERT INTO huge VALUES (" + (ROWS + 1) + ", 1, 6)");
            try (ResultSet rs = st.executeQuery("SELECT s, n FROM total")) {
                rs.next();
                assertEquals(SUM + 1, rs.getLong(1), "the renamed view is still maintained");
                assertEquals(ROWS + 1, rs.getLong(2));
            }
        }
    }

    /** Every row once (by id); returns the value of {@code extra} over the table. */
    private static long checkRows(ServerProcess server, String extra) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT count(*), count(DISTINCT id), sum(id), " + extra + " FROM " + table(st))) {
            rs.next();
            assertEquals(ROWS, rs.getLong(1), "rows lost or doubled");
            assertEquals(ROWS, rs.getLong(2));
            assertEquals(SUM, rs.getLong(3));
            return rs.getLong(4);
        }
    }

    private static String table(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_class WHERE relname = 'big'")) {
            rs.next();
            return rs.getLong(1) == 1 ? "big" : "huge";
        }
    }

    /** The table's columns as information_schema lists them, in order. */
    private static List<String> columns(ServerProcess server) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT column_name FROM information_schema.columns"
                        + " WHERE table_name = 'big' ORDER BY ordinal_position")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static void execute(ServerProcess server, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private ServerProcess start(Path dataDir) throws Exception {
        return servers.start(dataDir, 20);
    }
}
