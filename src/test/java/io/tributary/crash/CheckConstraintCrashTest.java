package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
 * CHECK constraints under {@code kill -9}: a table's constraints, once CREATE TABLE has returned,
 * survive the server being killed and restarted twice: the catalogs show the same constraints,
 * a row failing one is still refused with 23514 and nothing of it is stored, and good rows still
 * go in.
 */
class CheckConstraintCrashTest {
    private static final String CONSTRAINTS =
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'c' ORDER BY conname";

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void constraintsSurviveKillNine() throws Exception {
        Path dataDir = tempDir.resolve("checks");
        ServerProcess server = start(dataDir);
        List<String> before;
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE c (id INT PRIMARY KEY, v INT CHECK (v > 0), w INT,"
                    + " CONSTRAINT w_over_v CHECK (w > v))");
            st.execute("INSERT INTO c VALUES (1, 1, 2)");
            before = rows(st, CONSTRAINTS);
        }
        assertEquals(2, before.size(), before.toString());
        for (int cycle = 0; cycle < 2; cycle++) {
            server.kill9();
            server = start(dataDir);
            try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                    Statement st = c.createStatement()) {
                assertEquals(before, rows(st, CONSTRAINTS));
                int id = 10 + cycle;
                SQLException refused = assertThrows(
                        SQLException.class, () -> st.execute("INSERT INTO c VALUES (" + id + ", 3, 2), (99, 1, 2)"));
                assertEquals("23514", refused.getSQLState());
                assertThrows(SQLException.class, () -> st.execute("INSERT INTO c VALUES (" + id + ", 0, 2)"));
                st.execute("INSERT INTO c VALUES (" + (20 + cycle) + ", 2, 3)");
                List<String> ids = rows(st, "SELECT id FROM c WHERE id <> 1 AND id < 20 ORDER BY id");
                assertEquals(List.of(), ids, "a refused statement left rows behind");
            }
        }
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            assertEquals(List.of("1", "20", "21"), rows(st, "SELECT id FROM c ORDER BY id"));
        }
    }

    private static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder(rs.getString(1));
                for (int i = 2; i <= n; i++) {
                    row.append(" | ").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    private ServerProcess start(Path dataDir) throws Exception {
        return servers.start(dataDir, 20);
    }
}
