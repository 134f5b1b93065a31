package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code COMMENT ON TABLE | VIEW | MATERIALIZED VIEW | COLUMN | SCHEMA} (was 0A000): the same
 * statements run on an embedded PostgreSQL and on a Tributary that is then restarted, and
 * afterwards {@code pg_description}, {@code obj_description}, {@code col_description}, psql's
 * {@code \d+} and {@code \dt+} and pgjdbc's REMARKS read the same on both; errors for missing or
 * mismatched objects carry PostgreSQL's SQLSTATE and message. Comments follow RENAME and go with
 * DROP.
 */
class CommentOnDifferentialTest {
    private static final String PSQL = "/usr/bin/psql";
    private static final String USER = "postgres";

    private static final List<String> BEFORE_RESTART = List.of(
            "CREATE TABLE ct (id INT PRIMARY KEY, name TEXT, note TEXT)",
            "CREATE VIEW cv AS SELECT id, name FROM ct",
            "CREATE MATERIALIZED VIEW cm AS SELECT name, count(*) AS n FROM ct GROUP BY name",
            "CREATE SCHEMA cs",
            "CREATE TABLE cs.inner_t (k INT PRIMARY KEY, v TEXT)",
            "CREATE TABLE gone (x INT)",
            "COMMENT ON TABLE ct IS 'the table''s comment'",
            "COMMENT ON COLUMN ct.name IS 'a name'",
            "COMMENT ON COLUMN ct.note IS 'replaced'",
            "COMMENT ON COLUMN ct.note IS NULL",
            "COMMENT ON COLUMN public.ct.id IS 'key'",
            "COMMENT ON VIEW cv IS 'plain view'",
            "COMMENT ON COLUMN cv.name IS 'view column'",
            "COMMENT ON MATERIALIZED VIEW cm IS 'counts'",
            "COMMENT ON COLUMN cm.n IS 'how many'",
            "COMMENT ON SCHEMA cs IS 'a schema'",
            "COMMENT ON TABLE cs.inner_t IS 'inner'",
            "COMMENT ON COLUMN cs.inner_t.v IS 'inner v'",
            "COMMENT ON TABLE gone IS 'dropped with it'",
            "COMMENT ON COLUMN gone.x IS 'this too'",
            "DROP TABLE gone",
            "CREATE TABLE gone (x INT)",
            "CREATE TABLE renamed_from (a INT, b INT)",
            "COMMENT ON TABLE renamed_from IS 'follows'",
            "COMMENT ON COLUMN renamed_from.b IS 'b follows'",
            "ALTER TABLE renamed_from RENAME TO renamed_to",
            "ALTER TABLE renamed_to RENAME COLUMN b TO b2",
            "CREATE OR REPLACE VIEW cv AS SELECT id, name, note FROM ct",
            // pg_dump's order: the view WITH NO DATA, its comments, REFRESH at the end
            "CREATE MATERIALIZED VIEW cnd AS SELECT id, name FROM ct WITH NO DATA",
            "COMMENT ON MATERIALIZED VIEW cnd IS 'refreshed later'",
            "COMMENT ON COLUMN cnd.name IS 'kept by REFRESH'",
            "REFRESH MATERIALIZED VIEW cnd",
            "CREATE TABLE emptied (a INT)",
            "COMMENT ON TABLE emptied IS 'x'",
            "COMMENT ON TABLE emptied IS ''",
            // PostgreSQL's errors
            "COMMENT ON TABLE nosuch IS 'x'",
            "COMMENT ON TABLE cv IS 'x'",
            "COMMENT ON TABLE cm IS 'x'",
            "COMMENT ON VIEW ct IS 'x'",
            "COMMENT ON MATERIALIZED VIEW ct IS 'x'",
            "COMMENT ON COLUMN ct.nosuch IS 'x'",
            "COMMENT ON COLUMN nosuch.c IS 'x'",
            "COMMENT ON COLUMN name IS 'x'",
            "COMMENT ON SCHEMA nosuch IS 'x'",
            "COMMENT ON TABLE nosuch_schema.t IS 'x'");

    private static final List<String> AFTER_RESTART = List.of(
            "SELECT n.nspname, c.relname, d.objsubid, d.description FROM pg_description d"
                    + " JOIN pg_class c ON c.oid = d.objoid AND d.classoid = 1259"
                    + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('public', 'cs')"
                    + " ORDER BY 1, 2, 3",
            "SELECT n.nspname, d.description FROM pg_description d JOIN pg_namespace n ON n.oid = d.objoid"
                    + " AND d.classoid = 2615 WHERE n.nspname IN ('pg_catalog', 'public', 'cs') ORDER BY 1",
            "SELECT obj_description('ct'::regclass, 'pg_class') AS t, col_description('ct'::regclass, 1) AS c1,"
                    + " col_description('ct'::regclass, 2) AS c2, col_description('ct'::regclass, 3) AS c3",
            "SELECT obj_description('cs.inner_t'::regclass, 'pg_class') AS t, obj_description('gone'::regclass,"
                    + " 'pg_class') AS g, obj_description('renamed_to'::regclass, 'pg_class') AS r,"
                    + " col_description('renamed_to'::regclass, 2) AS r2");

    @Test
    void commentsAnswerAsPostgresAcrossARestart(@TempDir Path dir) throws Exception {
        try (Connection pg = DifferentialPostgres.freshDev()) {
            try (InProcessTributary tributary = new InProcessTributary(dir, 20)) {
                assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, BEFORE_RESTART));
            }
            try (InProcessTributary tributary = new InProcessTributary(dir, 20)) {
                assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, AFTER_RESTART));
                jdbcRemarks(pg, tributary.connection);
                psql(tributary.port());
            }
        }
    }

    /** pgjdbc's getTables and getColumns: REMARKS are the comments. */
    private static void jdbcRemarks(Connection pg, Connection trib) throws SQLException {
        DatabaseMetaData a = pg.getMetaData();
        DatabaseMetaData b = trib.getMetaData();
        String[] types = {"TABLE", "VIEW", "MATERIALIZED VIEW"};
        for (String table : List.of("ct", "cv", "cm", "renamed_to")) {
            assertEquals(
                    remarks(a.getTables(null, "public", table, types)),
                    remarks(b.getTables(null, "public", table, types)),
                    table);
            assertEquals(
                    remarks(a.getColumns(null, "public", table, "%")),
                    remarks(b.getColumns(null, "public", table, "%")),
                    table);
        }
    }

    private static List<String> remarks(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            boolean columns = rs.getMetaData().getColumnCount() > 10;
            while (rs.next()) {
                out.add(rs.getString("TABLE_NAME") + " " + (columns ? rs.getString("COLUMN_NAME") : "") + " "
                        + rs.getString("REMARKS"));
            }
        }
        return out;
    }

    /**
     * psql's {@code \d+}, {@code \dt+}, {@code \dv+} and {@code \dn+} show the comments as PostgreSQL does
     * ({@code \d+} of a view is left out: its definition is printed as written, not deparsed; {@code
     * \dt+} of a table without a TOAST table: sizes are the engine's own).
     */
    private static void psql(int tributaryPort) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        for (String command : List.of("\\d+ ct", "\\d+ cs.inner_t", "\\dt+ renamed_to", "\\dv+", "\\dn+ cs")) {
            assertEquals(psql(DifferentialPostgres.port(), command), psql(tributaryPort, command), command);
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
