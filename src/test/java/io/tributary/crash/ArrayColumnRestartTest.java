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
 * Array columns across restarts: a table's array columns (their types in the stored catalog) and
 * acknowledged rows, NULL elements and empty arrays included, read the same after the server is
 * killed with {@code kill -9} and restarted, twice, and a materialized view over them keeps
 * following writes after each restart.
 */
class ArrayColumnRestartTest {
    private static final String ROWS = "SELECT id, tags, nums, d, n FROM ta ORDER BY id";
    private static final String TYPES = "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute"
            + " WHERE attrelid = 'ta'::regclass AND attnum > 0 ORDER BY attnum";
    private static final String VIEW = "SELECT id, tags FROM va ORDER BY id";

    @TempDir
    Path tempDir;

    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void arrayColumnsSurviveRestarts() throws Exception {
        Path dataDir = tempDir.resolve("arrays");
        ServerProcess server = start(dataDir);
        List<String> rows;
        List<String> types;
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ta (id INT PRIMARY KEY, tags TEXT[], nums INT8[], d DATE[], n NUMERIC(6,2)[])");
            st.execute("INSERT INTO ta VALUES (1, '{a,\"b c\",NULL,\"\"}', '{1,NULL,-9000000000}', '{2024-01-02}',"
                    + " '{1.5,2}'), (2, '{}', NULL, '{}', NULL), (3, ARRAY['q\"r', 'x,y'], ARRAY[7], NULL, '{0.125}')");
            st.execute("CREATE MATERIALIZED VIEW va AS SELECT id, tags FROM ta WHERE 'a' = ANY (tags) OR id = 3");
            rows = rows(st, ROWS);
            types = rows(st, TYPES);
        }
        assertEquals(
                List.of(
                        "1 | {a,\"b c\",NULL,\"\"} | {1,NULL,-9000000000} | {2024-01-02} | {1.50,2.00}",
                        "2 | {} | null | {} | null",
                        "3 | {\"q\\\"r\",\"x,y\"} | {7} | null | {0.13}"),
                rows);
        assertEquals(
                List.of("id | integer", "tags | text[]", "nums | bigint[]", "d | date[]", "n | numeric(6,2)[]"), types);
        for (int cycle = 0; cycle < 2; cycle++) {
            server.kill9();
            server = start(dataDir);
            try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                    Statement st = c.createStatement()) {
                assertEquals(types, rows(st, TYPES));
                assertEquals(rows, rows(st, ROWS));
                int id = 10 + cycle;
                st.execute("INSERT INTO ta VALUES (" + id + ", ARRAY['a', 'cycle " + cycle + "'], '{" + id
                        + "}', NULL, NULL)");
                rows = rows(st, ROWS);
                assertEquals(
                        rows(st, "SELECT id, tags FROM ta WHERE 'a' = ANY (tags) OR id = 3 ORDER BY id"),
                        awaitView(st, id));
            }
        }
    }

    /** The view's rows once it holds row {@code id}: maintenance is asynchronous to the INSERT. */
    private static List<String> awaitView(Statement st, int id) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            List<String> view = rows(st, VIEW);
            if (view.stream().anyMatch(r -> r.startsWith(id + " |")) || System.nanoTime() > deadline) {
                return view;
            }
            Thread.sleep(50);
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
