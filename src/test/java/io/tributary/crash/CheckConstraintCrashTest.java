package io.tributary.crash;

import static io.tributary.crash.Sql.orderedRows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.SQLException;
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
    final RestartingServer server = new RestartingServer(20);

    @Test
    void constraintsSurviveKillNine() throws Exception {
        server.start(tempDir.resolve("checks"));
        List<String> before = server.read(st -> {
            st.execute("CREATE TABLE c (id INT PRIMARY KEY, v INT CHECK (v > 0), w INT,"
                    + " CONSTRAINT w_over_v CHECK (w > v))");
            st.execute("INSERT INTO c VALUES (1, 1, 2)");
            return orderedRows(st, CONSTRAINTS);
        });
        assertEquals(2, before.size(), before.toString());
        for (int cycle = 0; cycle < 2; cycle++) {
            server.killAndRestart();
            int id = 10 + cycle;
            int good = 20 + cycle;
            server.run(st -> {
                assertEquals(before, orderedRows(st, CONSTRAINTS));
                SQLException refused = assertThrows(
                        SQLException.class, () -> st.execute("INSERT INTO c VALUES (" + id + ", 3, 2), (99, 1, 2)"));
                assertEquals("23514", refused.getSQLState());
                assertThrows(SQLException.class, () -> st.execute("INSERT INTO c VALUES (" + id + ", 0, 2)"));
                st.execute("INSERT INTO c VALUES (" + good + ", 2, 3)");
                List<String> ids = orderedRows(st, "SELECT id FROM c WHERE id <> 1 AND id < 20 ORDER BY id");
                assertEquals(List.of(), ids, "a refused statement left rows behind");
            });
        }
        assertEquals(List.of("1", "20", "21"), server.read(st -> orderedRows(st, "SELECT id FROM c ORDER BY id")));
    }
}
