package io.tributary.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.server.session.QueryLimits;
import io.tributary.sql.calcite.CalciteViewPlanner;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * Runaway statements over pgjdbc, psql and a raw socket against a real in-process server: a
 * cancel, a timeout or a vanished client stops every kind of long statement with 57014, the
 * session stays usable, and the server's CPU time stops growing. CPU is measured from this JVM's
 * own thread CPU times, which include the server's.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RunawayQueryTest {
    /** CPU the statement must have burnt before it is stopped, so the stop hits it mid-run. */
    private static final long RUNNING_CPU_NANOS = 300_000_000L;
    /** Generous for a shared 2-core CI machine; the measured latencies are printed. */
    private static final long MAX_STOP_MILLIS = 5_000;

    private static final long IDLE_WINDOW_MILLIS = 1_000;

    private static Path dataDir;
    private static Database db;
    private static PgServer server;

    @BeforeAll
    static void start() throws Exception {
        dataDir = Files.createTempDirectory("runaway-");
        db = Database.open(dataDir, 20, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db, new QueryLimits(0, 1L << 30)), null);
        server.start();
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tk (unique1 INT PRIMARY KEY, ten INT)");
            st.execute("INSERT INTO tk SELECT x, x % 10 FROM generate_series(0, 9999) AS s(x)");
            st.execute("CREATE TABLE sink (k INT PRIMARY KEY, c BIGINT)");
            st.execute("CREATE TABLE copied (a INT PRIMARY KEY, b INT)");
        }
    }

    @AfterAll
    static void stop() throws IOException {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (db != null) {
                db.close();
            }
            try (Stream<Path> walk = Files.walk(dataDir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Connection connect() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("connectTimeout", "5");
        props.setProperty("socketTimeout", "60");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", props);
    }

    /** The lateral join of the issue; about 10^8 row combinations. */
    private static final String LATERAL =
            "SELECT count(*) FROM tk a, LATERAL (SELECT * FROM tk b WHERE b.ten = a.ten + 0) c,"
                    + " tk d WHERE d.unique1 < 1000";

    static Stream<Arguments> longStatements() {
        return Stream.of(
                Arguments.of("nested loop", "SELECT count(*) FROM tk a, tk b WHERE a.unique1 + b.unique1 = -1"),
                Arguments.of("lateral join", LATERAL),
                Arguments.of("sort", "SELECT a.unique1 FROM tk a, tk b ORDER BY a.unique1 + b.unique1 LIMIT 1"),
                Arguments.of("aggregation", "SELECT a.ten, count(*) FROM tk a, tk b GROUP BY a.ten"),
                Arguments.of(
                        "window function",
                        "SELECT max(s) FROM (SELECT sum(a.unique1) OVER (ORDER BY a.unique1"
                                + " ROWS BETWEEN 100000 PRECEDING AND 100000 FOLLOWING) s FROM tk a, tk b) t"),
                Arguments.of(
                        "recursive CTE",
                        "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x)" + " SELECT count(*) FROM x"),
                Arguments.of(
                        "set operation",
                        "SELECT count(*) FROM (SELECT a.unique1 + b.unique1 FROM tk a, tk b" + " EXCEPT SELECT 1) s"),
                Arguments.of(
                        "INSERT ... SELECT", "INSERT INTO sink SELECT a.ten, count(*) FROM tk a, tk b GROUP BY a.ten"),
                Arguments.of(
                        "foreground CREATE MATERIALIZED VIEW",
                        "CREATE MATERIALIZED VIEW big AS"
                                + " SELECT a.ten, count(*) AS c FROM tk a JOIN tk b ON a.ten = b.ten GROUP BY a.ten"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("longStatements")
    void cancelStopsStatement(String family, String sql) throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            Map<Long, Long> cpuBefore = threadCpu();
            CompletableFuture<Void> run = CompletableFuture.runAsync(() -> execute(st, sql));
            awaitBusy(cpuBefore, run, family);
            Stopped stopped = stop(run, () -> {
                try {
                    st.cancel();
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
            });
            assertCanceled(stopped.error(), "canceling statement due to user request", family);
            report(family + " (cancel)", stopped);
            assertEquals(1, queryInt(c, "SELECT 1"), "the session must stay usable");
        }
        assertIdle(family);
        try (Connection c = connect()) {
            assertFalse(
                    queryInt(c, "SELECT count(*) FROM tributary_catalog.relations WHERE name = 'big'") > 0,
                    "a cancelled CREATE leaves nothing behind");
        }
    }

    @Test
    void cancelStopsCopy() throws Exception {
        try (Connection c = connect()) {
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            Map<Long, Long> cpuBefore = threadCpu();
            CompletableFuture<Void> run = CompletableFuture.runAsync(() -> {
                try {
                    copy.copyIn("COPY copied FROM STDIN", new Rows(3_000_000));
                } catch (SQLException | IOException e) {
                    throw new RuntimeException(e);
                }
            });
            awaitBusy(cpuBefore, run, "COPY");
            Stopped stopped = stop(run, () -> {
                try {
                    c.unwrap(org.postgresql.jdbc.PgConnection.class).cancelQuery();
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
            });
            assertCanceled(stopped.error(), "canceling statement due to user request", "COPY");
            // no bound on the latency here: pgjdbc reads the error only once it sent all its data
            System.out.printf(
                    "COPY (cancel): client saw 57014 after %d ms wall (it was still sending)%n", stopped.wallMillis());
            assertEquals(0, queryInt(c, "SELECT count(*) FROM copied"), "a cancelled COPY writes nothing");
        }
        assertIdle("COPY");
    }

    @Test
    void queryTimeoutOverJdbc() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.setQueryTimeout(1);
            long start = System.nanoTime();
            SQLException e = assertSqlError(() -> st.executeQuery(LATERAL));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals("57014", e.getSQLState(), e.getMessage());
            assertTrue(millis >= 1000 && millis < 1000 + MAX_STOP_MILLIS, "stopped after " + millis + " ms");
            System.out.printf("setQueryTimeout(1): 57014 after %d ms%n", millis);
            st.setQueryTimeout(0);
            assertEquals(1, queryInt(c, "SELECT 1"));
        }
        assertIdle("setQueryTimeout");
    }

    @Test
    void statementTimeoutSessionSetting() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("SET statement_timeout = '300ms'");
            long start = System.nanoTime();
            SQLException e = assertSqlError(() -> st.executeQuery(
                    "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x) SELECT count(*) FROM x"));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals("57014", e.getSQLState());
            assertTrue(e.getMessage().contains("canceling statement due to statement timeout"), e.getMessage());
            assertTrue(millis >= 300 && millis < 300 + MAX_STOP_MILLIS, "stopped after " + millis + " ms");
            System.out.printf("statement_timeout 300ms: 57014 after %d ms%n", millis);
            // quick statements are untouched, and the timer of one statement never hits the next
            for (int i = 0; i < 20; i++) {
                assertEquals(1, queryInt(c, "SELECT 1"));
            }
            st.execute("SET statement_timeout = 0");
            assertEquals(10000, queryInt(c, "SELECT count(*) FROM tk"));
        }
        assertIdle("statement_timeout");
    }

    @Test
    void serverDefaultStatementTimeout() throws Exception {
        try (PgServer limited =
                new PgServer("127.0.0.1", 0, new EngineSessionFactory(db, new QueryLimits(250, 1L << 30)), null)) {
            limited.start();
            Properties props = new Properties();
            props.setProperty("user", "root");
            try (Connection c = DriverManager.getConnection(
                            "jdbc:postgresql://127.0.0.1:" + limited.port() + "/dev", props);
                    Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("SHOW statement_timeout")) {
                    assertTrue(rs.next());
                    assertEquals("250ms", rs.getString(1));
                }
                SQLException e = assertSqlError(() -> st.executeQuery(LATERAL));
                assertEquals("57014", e.getSQLState());
                assertTrue(e.getMessage().contains("statement timeout"), e.getMessage());
                st.execute("RESET statement_timeout");
                try (ResultSet rs = st.executeQuery("SHOW statement_timeout")) {
                    assertTrue(rs.next());
                    assertEquals("250ms", rs.getString(1), "RESET returns to the server's default");
                }
            }
        }
        assertIdle("server default statement_timeout");
    }

    /** Starts psql against the test server, running {@code commands} in order (one {@code -c} each). */
    private Process psql(String... commands) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "psql", "-X", "-h", "127.0.0.1", "-p", Integer.toString(server.port()), "-U", "root", "-d", "dev"));
        for (String c : commands) {
            args.add("-c");
            args.add(c);
        }
        return new ProcessBuilder(args).redirectErrorStream(true).start();
    }

    @Test
    void statementTimeoutOverPsql() throws Exception {
        Process psql =
                psql("SET statement_timeout = '2s'", "SHOW statement_timeout", "SET statement_timeout = 200", LATERAL);
        assertTrue(psql.waitFor(60, TimeUnit.SECONDS), "psql did not end");
        String out = new String(psql.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, psql.exitValue(), out);
        assertTrue(out.contains(" 2s\n"), out);
        assertTrue(out.contains("ERROR:  canceling statement due to statement timeout"), out);
        assertIdle("psql statement_timeout");
    }

    @Test
    void killedPsqlFreesItsWork() throws Exception {
        Map<Long, Long> cpuBefore = threadCpu();
        Process psql = psql(LATERAL);
        CompletableFuture<Void> alive = psql.onExit().thenAccept(p -> {});
        awaitBusy(cpuBefore, alive, "psql");
        long killed = System.nanoTime();
        psql.destroyForcibly();
        assertTrue(psql.waitFor(10, TimeUnit.SECONDS));
        report("killed psql", awaitIdleAfter(killed));
        assertIdle("killed psql");
    }

    @Test
    void brokenSocketFreesItsWork() throws Exception {
        Map<Long, Long> cpuBefore = threadCpu();
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] params = "user\0root\0database\0dev\0\0".getBytes(StandardCharsets.US_ASCII);
            out.writeInt(8 + params.length);
            out.writeInt(196608);
            out.write(params);
            out.flush();
            awaitMessage(in, 'Z');
            byte[] query = (LATERAL + "\0").getBytes(StandardCharsets.UTF_8);
            out.writeByte('Q');
            out.writeInt(4 + query.length);
            out.write(query);
            out.flush();
            CompletableFuture<Void> never = new CompletableFuture<>();
            awaitBusy(cpuBefore, never, "raw socket");
            socket.setSoLinger(true, 0); // close with a reset, as a crashed client's kernel would
        }
        report("reset socket", awaitIdleAfter(System.nanoTime()));
        assertIdle("reset socket");
    }

    @Test
    void cancelWhileRowsAreSentStopsTheQuery() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] params = "user\0root\0database\0dev\0\0".getBytes(StandardCharsets.US_ASCII);
            out.writeInt(8 + params.length);
            out.writeInt(196608);
            out.write(params);
            out.flush();
            byte[] key = awaitMessage(in, 'K');
            awaitMessage(in, 'Z');
            // 10^8 rows: the server blocks on back-pressure while this client does not read
            byte[] query = "SELECT a.unique1, b.unique1 FROM tk a, tk b\0".getBytes(StandardCharsets.UTF_8);
            out.writeByte('Q');
            out.writeInt(4 + query.length);
            out.write(query);
            out.flush();
            awaitMessage(in, 'D');
            try (Socket cancel = new Socket("127.0.0.1", server.port())) {
                DataOutputStream c = new DataOutputStream(cancel.getOutputStream());
                c.writeInt(16);
                c.writeInt(80877102);
                c.write(key);
                c.flush();
                assertEquals(-1, cancel.getInputStream().read(), "a CancelRequest is never answered");
            }
            long rowsAfterCancel = 0;
            while (true) {
                char t = (char) in.readUnsignedByte();
                byte[] body = new byte[in.readInt() - 4];
                in.readFully(body);
                if (t == 'E') {
                    String fields = new String(body, StandardCharsets.UTF_8);
                    assertTrue(fields.contains("C57014"), fields);
                    assertTrue(fields.contains("canceling statement due to user request"), fields);
                    break;
                }
                assertEquals('D', t, "only rows precede the error");
                rowsAfterCancel++;
            }
            awaitMessage(in, 'Z');
            System.out.printf(
                    "cancel while sending rows: %d rows (already produced) followed the cancel%n", rowsAfterCancel);
            assertTrue(rowsAfterCancel < 10_000_000, rowsAfterCancel + " rows after the cancel");
        }
        assertIdle("cancel while sending rows");
    }

    // ---------------------------------------------------------------- helpers

    private record Stopped(Throwable error, long wallMillis, long cpuMillis) {}

    /** Stops the running statement and waits for its failure; measures wall and process CPU time to it. */
    private static Stopped stop(CompletableFuture<Void> run, Runnable stopper) throws InterruptedException {
        long wall = System.nanoTime();
        Map<Long, Long> cpu = threadCpu();
        stopper.run();
        try {
            run.get(60, TimeUnit.SECONDS);
            fail("the statement completed instead of stopping");
            return null;
        } catch (ExecutionException e) {
            return new Stopped(e.getCause(), (System.nanoTime() - wall) / 1_000_000, cpuSince(cpu) / 1_000_000);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the statement did not stop within 60 s");
        }
    }

    private static void assertCanceled(Throwable error, String message, String family) {
        Throwable cause = error instanceof RuntimeException && error.getCause() != null ? error.getCause() : error;
        SQLException e = assertInstanceOf(SQLException.class, cause, family + ": " + error);
        assertEquals("57014", e.getSQLState(), family + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(message), family + ": " + e.getMessage());
    }

    private static void report(String what, Stopped stopped) {
        System.out.printf("%s: stopped after %d ms wall, %d ms CPU%n", what, stopped.wallMillis(), stopped.cpuMillis());
        assertTrue(stopped.wallMillis() < MAX_STOP_MILLIS, what + " took " + stopped.wallMillis() + " ms to stop");
    }

    /**
     * Waits at least {@code millis}. A single {@code LockSupport.parkNanos} may return at once (a
     * pending unpark permit of this thread), which left a measuring window empty: "CPU grew 0 ms
     * over 0 ms" failed the idle check.
     */
    private static void pause(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** Waits until the process's CPU time stops growing after a stop at {@code since}; how long that took. */
    private static Stopped awaitIdleAfter(long since) {
        Map<Long, Long> cpuStart = threadCpu();
        long deadline = since + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            long windowStart = System.nanoTime();
            long spent = cpuSince(cpuStart);
            Map<Long, Long> cpu = threadCpu();
            pause(200);
            double share = cpuSince(cpu) / (double) (System.nanoTime() - windowStart);
            if (share < 0.25) {
                return new Stopped(null, (windowStart - since) / 1_000_000, spent / 1_000_000);
            }
        }
        throw new AssertionError("the server kept burning CPU for 30 s after its client went away");
    }

    /**
     * After a stop: over a following window the process's CPU time grows by far less than wall
     * time (a runaway statement would add about one core's worth).
     */
    private static void assertIdle(String what) {
        long wall = System.nanoTime();
        Map<Long, Long> cpu = threadCpu();
        pause(IDLE_WINDOW_MILLIS);
        long cpuGrowth = cpuSince(cpu);
        long wallGrowth = System.nanoTime() - wall;
        System.out.printf(
                "%s: after the stop, CPU grew %d ms over %d ms%n", what, cpuGrowth / 1_000_000, wallGrowth / 1_000_000);
        assertTrue(
                cpuGrowth < wallGrowth / 4,
                what + ": CPU grew " + cpuGrowth / 1_000_000 + " ms over " + wallGrowth / 1_000_000
                        + " ms after the statement was stopped");
    }

    /** Waits until the statement has burnt {@link #RUNNING_CPU_NANOS} of CPU while still running. */
    private static void awaitBusy(Map<Long, Long> cpuBefore, CompletableFuture<Void> run, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (cpuSince(cpuBefore) < RUNNING_CPU_NANOS) {
            if (run.isDone()) {
                fail(what + ": the statement ended before it could be stopped: " + run);
            }
            if (System.nanoTime() > deadline) {
                fail(what + ": the statement never got busy");
            }
            pause(10);
        }
        assertFalse(run.isDone(), what + ": the statement ended before it could be stopped");
    }

    /**
     * CPU time of each of this JVM's threads (the server's and the test's), from ThreadMXBean. The
     * JIT compiler threads are left out, and GC threads are not Java threads: both keep working
     * for a while after a heavy statement, which says nothing about whether the statement runs.
     */
    private static Map<Long, Long> threadCpu() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && !info.getThreadName().contains("CompilerThread")) {
                long t = threads.getThreadCpuTime(info.getThreadId());
                if (t >= 0) {
                    cpu.put(info.getThreadId(), t);
                }
            }
        }
        return cpu;
    }

    /** CPU the threads alive now used since {@code before} (all of it for threads started since). */
    private static long cpuSince(Map<Long, Long> before) {
        long growth = 0;
        for (Map.Entry<Long, Long> e : threadCpu().entrySet()) {
            growth += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return growth;
    }

    private static void execute(Statement st, String sql) {
        try {
            st.execute(sql);
        } catch (SQLException e) {
            throw new RuntimeException(e);
        }
    }

    private interface SqlAction {
        void run() throws SQLException;
    }

    private static SQLException assertSqlError(SqlAction action) {
        try {
            action.run();
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("expected an error");
    }

    private static int queryInt(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getInt(1);
        }
    }

    /** Reads backend messages until one of {@code type}; returns its body. */
    private static byte[] awaitMessage(DataInputStream in, char type) throws IOException {
        while (true) {
            char t = (char) in.readUnsignedByte();
            byte[] body = new byte[in.readInt() - 4];
            in.readFully(body);
            if (t == type) {
                return body;
            }
        }
    }

    /**
     * COPY text rows "n\tn\n" for n = 0 .. count - 1: far more than the server takes before the
     * cancel. (pgjdbc reads the server's error only when the copy ends, so the data must end.)
     */
    private static final class Rows extends InputStream {
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private final long count;
        private byte[] current = new byte[0];
        private int at;
        private long n;

        Rows(long count) {
            this.count = count;
        }

        @Override
        public int read() {
            if (at == current.length) {
                if (n == count) {
                    return -1;
                }
                line.reset();
                byte[] text = (n + "\t" + n + "\n").getBytes(StandardCharsets.US_ASCII);
                line.writeBytes(text);
                n++;
                current = line.toByteArray();
                at = 0;
            }
            return current[at++];
        }
    }
}
