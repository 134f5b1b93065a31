package io.tributary.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.meta.write.TransactionWrites;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

/**
 * What PostgreSQL cannot show in a one-thread differential test, because it would block a session
 * on a row lock: another session committing a conflicting row after the block's statement ran is
 * caught at COMMIT (23505 for a key both inserted, 40001 for a row both changed) and nothing of the
 * block is applied; and a block past its {@code transaction_max_rows} (at most {@link
 * TransactionWrites#MAX_ROWS}) fails with 54000 instead of filling the heap.
 */
class TransactionConflictTest {
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
    void conflictsCommittedAfterTheStatementFailTheCommit() throws Exception {
        served = ServedCluster.open(dataDir);
        try (Connection a = served.connect("dev", 30);
                Connection b = served.connect("dev", 30)) {
            exec(b, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            exec(b, "CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n, sum(v) AS total FROM t");
            exec(b, "INSERT INTO t VALUES (1, 10), (2, 20)");

            exec(a, "BEGIN");
            exec(a, "INSERT INTO t VALUES (3, 30), (4, 40)");
            exec(a, "UPDATE t SET v = 11 WHERE id = 1");
            exec(b, "INSERT INTO t VALUES (4, 41)");
            SQLException duplicate = assertThrows(SQLException.class, () -> exec(a, "COMMIT"));
            assertEquals("23505", duplicate.getSQLState(), duplicate.getMessage());
            assertEquals(TransactionState.IDLE, a.unwrap(BaseConnection.class).getTransactionState());
            assertEquals("3 71", row(a, "SELECT count(*), sum(v) FROM t"));
            assertEquals("3 71", row(a, "SELECT n, total FROM s"));

            exec(a, "BEGIN");
            exec(a, "INSERT INTO t VALUES (5, 50)");
            exec(a, "UPDATE t SET v = 12 WHERE id = 2");
            exec(b, "UPDATE t SET v = 21 WHERE id = 2");
            SQLException serialization = assertThrows(SQLException.class, () -> exec(a, "END"));
            assertEquals("40001", serialization.getSQLState(), serialization.getMessage());
            assertEquals("3 72", row(a, "SELECT count(*), sum(v) FROM t"));

            exec(a, "BEGIN");
            exec(a, "DELETE FROM t WHERE id = 1");
            exec(b, "DELETE FROM t WHERE id = 1");
            serialization = assertThrows(SQLException.class, () -> exec(a, "COMMIT"));
            assertEquals("40001", serialization.getSQLState(), serialization.getMessage());

            // without a conflict the block applies whole
            exec(a, "BEGIN");
            exec(a, "INSERT INTO t VALUES (5, 50)");
            exec(b, "INSERT INTO t VALUES (6, 60)");
            exec(a, "COMMIT");
            assertEquals(
                    "4 172 4 172", row(b, "SELECT count(*), sum(v), (SELECT n FROM s), (SELECT total FROM s) FROM t"));
        }
    }

    @Test
    void aBlockTooLargeFailsWith54000() throws Exception {
        served = ServedCluster.open(dataDir);
        try (Connection a = served.connect("dev", 120)) {
            exec(a, "CREATE TABLE big (id INT PRIMARY KEY)");
            exec(a, "BEGIN");
            exec(
                    a,
                    "INSERT INTO big SELECT x FROM generate_series(1, " + (TransactionWrites.MAX_ROWS - 10)
                            + ") AS g(x)");
            SQLException tooMany = assertThrows(
                    SQLException.class,
                    () -> exec(a, "INSERT INTO big SELECT x FROM generate_series(-20, -1) AS g(x)"));
            assertEquals("54000", tooMany.getSQLState(), tooMany.getMessage());
            assertEquals(TransactionState.FAILED, a.unwrap(BaseConnection.class).getTransactionState());
            exec(a, "ROLLBACK");
            assertEquals("0", row(a, "SELECT count(*) FROM big"));
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
