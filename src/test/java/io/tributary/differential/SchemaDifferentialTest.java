package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

    /** Relations in schemas: the same names in two schemas, the search path choosing, DROP SCHEMA CASCADE. */
    private static final List<String> RELATIONS = List.of(
            "CREATE SCHEMA ra",
            "CREATE SCHEMA rb",
            "CREATE TABLE ra.rt (k INT PRIMARY KEY, v TEXT)",
            "CREATE TABLE rb.rt (k INT PRIMARY KEY, w INT)",
            "CREATE TABLE ra.rt (k INT)",
            "CREATE TABLE IF NOT EXISTS ra.rt (k INT)",
            "INSERT INTO ra.rt VALUES (1, 'a'), (2, 'b')",
            "INSERT INTO rb.rt VALUES (10, 100), (20, 200)",
            "SELECT * FROM ra.rt ORDER BY k",
            "SELECT * FROM rb.rt ORDER BY k",
            "SELECT * FROM rt",
            "INSERT INTO rt VALUES (1)",
            "SELECT * FROM public.rt",
            "SELECT * FROM dev.ra.rt ORDER BY k",
            "SET search_path = rb, ra",
            "SELECT * FROM rt ORDER BY 1",
            "SET search_path = ra, rb",
            "SELECT * FROM rt ORDER BY 1",
            "INSERT INTO rt VALUES (3, 'c')",
            "UPDATE rt SET v = 'z' WHERE k = 1",
            "DELETE FROM rt WHERE k = 2",
            "SELECT * FROM ra.rt ORDER BY k",
            "CREATE TABLE ronly (a INT)",
            "INSERT INTO ronly VALUES (7)",
            "SELECT * FROM ra.ronly",
            "SELECT * FROM public.ronly",
            "SELECT count(*) FROM pg_catalog.pg_class WHERE oid = 'rt'::regclass AND relnamespace = 'ra'::regnamespace",
            // a name cast to a reg type prints as the name, qualified when the path reaches another first
            "SELECT 'rt'::regclass, 'rb.rt'::regclass AS b, 'ra.rt'::regclass::text AS t, 'int8'::regtype,"
                    + " 'ra'::regnamespace, 'rb.rt'::regclass::oid = 'rb.rt'::regclass::oid",
            "SELECT count(*) FROM pg_catalog.pg_class WHERE oid = (SELECT 'rb.rt'::regclass)",
            "SELECT relname FROM pg_catalog.pg_class WHERE oid IN (SELECT 'rt'::regclass UNION SELECT 'rb.rt'::regclass)"
                    + " ORDER BY 1",
            "SELECT 'rt'::regclass::pg_catalog.text AS t",
            "SET search_path = \"$user\", public",
            "SELECT table_schema, table_name, table_type FROM information_schema.tables"
                    + " WHERE table_schema IN ('ra', 'rb') ORDER BY 1, 2",
            "SELECT n.nspname, c.relname, c.relkind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n"
                    + " ON n.oid = c.relnamespace WHERE n.nspname IN ('ra', 'rb') AND c.relkind IN ('r', 'v', 'm')"
                    + " ORDER BY 1, 2",
            "SELECT a.k, b.w FROM ra.rt a JOIN rb.rt b ON b.k = a.k * 10 ORDER BY 1",
            // a SERIAL column's sequence lives in its table's schema
            "CREATE TABLE rb.ser (id SERIAL PRIMARY KEY, x INT)",
            "SELECT last_value, is_called FROM rb.ser_id_seq",
            "INSERT INTO rb.ser (x) VALUES (1), (2)",
            "SELECT last_value, is_called FROM rb.ser_id_seq",
            "SELECT * FROM ser_id_seq",
            "SELECT id, x FROM rb.ser ORDER BY id",
            "CREATE VIEW rpv AS SELECT k FROM ra.rt",
            "SELECT * FROM rpv ORDER BY 1",
            "CREATE TABLE pt (k INT)",
            "INSERT INTO pt VALUES (5)",
            "CREATE VIEW ppv AS SELECT k FROM pt",
            "CREATE TABLE rb.pt (z INT)",
            "SET search_path = rb, public",
            "SELECT * FROM ppv",
            "SELECT * FROM pt",
            "RESET search_path",
            "CREATE MATERIALIZED VIEW rpm AS SELECT count(*) AS n FROM rb.rt",
            "SELECT n FROM rpm",
            "TRUNCATE rb.rt",
            "SELECT count(*) FROM rb.rt",
            "DROP TABLE nosuch.rt",
            "DROP SCHEMA ra",
            "DROP SCHEMA ra RESTRICT",
            "DROP SCHEMA ra CASCADE",
            "SELECT * FROM rpv",
            "SELECT * FROM ra.rt",
            "SELECT count(*) FROM rb.rt",
            "DROP TABLE rb.rt",
            // PostgreSQL's materialized view is a snapshot until REFRESH; Tributary's is maintained
            "DROP MATERIALIZED VIEW rpm",
            "DROP SCHEMA rb",
            "SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname IN ('ra', 'rb') ORDER BY 1");

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

    /**
     * Tables in schemas answer as PostgreSQL's: the same script in order, then psql's {@code \dt}
     * and {@code \d} of tables in a schema, taken while they exist.
     */
    @Test
    void relationsInSchemasLikePostgres() throws Exception {
        int split = RELATIONS.indexOf("DROP TABLE nosuch.rt");
        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        List<String> commands = List.of("\\dt ra.*", "\\d ra.rt", "\\dt rb.*", "\\d rb.rt", "\\dv rpv");
        try (Connection pg = DifferentialPostgres.connectDev();
                Connection tr = tributary.connect(USER, "", 60)) {
            expected.addAll(run(pg, RELATIONS.subList(0, split)));
            actual.addAll(run(tr, RELATIONS.subList(0, split)));
            if (Files.isExecutable(Path.of(PSQL))) {
                for (String command : commands) {
                    assertEquals(psql(DifferentialPostgres.port(), command), psql(tributary.port(), command), command);
                }
            }
            expected.addAll(run(pg, RELATIONS.subList(split, RELATIONS.size())));
            actual.addAll(run(tr, RELATIONS.subList(split, RELATIONS.size())));
        }
        for (int i = 0; i < RELATIONS.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), RELATIONS.get(i));
        }
    }

    /**
     * Views, materialized views and CREATE TABLE AS in schemas: names clashing across schemas,
     * unqualified names bound through the path at CREATE and unchanged by later paths, the catalog
     * views, DROP with dependants in other schemas, DROP SCHEMA without and with CASCADE.
     * PostgreSQL's materialized view is a snapshot, so each is read before its table changes.
     */
    private static final List<String> VIEWS = List.of(
            "CREATE SCHEMA va",
            "CREATE SCHEMA vb",
            "CREATE TABLE va.t (k INT PRIMARY KEY, v INT)",
            "CREATE TABLE vb.t (k INT PRIMARY KEY, v INT)",
            "INSERT INTO va.t VALUES (1, 10), (2, 20)",
            "INSERT INTO vb.t VALUES (1, 100), (3, 300)",
            "CREATE TABLE vt (k INT PRIMARY KEY)",
            "INSERT INTO vt VALUES (7)",
            "CREATE VIEW va.v AS SELECT k, v FROM va.t",
            "CREATE VIEW v AS SELECT k FROM vt",
            "SELECT * FROM va.v ORDER BY k",
            "SELECT * FROM v",
            "SELECT * FROM public.v",
            "SET search_path = vb, public",
            "CREATE VIEW bv AS SELECT k, v FROM t",
            "CREATE VIEW pv AS SELECT k FROM vt",
            "CREATE MATERIALIZED VIEW bm AS SELECT count(*) AS n, sum(v) AS total FROM t",
            "SELECT * FROM bm",
            "CREATE TABLE bc AS SELECT k, v * 2 AS w FROM t",
            "CREATE VIEW v AS SELECT 1 AS one",
            "SELECT * FROM v",
            "SELECT * FROM bv ORDER BY k",
            "CREATE VIEW bv AS SELECT 1 AS x",
            "CREATE MATERIALIZED VIEW bv AS SELECT 1 AS x",
            "CREATE TABLE bc AS SELECT 1 AS x",
            "SET search_path = va, public",
            "SELECT * FROM vb.bv ORDER BY k",
            "SELECT * FROM bv",
            "SELECT * FROM vb.pv",
            "SELECT * FROM vb.bc ORDER BY k",
            "SELECT * FROM v ORDER BY k",
            "CREATE VIEW xv AS SELECT a.k, b.v FROM t a JOIN vb.t b ON a.k = b.k",
            "SELECT * FROM va.xv",
            "CREATE VIEW vb.dep AS SELECT k FROM va.v",
            "SET search_path = vb",
            "CREATE VIEW nopublic AS SELECT * FROM vt",
            "CREATE MATERIALIZED VIEW nopm AS SELECT * FROM vt",
            "SELECT * FROM dep ORDER BY k",
            "SET search_path = nosuch",
            "CREATE VIEW nowhere AS SELECT 1 AS x",
            "CREATE MATERIALIZED VIEW nowhere AS SELECT 1 AS x",
            "RESET search_path",
            "CREATE VIEW va.v AS SELECT 2 AS x",
            "CREATE MATERIALIZED VIEW va.v AS SELECT 1 AS x",
            "CREATE VIEW nosuch.v AS SELECT 1 AS x",
            "CREATE MATERIALIZED VIEW nosuch.m AS SELECT 1 AS x",
            "CREATE TABLE nosuch.c AS SELECT 1 AS x",
            "SELECT table_schema, table_name, table_type FROM information_schema.tables"
                    + " WHERE table_schema IN ('va', 'vb') ORDER BY 1, 2",
            "SELECT table_schema, table_name FROM information_schema.views"
                    + " WHERE table_schema IN ('va', 'vb') ORDER BY 1, 2",
            "SELECT schemaname, viewname FROM pg_catalog.pg_views WHERE schemaname IN ('va', 'vb') ORDER BY 1, 2",
            "SELECT schemaname, matviewname FROM pg_catalog.pg_matviews WHERE schemaname IN ('va', 'vb')"
                    + " ORDER BY 1, 2",
            "SELECT n.nspname, c.relname, c.relkind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n"
                    + " ON n.oid = c.relnamespace WHERE n.nspname IN ('va', 'vb') AND c.relkind IN ('r', 'v', 'm')"
                    + " ORDER BY 1, 2",
            "DROP VIEW vb.nosuchview",
            "DROP VIEW va.v",
            "DROP MATERIALIZED VIEW vb.bv",
            "DROP VIEW vb.bm",
            "DROP SCHEMA va",
            "DROP SCHEMA va RESTRICT",
            "DROP SCHEMA va CASCADE",
            "SELECT * FROM vb.dep",
            "SELECT * FROM va.v",
            "SELECT * FROM vb.bv ORDER BY k",
            "DROP MATERIALIZED VIEW vb.bm",
            "SELECT * FROM vb.bm",
            "DROP SCHEMA vb CASCADE",
            "SELECT * FROM v",
            "SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname IN ('va', 'vb') ORDER BY 1",
            "DROP VIEW v",
            "DROP TABLE vt");

    /**
     * Views in schemas answer as PostgreSQL's: the same script in order, then psql's {@code \dv},
     * {@code \dm} and {@code \d} and pgjdbc's {@code getTables} while they exist.
     */
    @Test
    void viewsInSchemasLikePostgres() throws Exception {
        int split = VIEWS.indexOf("DROP VIEW vb.nosuchview");
        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        List<String> commands =
                List.of("\\dv va.*", "\\dv vb.*", "\\dm vb.*", "\\d vb.bv", "\\d va.xv", "\\d vb.bm", "\\dt vb.*");
        try (Connection pg = DifferentialPostgres.connectDev();
                Connection tr = tributary.connect(USER, "", 60)) {
            expected.addAll(run(pg, VIEWS.subList(0, split)));
            actual.addAll(run(tr, VIEWS.subList(0, split)));
            if (Files.isExecutable(Path.of(PSQL))) {
                for (String command : commands) {
                    assertEquals(psql(DifferentialPostgres.port(), command), psql(tributary.port(), command), command);
                }
            }
            for (String schema : List.of("va", "vb")) {
                assertEquals(tables(pg, schema), tables(tr, schema), "getTables(null, " + schema + ", %, null)");
            }
            expected.addAll(run(pg, VIEWS.subList(split, VIEWS.size())));
            actual.addAll(run(tr, VIEWS.subList(split, VIEWS.size())));
        }
        for (int i = 0; i < VIEWS.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), VIEWS.get(i));
        }
    }

    /**
     * What pgjdbc's {@code getTables} lists in {@code schema}: schema, name and type, one line each,
     * sorted (pgjdbc orders by type first).
     */
    private static List<String> tables(Connection c, String schema) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getTables(null, schema, "%", null)) {
            while (rs.next()) {
                out.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME") + " "
                        + rs.getString("TABLE_TYPE"));
            }
        }
        out.sort(null);
        return out;
    }

    private static List<String> run(Connection c) throws SQLException {
        return run(c, SCRIPT);
    }

    private static List<String> run(Connection c, List<String> script) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (String sql : script) {
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
