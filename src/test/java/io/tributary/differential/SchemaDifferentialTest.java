package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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

/**
 * {@code CREATE SCHEMA}, {@code DROP SCHEMA}, {@code search_path}, {@code current_schema()} and
 * {@code current_schemas(bool)} answer as PostgreSQL does: the same statements run in order in one
 * session of each, and every statement's rows (as text) or SQLSTATE must be equal. Both are reached
 * as {@code postgres}, so {@code "$user"} in the path names the same schema on both.
 */
class SchemaDifferentialTest {
    private static final String PSQL = "/usr/bin/psql";
    private static final String USER = "postgres";

    private static final List<String> SCRIPT = List.of(
            "SHOW search_path",
            "SELECT current_schema(), current_schemas(true), current_schemas(false), current_schema",
            "CREATE SCHEMA sa",
            "CREATE SCHEMA sa",
            "CREATE SCHEMA IF NOT EXISTS sa",
            "CREATE SCHEMA public",
            "CREATE SCHEMA pg_x",
            "CREATE SCHEMA pg_catalog",
            "CREATE SCHEMA IF NOT EXISTS pg_catalog",
            "CREATE SCHEMA information_schema",
            "CREATE SCHEMA IF NOT EXISTS \"Mixed\"",
            "SET search_path = sa, public",
            "SHOW search_path",
            "SELECT current_schema(), current_schemas(false), current_schemas(true)",
            "SET search_path TO nosuch, \"Mixed\", public",
            "SHOW search_path",
            "SELECT current_schema(), current_schemas(false)",
            "SET search_path = nosuch",
            "SELECT current_schema() IS NULL, current_schemas(true)",
            "SELECT current_schemas(false)",
            "CREATE TABLE nt (a INT)",
            "CREATE VIEW nv AS SELECT 1 AS x",
            "SET search_path = '$user', public",
            "SHOW search_path",
            "SELECT current_schema()",
            "CREATE SCHEMA postgres",
            "SELECT current_schema(), current_schemas(false)",
            "DROP SCHEMA postgres",
            "SELECT current_schema()",
            "SET search_path = pg_catalog, sa",
            "SELECT current_schema(), current_schemas(true)",
            "RESET search_path",
            "SHOW search_path",
            "SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname IN ('sa', 'Mixed', 'sb') ORDER BY 1",
            "SELECT schema_name FROM information_schema.schemata WHERE schema_name IN ('sa', 'Mixed') ORDER BY 1",
            "SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = 'sa' AND oid = 'sa'::regnamespace",
            "CREATE TABLE nosuch.t (a INT)",
            "SELECT * FROM nosuch.t",
            "SELECT * FROM sa.t",
            "INSERT INTO sa.t VALUES (1)",
            "DROP TABLE nosuch.t",
            "DROP SCHEMA nosuch",
            "DROP SCHEMA IF EXISTS nosuch",
            "DROP SCHEMA IF EXISTS nosuch, sa RESTRICT",
            "SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname IN ('sa', 'Mixed', 'sb') ORDER BY 1",
            "CREATE SCHEMA sa",
            "CREATE SCHEMA sb",
            "DROP SCHEMA sa, sb CASCADE",
            "DROP SCHEMA sa",
            "DROP SCHEMA pg_catalog",
            "CREATE SCHEMA sb",
            "SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname IN ('sa', 'Mixed', 'sb') ORDER BY 1");

    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        DifferentialPostgres.freshDev().close();
        tributary = InProcessTributary.temporary("schema-diff-", 20, USER, "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(tributary);
    }

    @Test
    void schemasAndSearchPathLikePostgres() throws Exception {
        List<String> expected;
        List<String> actual;
        try (Connection c = DifferentialPostgres.connectDev()) {
            expected = run(c);
        }
        try (Connection c = tributary.connect(USER, "", 60)) {
            actual = run(c);
        }
        for (int i = 0; i < SCRIPT.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), SCRIPT.get(i));
        }
        if (Files.isExecutable(Path.of(PSQL))) {
            for (String command :
                    List.of("\\dn sb", "\\dn \"Mixed\"", "\\dn nosuch", "\\dt sb.*", "\\d sb.t", "\\dv sb.*")) {
                assertEquals(psql(DifferentialPostgres.port(), command), psql(tributary.port(), command), command);
            }
        }
    }

    /** Creating a relation anywhere but {@code public} is refused, naming what is missing. */
    @Test
    void relationsOutsidePublicAreRefused() throws Exception {
        try (Connection c = tributary.connect(USER, "", 60);
                Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS only_names");
            for (String sql : List.of(
                    "CREATE TABLE only_names.t (a INT)",
                    "CREATE MATERIALIZED VIEW only_names.m AS SELECT 1 AS x",
                    "SET search_path = only_names, public",
                    "CREATE TABLE t (a INT)")) {
                String outcome = outcome(s, sql);
                assertTrue(outcome.equals("OK") || outcome.startsWith("ERROR 0A000"), sql + " gave " + outcome);
            }
            s.execute("RESET search_path");
            s.execute("DROP SCHEMA only_names");
        }
    }

    private static List<String> run(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (String sql : SCRIPT) {
                out.add(outcome(s, sql));
            }
        }
        return out;
    }

    /** The statement's rows as text, one line each, or {@code ERROR} and its SQLSTATE. */
    private static String outcome(Statement s, String sql) {
        try {
            if (!s.execute(sql)) {
                return "OK";
            }
            StringBuilder b = new StringBuilder();
            try (ResultSet rs = s.getResultSet()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    for (int i = 1; i <= n; i++) {
                        b.append(i > 1 ? "|" : "").append(rs.getString(i));
                    }
                    b.append('\n');
                }
            }
            return b.toString();
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState();
        }
    }

    private static String psql(int port, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        PSQL,
                        "-X",
                        "-h",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(port),
                        "-U",
                        USER,
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
