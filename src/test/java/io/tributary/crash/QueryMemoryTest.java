package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batch queries far larger than the per-query memory budget, in a server with a small heap that
 * maintains a materialized view meanwhile: each query fails cleanly with 53200, the server lives,
 * and the view's next epochs still commit.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class QueryMemoryTest {
    @RegisterExtension
    final StartedServers servers = new StartedServers();

    /** Each keeps 10^8 rows or groups made from a 10^4-row table: gigabytes, against a 24 MB budget. */
    private static final String PAIRS = "SELECT a.unique1 * 10000 + b.unique1 AS k FROM tk a, tk b";

    private static final List<String> TOO_BIG = List.of(
            "SELECT a.unique1, b.unique1 FROM tk a, tk b ORDER BY 1, 2",
            "SELECT a.unique1, b.unique1 FROM tk a, tk b ORDER BY 1, 2 OFFSET 99999999",
            "SELECT count(*) FROM (SELECT DISTINCT k FROM (" + PAIRS + ") p) s",
            "SELECT count(*) FROM (SELECT k, count(*) FROM (" + PAIRS + ") p GROUP BY k) s",
            "SELECT count(*) FROM (" + PAIRS + ") x JOIN (" + PAIRS + ") y ON x.k = y.k",
            "SELECT count(*) FROM (" + PAIRS + " EXCEPT SELECT 1) s");

    @Test
    void queriesOverTheBudgetFailWith53200AndTheViewKeepsCommitting(@TempDir Path dir) throws Exception {
        try (ServerProcess server = servers.start(
                        dir, 50, List.of("-Xmx256m", "-XX:+UseSerialGC"), List.of("--query-memory", "24MB"));
                Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tk (unique1 INT PRIMARY KEY, ten INT)");
            st.execute("INSERT INTO tk SELECT x, x % 10 FROM generate_series(0, 9999) AS s(x)");
            st.execute("CREATE TABLE w (id INT PRIMARY KEY, g INT)");
            st.execute("CREATE MATERIALIZED VIEW wv AS SELECT g, count(*) AS n FROM w GROUP BY g");
            int written = 0;
            for (String sql : TOO_BIG) {
                st.execute("INSERT INTO w VALUES (" + written + ", " + (written % 3) + ")");
                written++;
                try {
                    st.executeQuery(sql).close();
                    throw new AssertionError("expected 53200 from " + sql);
                } catch (SQLException e) {
                    assertEquals("53200", e.getSQLState(), sql + ": " + e.getMessage());
                    assertTrue(e.getMessage().contains("out of memory"), e.getMessage());
                }
                st.execute("INSERT INTO w VALUES (" + written + ", " + (written % 3) + ")");
                written++;
                assertEquals(
                        written,
                        queryLong(st, "SELECT sum(n) FROM wv"),
                        "the view's epochs commit after " + sql + "\n" + server.output());
            }
            assertEquals(10000, queryLong(st, "SELECT count(*) FROM tk"), "the session is usable");
            // 3 * 10^6 rows with as many distinct (ten, value) pairs but 10 groups: within the budget
            try (ResultSet rs = st.executeQuery("SELECT a.ten, sum(a.unique1 * 1000 + b.unique1)"
                    + " FROM tk a, (SELECT unique1 FROM tk WHERE unique1 < 300) b GROUP BY a.ten")) {
                int groups = 0;
                while (rs.next()) {
                    groups++;
                }
                assertEquals(10, groups);
            }
            try (Connection other = DriverManager.getConnection(server.jdbcUrl());
                    Statement o = other.createStatement()) {
                assertEquals(written, queryLong(o, "SELECT count(*) FROM w"), "the server serves new clients");
            }
        }
    }

    private static long queryLong(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }
}
