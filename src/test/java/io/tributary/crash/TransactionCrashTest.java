package io.tributary.crash;

import static io.tributary.crash.Sql.orderedRows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transaction blocks under {@code kill -9}: a block still open when the server is killed leaves
 * nothing behind, though epochs committed around it every 20 ms; a block whose COMMIT returned is
 * there whole after the restart, in both tables it wrote and in the materialized view over them.
 */
class TransactionCrashTest {
    @TempDir
    Path tempDir;

    @RegisterExtension
    final RestartingServer server = new RestartingServer(20);

    @Test
    void openBlockLeavesNothingCommittedBlockIsWhole() throws Exception {
        server.start(tempDir.resolve("txn"));
        server.run(st -> {
            st.execute("CREATE TABLE a (id INT PRIMARY KEY, v INT)");
            st.execute("CREATE TABLE b (id INT PRIMARY KEY, a_id INT)");
            st.execute("INSERT INTO a SELECT x, 0 FROM generate_series(1, 100) AS g(x)");
            st.execute("CREATE MATERIALIZED VIEW totals AS SELECT count(*) AS n, sum(v) AS s FROM a");
        });
        // not closed: the kill ends them
        Connection committed = server.connect();
        Connection open = server.connect();
        try (Statement c = committed.createStatement();
                Statement o = open.createStatement()) {
            c.execute("BEGIN");
            c.execute("UPDATE a SET v = v + 1 WHERE id <= 50");
            c.execute("INSERT INTO a SELECT x, 7 FROM generate_series(101, 5000) AS g(x)");
            c.execute("INSERT INTO b SELECT x, x FROM generate_series(1, 3000) AS g(x)");
            c.execute("DELETE FROM a WHERE id BETWEEN 91 AND 100");
            c.execute("COMMIT");

            o.execute("BEGIN");
            o.execute("INSERT INTO a SELECT x, 1 FROM generate_series(6001, 9000) AS g(x)");
            o.execute("UPDATE a SET v = 1000 WHERE id <= 10");
            o.execute("DELETE FROM b WHERE id <= 1000");
            // the server commits several epochs while the block stays open
            Thread.sleep(200);
            // ids 1..90 (50 of them raised to 1) and 101..5000 at 7: the committed block alone
            assertEquals(List.of("4990 | 34350"), orderedRows(c, "SELECT count(*), sum(v) FROM a"));
        }
        server.killAndRestart();
        server.run(st -> {
            assertEquals(List.of("4990 | 34350"), orderedRows(st, "SELECT count(*), sum(v) FROM a"));
            assertEquals(List.of("0"), orderedRows(st, "SELECT count(*) FROM a WHERE id > 6000 OR v = 1000"));
            assertEquals(List.of("3000 | 1 | 3000"), orderedRows(st, "SELECT count(*), min(id), max(id) FROM b"));
            assertEquals(List.of("4990 | 34350"), orderedRows(st, "SELECT n, s FROM totals"));
        });
    }
}
