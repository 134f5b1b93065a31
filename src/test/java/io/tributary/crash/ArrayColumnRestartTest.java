package io.tributary.crash;

import static io.tributary.crash.Sql.orderedRows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Statement;
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
    final RestartingServer server = new RestartingServer(20);

    @Test
    void arrayColumnsSurviveRestarts() throws Exception {
        server.start(tempDir.resolve("arrays"));
        List<String> types = server.read(st -> {
            st.execute("CREATE TABLE ta (id INT PRIMARY KEY, tags TEXT[], nums INT8[], d DATE[], n NUMERIC(6,2)[])");
            st.execute("INSERT INTO ta VALUES (1, '{a,\"b c\",NULL,\"\"}', '{1,NULL,-9000000000}', '{2024-01-02}',"
                    + " '{1.5,2}'), (2, '{}', NULL, '{}', NULL), (3, ARRAY['q\"r', 'x,y'], ARRAY[7], NULL, '{0.125}')");
            st.execute("CREATE MATERIALIZED VIEW va AS SELECT id, tags FROM ta WHERE 'a' = ANY (tags) OR id = 3");
            return orderedRows(st, TYPES);
        });
        List<String> rows = server.read(st -> orderedRows(st, ROWS));
        assertEquals(
                List.of(
                        "1 | {a,\"b c\",NULL,\"\"} | {1,NULL,-9000000000} | {2024-01-02} | {1.50,2.00}",
                        "2 | {} | null | {} | null",
                        "3 | {\"q\\\"r\",\"x,y\"} | {7} | null | {0.13}"),
                rows);
        assertEquals(
                List.of("id | integer", "tags | text[]", "nums | bigint[]", "d | date[]", "n | numeric(6,2)[]"), types);
        for (int cycle = 0; cycle < 2; cycle++) {
            server.killAndRestart();
            List<String> before = rows;
            int id = 10 + cycle;
            String tag = "cycle " + cycle;
            rows = server.read(st -> {
                assertEquals(types, orderedRows(st, TYPES));
                assertEquals(before, orderedRows(st, ROWS));
                st.execute("INSERT INTO ta VALUES (" + id + ", ARRAY['a', '" + tag + "'], '{" + id + "}', NULL, NULL)");
                List<String> after = orderedRows(st, ROWS);
                assertEquals(
                        orderedRows(st, "SELECT id, tags FROM ta WHERE 'a' = ANY (tags) OR id = 3 ORDER BY id"),
                        awaitView(st, id));
                return after;
            });
        }
    }

    /** The view's rows once it holds row {@code id}: maintenance is asynchronous to the INSERT. */
    private static List<String> awaitView(Statement st, int id) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            List<String> view = orderedRows(st, VIEW);
            if (view.stream().anyMatch(r -> r.startsWith(id + " |")) || System.nanoTime() > deadline) {
                return view;
            }
            Thread.sleep(50);
        }
    }
}
