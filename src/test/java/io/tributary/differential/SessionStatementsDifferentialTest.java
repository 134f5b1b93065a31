package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * The session statements tools use, run on Tributary and on an embedded PostgreSQL with the same
 * table: SQL-level PREPARE / EXECUTE / DEALLOCATE, set_config / current_setting, and COPY ... TO
 * STDOUT, whose bytes (through pgjdbc's CopyManager and through psql's {@code \copy}) must be
 * identical. EXPLAIN's plan is Tributary's own, so only its shape is compared: one text column
 * named {@code QUERY PLAN}.
 */
class SessionStatementsDifferentialTest {
    private static final String PSQL = "/usr/bin/psql";
    private static final List<String> SETUP = List.of(
            "CREATE TABLE c (id INT PRIMARY KEY, s TEXT, f DOUBLE PRECISION, d DATE, b BOOLEAN, n NUMERIC(10,2))",
            "INSERT INTO c VALUES (1, 'a,b', 1.5, DATE '2024-01-02', true, 3.1)",
            "INSERT INTO c VALUES (2, E'tab\\there\\nnew line \\\\ back\"q''', NULL, NULL, false, NULL)",
            "INSERT INTO c VALUES (3, '', -0.25, DATE '1999-12-31', NULL, -7)",
            "INSERT INTO c VALUES (4, '\\.', 1e20, DATE '2000-02-29', true, 0)",
            "INSERT INTO c VALUES (5, 'semi;colon|pipe', 0.1, DATE '2024-02-29', false, 12345678.9)");

    /** Statements run in order in one session; each outcome (rows, or SQLSTATE) must match. */
    private static final List<String> SESSION = List.of(
            "PREPARE p1 (int) AS SELECT $1 + 1 AS x, s FROM c WHERE id = $1",
            "EXECUTE p1(1)",
            "EXECUTE p1 (3)",
            "EXECUTE p1('4')",
            "PREPARE p1 AS SELECT 1",
            "EXECUTE nosuch",
            "EXECUTE p1",
            "EXECUTE p1(1, 2)",
            "PREPARE p2 (int, text) AS SELECT id FROM c WHERE id > $1 AND s <> $2 ORDER BY id",
            "EXECUTE p2(1, 'x')",
            "EXECUTE p2(0, '')",
            "PREPARE p3 AS SELECT count(*) FROM c",
            "EXECUTE p3",
            "PREPARE p4 AS SELECT * FROM nosuch",
            "EXECUTE p4",
            "DEALLOCATE p1",
            "DEALLOCATE p1",
            "DEALLOCATE PREPARE p2",
            "EXECUTE p2(1, 'x')",
            "DEALLOCATE ALL",
            "EXECUTE p3",
            "SELECT set_config('application_name', 'copy test', false)",
            "SHOW application_name",
            "SELECT current_setting('application_name')",
            "SELECT current_setting('nosuch.setting', true)",
            "SELECT current_setting('nosuch_setting')",
            "SELECT pg_catalog.set_config('statement_timeout', '5s', false)",
            "SHOW statement_timeout",
            "SELECT current_setting('statement_timeout')",
            "SET statement_timeout = 0",
            "SELECT current_setting('client_min_messages')",
            "SET DateStyle = 'ISO, DMY'",
            "SHOW DateStyle",
            "SELECT DATE '2024-03-15', TIMESTAMP '2024-03-15 10:20:30'",
            "SET DateStyle = 'YMD'",
            "SHOW DateStyle",
            "SET DateStyle = 'ISO, MDY'",
            "SET client_min_messages = warning",
            "SHOW client_min_messages",
            "SET extra_float_digits = 3",
            "SELECT 0.1::float8 + 0.2::float8, 1.5::float8",
            "SET application_name = 'tool'",
            "SELECT current_setting('application_name')");

    private static final List<String> COPIES = List.of(
            "COPY (SELECT * FROM c ORDER BY id) TO STDOUT",
            "COPY (SELECT * FROM c ORDER BY id) TO STDOUT WITH (FORMAT csv)",
            "COPY (SELECT * FROM c ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)",
            "COPY (SELECT * FROM c ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER true, DELIMITER ';', NULL 'NULL')",
            "COPY (SELECT * FROM c ORDER BY id) TO STDOUT WITH (DELIMITER '|', NULL '')",
            "COPY (SELECT * FROM c ORDER BY id) TO STDOUT CSV HEADER",
            "COPY (SELECT s FROM c ORDER BY id) TO STDOUT WITH (FORMAT csv)",
            "COPY (SELECT id, s, n FROM c WHERE id > 2 ORDER BY id DESC) TO STDOUT WITH (FORMAT csv, QUOTE '''')",
            "COPY (SELECT id, 'x' || s AS label FROM c ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)");

