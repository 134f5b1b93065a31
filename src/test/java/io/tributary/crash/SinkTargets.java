package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.connector.postgres.UpstreamPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads of a sink's relation on Tributary and of its target in the embedded PostgreSQL, for the
 * sink crash tests. Stateless; the test thread.
 */
final class SinkTargets {
    private SinkTargets() {}

    /** The rows of {@code sql} on {@code c}, each as its values joined by {@code |}. */
    static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i == 1 ? "" : "|").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    /** The rows of {@code sql} in the sinks' target, the embedded PostgreSQL. */
    static List<String> target(String sql) throws Exception {
        try (Connection c = UpstreamPostgres.connect()) {
            return rows(c, sql);
        }
    }

    /**
     * Waits until the target's rows of {@code targetSql} equal Tributary's rows of {@code
     * relationSql} as read now; after 90 s fails, naming the row counts first.
     */
    static void awaitEqual(Connection tributary, String relationSql, String targetSql) throws Exception {
        List<String> want = rows(tributary, relationSql);
        long deadline = System.currentTimeMillis() + 90_000;
        while (true) {
            List<String> have = target(targetSql);
            if (have.equals(want)) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                assertEquals(want.size(), have.size(), "row count of " + targetSql);
                assertEquals(want, have, targetSql);
            }
            Thread.sleep(100);
        }
    }
}
