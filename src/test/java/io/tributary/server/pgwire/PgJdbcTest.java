package io.tributary.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Real clients (pgjdbc, psql) against PgServer over TCP, with the scripted test session behind it. */
class PgJdbcTest {
    private static final String PASSWORD = "pa55word";
    private static final List<PgFakeSession> SESSIONS = new CopyOnWriteArrayList<>();
    private static final CountDownLatch SLEEPING = new CountDownLatch(1);
    private static PgServer trustServer;
    private static PgServer passwordServer;

    @BeforeAll
    static void start() {
        trustServer = new PgServer("127.0.0.1", 0, PgFakeSession.factory(SESSIONS, SLEEPING), null);
        trustServer.start();
        passwordServer = new PgServer("127.0.0.1", 0, PgFakeSession.factory(SESSIONS, SLEEPING), PASSWORD);
        passwordServer.start();
    }

    @AfterAll
    static void stop() {
        trustServer.close();
        passwordServer.close();
    }

    private static Connection connect(PgServer server, String password) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "root");
        if (password != null) {
            props.setProperty("password", password);
        }
        props.setProperty("connectTimeout", "5");
        props.setProperty("socketTimeout", "15");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", props);
    }

    @Test
    void plainQuery() throws Exception {
        try (Connection c = connect(trustServer, null);
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("select * from gen(3)")) {
                int n = 0;
                while (rs.next()) {
                    assertEquals(++n, rs.getInt(1));
                }
                assertEquals(3, n);
            }
            try (ResultSet rs = st.executeQuery("select types")) {
                assertTrue(rs.next());
                assertTrue(rs.getBoolean("b"));
                assertEquals(-7, rs.getShort("i2"));
                assertEquals(1L << 40, rs.getLong("i8"));
                assertEquals(new BigDecimal("-12345.678"), rs.getBigDecimal("num"));
                assertEquals("héllo", rs.getString("t"));
                assertArrayEquals(new byte[] {1, 2, (byte) 0xff}, rs.getBytes("by"));
                assertEquals("2022-01-08", rs.getString("d"));
            }
        }
    }

    @Test
    void preparedStatementSwitchesToBinary() throws Exception {
        try (Connection c = connect(trustServer, null);
                PreparedStatement ps = c.prepareStatement("echo ?, ?, ?, ?, ?, ?")) {
            for (int i = 0; i < 10; i++) {
                BigDecimal decimal = new BigDecimal("-98765.4321").add(BigDecimal.valueOf(i));
                ps.setInt(1, i);
                ps.setLong(2, -1L << 40);
                ps.setDouble(3, 0.5 + i);
                ps.setBigDecimal(4, decimal);
                ps.setString(5, "row " + i);
                ps.setBytes(6, new byte[] {(byte) i, 0, -1});
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(i, rs.getInt(1));
                    assertEquals(-1L << 40, rs.getLong(2));
                    assertEquals(0.5 + i, rs.getDouble(3));
                    assertEquals(0, decimal.compareTo(rs.getBigDecimal(4)), rs.getBigDecimal(4) + " vs " + decimal);
                    assertEquals("row " + i, rs.getString(5));
                    assertArrayEquals(new byte[] {(byte) i, 0, -1}, rs.getBytes(6));
                    assertFalse(rs.next());
                }
            }
        }
    }

    @Test
    void allTypesInBinary() throws Exception {
        try (Connection c = connect(trustServer, null);
                PreparedStatement ps = c.prepareStatement("select types")) {
            for (int i = 0; i < 7; i++) {
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(42, rs.getInt("i4"));
                    assertEquals(1.5f, rs.getFloat("f4"));
                    assertEquals(-2.25d, rs.getDouble("f8"));
                    assertEquals(new BigDecimal("-12345.678"), rs.getBigDecimal("num"));
                    assertEquals("2022-01-08", rs.getDate("d").toString());
                    assertEquals("01:02:03", rs.getTime("tm").toString());
                    assertEquals(
                            1_700_000_000_123L,
                            rs.getTimestamp("ts", java.util.Calendar.getInstance(java.util.TimeZone.getTimeZone("UTC")))
                                    .getTime());
                    assertEquals(1_700_000_000_000L, rs.getTimestamp("tz").getTime());
                    assertEquals("1 year 2 mons 3 days 00:00:05", rs.getString("iv"));
                }
            }
        }
    }

    @Test
    void batchInsert() throws Exception {
        try (Connection c = connect(trustServer, null);
                PreparedStatement ps = c.prepareStatement("insert into batch values (?, ?)")) {
            for (int i = 0; i < 5; i++) {
                ps.setInt(1, i);
                ps.setString(2, "v" + i);
                ps.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1, 1, 1}, ps.executeBatch());
        }
        long inserts = SESSIONS.stream()
                .flatMap(s -> s.executed.stream())
                .filter(e -> e.startsWith("insert into batch"))
                .count();
        assertEquals(5, inserts);
    }

    @Test
    void fetchSizeStreamsThroughPortal() throws Exception {
        try (Connection c = connect(trustServer, null)) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.setFetchSize(10);
                try (ResultSet rs = st.executeQuery("select * from gen(95)")) {
                    int n = 0;
                    while (rs.next()) {
                        assertEquals(++n, rs.getInt(1));
                    }
                    assertEquals(95, n);
                }
            }
            c.commit();
        }
    }

    @Test
    void passwordAuthentication() throws Exception {
        try (Connection c = connect(passwordServer, PASSWORD);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select 1")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1));
        }
        SQLException e = assertThrows(
                SQLException.class, () -> connect(passwordServer, "wrong").close());
        assertEquals("28P01", e.getSQLState());
        assertTrue(e.getMessage().contains("password authentication failed for user \"root\""), e.getMessage());
    }

    @Test
    void cancelFromAnotherThread() throws Exception {
        ExecutorService canceller = Executors.newSingleThreadExecutor();
        try (Connection c = connect(trustServer, null);
                Statement st = c.createStatement()) {
            Future<?> cancel = canceller.submit(() -> {
                SLEEPING.await(10, TimeUnit.SECONDS);
                st.cancel();
                return null;
            });
            SQLException e = assertThrows(SQLException.class, () -> st.execute("sleep"));
            assertEquals("57014", e.getSQLState());
            cancel.get(10, TimeUnit.SECONDS);
            try (ResultSet rs = st.executeQuery("select 1")) {
                assertTrue(rs.next());
            }
        } finally {
            canceller.shutdownNow();
        }
    }

    @Test
    void psqlRunsAQuery() throws Exception {
        assumeTrue(new File("/usr/bin/psql").canExecute(), "psql not installed");
        Result trust = psql(trustServer, null);
        assertEquals(0, trust.exitCode(), trust.output());
        assertTrue(trust.output().contains("?column?") && trust.output().contains("(1 row)"), trust.output());
        Result password = psql(passwordServer, PASSWORD);
        assertEquals(0, password.exitCode(), password.output());
        Result wrong = psql(passwordServer, "nope");
        assertEquals(2, wrong.exitCode(), wrong.output());
        assertTrue(wrong.output().contains("password authentication failed"), wrong.output());
    }

    private record Result(int exitCode, String output) {}

    private static Result psql(PgServer server, String password) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(
                        "psql",
                        "-h",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(server.port()),
                        "-U",
                        "root",
                        "-d",
                        "dev",
                        "-w",
                        "-c",
                        "select 1",
                        "-v",
                        "ON_ERROR_STOP=1")
                .redirectErrorStream(true);
        pb.environment().remove("PGPASSWORD");
        pb.environment().put("PGCONNECT_TIMEOUT", "5");
        if (password != null) {
            pb.environment().put("PGPASSWORD", password);
        }
        Process p = pb.start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "psql did not finish");
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
