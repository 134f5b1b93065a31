package io.tributary.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator and psql see at the edges: a second server on a busy data directory and a
 * server on a port in use each say why in one line, without a stack trace; a column alias written
 * with Unicode escapes reaches psql and pgjdbc as a well-formed column name.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StartupHygieneTest {
    @RegisterExtension
    final StartedServers servers = new StartedServers();

    @Test
    void secondServerOnTheSameDataDirectoryExplainsInOneLine(@TempDir Path dir) throws Exception {
        try (ServerProcess first = servers.start(dir, 100)) {
            Result second = run("playground", "--port", "0", "--http-port", "0", "--data-dir", dir.toString());
            assertEquals(1, second.exitCode(), second.output());
            assertNoTrace(second.output());
            List<String> errors = second.lines().stream()
                    .filter(l -> l.contains("cannot open"))
                    .toList();
            assertEquals(1, errors.size(), second.output());
            assertTrue(errors.get(0).contains("in use by another Tributary server"), second.output());
        }
    }

    @Test
    void portInUseNamesTheReasonOnce(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            Result r = run(
                    "playground", "--port", Integer.toString(port), "--http-port", "0", "--data-dir", dir.toString());
            assertEquals(1, r.exitCode(), r.output());
            assertNoTrace(r.output());
            String expected = "cannot listen on 127.0.0.1:" + port + ": Address already in use";
            assertTrue(r.lines().contains(expected), r.output());
            assertEquals(r.output().indexOf("cannot listen"), r.output().lastIndexOf("cannot listen"), r.output());
        }
    }

    @Test
    void unicodeEscapedAliasIsAWellFormedColumnName(@TempDir Path dir) throws Exception {
        try (ServerProcess server = servers.start(dir, 100)) {
            String sql = "SELECT 1 AS U&\"d\\0061t\\+000061\", 2 AS U&\"x!0041\" UESCAPE '!'";
            try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(sql)) {
                assertEquals("data", rs.getMetaData().getColumnLabel(1));
                assertEquals("xA", rs.getMetaData().getColumnLabel(2));
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
            }
            int port = Integer.parseInt(server.jdbcUrl().replaceAll(".*:(\\d+)/.*", "$1"));
            Process psql = new ProcessBuilder(
                            "psql",
                            "-X",
                            "-A",
                            "-h",
                            "127.0.0.1",
                            "-p",
                            Integer.toString(port),
                            "-U",
                            "root",
                            "-d",
                            "dev",
                            "-c",
                            sql)
                    .redirectErrorStream(true)
                    .start();
            assertTrue(psql.waitFor(30, TimeUnit.SECONDS));
            String out = new String(psql.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, psql.exitValue(), out);
            assertTrue(out.startsWith("data|xA\n1|2\n"), out);
        }
    }

    private record Result(int exitCode, String output) {
        List<String> lines() {
            return output.lines().toList();
        }
    }

    private static Result run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                "io.tributary.cli.Main"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        return new Result(p.exitValue(), out);
    }

    private static void assertNoTrace(String output) {
        assertFalse(output.contains("\tat ") || output.contains("Exception"), "a stack trace:\n" + output);
    }
}
