package io.tributary.crash;

import static io.tributary.crash.Sql.orderedRows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code char(n)} columns across a restart: the stored catalog keeps their lengths, acknowledged
 * rows keep their padding, the primary key still ignores trailing blanks (a second {@code 'ab '}
 * is a duplicate of {@code 'ab'}), and a materialized view grouping by one keeps following writes.
 */
class CharColumnRestartTest {
    private static final String ROWS = "SELECT code, name, '[' || flag::text || ']' AS f, flag FROM tc ORDER BY code";
    private static final String TYPES = "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute"
            + " WHERE attrelid = 'tc'::regclass AND attnum > 0 ORDER BY attnum";
    private static final String VIEW = "SELECT flag, n FROM vc ORDER BY flag";

    @TempDir
    Path tempDir;

    @RegisterExtension
    final RestartingServer server = new RestartingServer(20);

    @Test
    void charColumnsSurviveRestart() throws Exception {
        server.start(tempDir.resolve("chars"));
        List<String> rows = server.read(st -> {
            st.execute("CREATE TABLE tc (code char(3) PRIMARY KEY, name text, flag char(2))");
            st.execute("INSERT INTO tc VALUES ('ab', 'first', 'y'), ('c', 'second', 'n '), ('xyz', 'third', 'y')");
            st.execute("CREATE MATERIALIZED VIEW vc AS SELECT flag, count(*) AS n FROM tc GROUP BY flag");
            return orderedRows(st, ROWS);
        });
        assertEquals(List.of("ab  | first | [y] | y ", "c   | second | [n] | n ", "xyz | third | [y] | y "), rows);
        server.killAndRestart();
        server.run(st -> {
            assertEquals(List.of("code | character(3)", "name | text", "flag | character(2)"), orderedRows(st, TYPES));
            assertEquals(rows, orderedRows(st, ROWS));
            SQLException duplicate = null;
            try {
                st.execute("INSERT INTO tc VALUES ('ab ', 'again', 'n')");
            } catch (SQLException e) {
                duplicate = e;
            }
            assertTrue(duplicate != null && "23505".equals(duplicate.getSQLState()), String.valueOf(duplicate));
            st.execute("INSERT INTO tc VALUES ('d', 'fourth', 'n')");
            assertEquals(List.of("n  | 2", "y  | 2"), awaitView(st));
        });
    }

    /** The view's rows once it counts the row inserted after the restart: maintenance is asynchronous. */
    private static List<String> awaitView(Statement st) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            List<String> view = orderedRows(st, VIEW);
            if (view.contains("n  | 2") || System.nanoTime() > deadline) {
                return view;
            }
            Thread.sleep(50);
        }
    }
}