    private static Connection pg;
    private static InProcessTributary tributary;
    private static Connection trib;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("session-diff-", 20, "postgres", "", 60);
        trib = tributary.connection;
        for (Connection c : List.of(pg, trib)) {
            try (Statement s = c.createStatement()) {
                for (String sql : SETUP) {
                    s.execute(sql);
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void sessionStatementsLikePostgres() {
        List<String> mismatches =
                StatementOutcome.mismatches(pg, trib, SESSION, SessionStatementsDifferentialTest::outcome);
        assertEquals(List.of(), mismatches);
    }

    @Test
    void copyToThroughCopyManagerIsByteIdentical() throws Exception {
        for (String sql : COPIES) {
            assertEquals(copyOut(pg, sql), copyOut(trib, sql), sql);
        }
        // a table's rows come in no particular order: the same lines, sorted
        for (String sql : List.of(
                "COPY c TO STDOUT", "COPY c (id, s) TO STDOUT WITH (FORMAT csv)", "COPY public.c TO STDOUT CSV")) {
            assertEquals(sortedLines(copyOut(pg, sql)), sortedLines(copyOut(trib, sql)), sql);
        }
    }

    @Test
    void copyToThroughPsqlIsByteIdentical() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        for (String command : List.of(
                "\\copy (SELECT * FROM c ORDER BY id) to stdout",
                "\\copy (SELECT * FROM c ORDER BY id) to stdout with (format csv, header)",
                "COPY (SELECT id, s FROM c ORDER BY id) TO STDOUT WITH (FORMAT csv, DELIMITER '|')")) {
            assertEquals(psql(DifferentialPostgres.port(), command), psql(tributary.port(), command), command);
        }
    }

    @Test
    void copyToErrorsLikePostgres() {
        for (String sql : List.of(
                "COPY nosuch TO STDOUT",
                "COPY (SELECT nosuch FROM c) TO STDOUT",
                "COPY c TO STDOUT WITH (FORMAT csv, DELIMITER 'ab')")) {
            assertEquals(copyError(pg, sql), copyError(trib, sql), sql);
        }
        assertEquals("0A000", copyError(trib, "COPY c TO '/tmp/file'"));
    }

    @Test
    void explainIsOneTextColumnNamedQueryPlan() throws SQLException {
        try (Statement s = trib.createStatement();
                ResultSet rs = s.executeQuery("EXPLAIN SELECT id, count(*) FROM c WHERE id > 1 GROUP BY id")) {
            assertEquals(1, rs.getMetaData().getColumnCount());
            assertEquals("QUERY PLAN", rs.getMetaData().getColumnLabel(1));
            assertEquals("text", rs.getMetaData().getColumnTypeName(1));
            List<String> plan = new ArrayList<>();
            while (rs.next()) {
                plan.add(rs.getString(1));
            }
            assertFalse(plan.isEmpty(), "a plan has lines");
            // the runaway guards are Tributary's machinery, not the query's plan
            assertTrue(plan.stream().noneMatch(l -> l.contains("Guarded")), String.join("\n", plan));
            assertFalse(plan.get(0).startsWith(" "), "the root is not indented: " + plan);
            for (int i = 1; i < plan.size(); i++) {
                int depth = plan.get(i).length() - plan.get(i).stripLeading().length();
                int above = plan.get(i - 1).length()
                        - plan.get(i - 1).stripLeading().length();
                assertTrue(depth <= above + 2, "each line at most one level below the one above: " + plan);
            }
        }
        try (Statement s = trib.createStatement();
                ResultSet rs = s.executeQuery("EXPLAIN (FORMAT TEXT) SELECT 1")) {
            assertTrue(rs.next());
        }
        for (String sql : List.of(
                "EXPLAIN INSERT INTO c VALUES (9, 'x', 0, NULL, NULL, NULL)",
                "EXPLAIN ANALYZE SELECT 1",
                "EXPLAIN (FORMAT JSON) SELECT 1",
                "EXPLAIN CREATE TABLE x (a INT)")) {
            assertEquals("ERROR 0A000", outcome(trib, sql), sql);
        }
        assertEquals(outcome(pg, "EXPLAIN SELECT * FROM nosuch"), outcome(trib, "EXPLAIN SELECT * FROM nosuch"));
    }

    /** The rows as texts, the command's update count, or {@code ERROR <sqlstate>}. */
    private static String outcome(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            if (!s.execute(sql)) {
                return "OK";
            }
            try (ResultSet rs = s.getResultSet()) {
                List<String> rows = new ArrayList<>();
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        row.add(rs.getMetaData().getColumnLabel(i) + "=" + rs.getString(i));
                    }
                    rows.add(row.toString());
                }
                return rows.toString();
            }
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState();
        }
    }

    private static String copyOut(Connection c, String sql) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long n = c.unwrap(PGConnection.class).getCopyAPI().copyOut(sql, bytes);
        return n + " rows\n" + bytes.toString(StandardCharsets.UTF_8);
    }

    private static String copyError(Connection c, String sql) {
        try {
            copyOut(c, sql);
            return "no error";
        } catch (SQLException e) {
            return e.getSQLState();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> sortedLines(String text) {
        return text.lines().sorted().toList();
    }

    private static String psql(int port, String command) throws Exception {
        Process p = new ProcessBuilder(
                        PSQL,
                        "-X",
                        "-h",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(port),
                        "-U",
                        "postgres",
                        "-d",
                        "dev",
                        "-c",
                        command)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("psql did not finish: " + command);
        }
        return out;
    }
}
