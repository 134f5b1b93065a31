package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
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
 * Tools read Tributary's catalog as they read PostgreSQL's: the same DDL runs on Tributary and on
 * an embedded PostgreSQL (initialized with locale C, Tributary's collation, and database
 * {@code dev}); real psql ({@code /usr/bin/psql}, skipped when absent) and pgjdbc's
 * DatabaseMetaData must print and return exactly the same on both. Both are reached as user
 * {@code postgres}, the embedded server's superuser. Nothing is normalized: commands whose
 * output must differ are narrowed by a pattern instead ({@code \dn public}, since Tributary also
 * has schema tributary_catalog; {@code \l dev}, since PostgreSQL also has postgres and templates).
 */
class CatalogDifferentialTest {
    private static final String PSQL = "/usr/bin/psql";
    private static final String USER = "postgres";
    private static final List<String> DDL = List.of(
            "CREATE TABLE t (id BIGINT PRIMARY KEY, v INT NOT NULL, s TEXT, n NUMERIC(10,2), d DATE)",
            "CREATE TABLE u (a INT, b VARCHAR(20))",
            "CREATE TABLE k (x INT, y TEXT, z DOUBLE PRECISION, PRIMARY KEY (y, x))",
            "CREATE MATERIALIZED VIEW m AS SELECT v, count(*) AS c FROM t GROUP BY v",
            "CREATE VIEW pv AS SELECT id, v FROM t WHERE v > 1",
            "CREATE TABLE sq (id SERIAL PRIMARY KEY, note TEXT)",
            "CREATE TABLE gi (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, x TEXT)",
            "CREATE TABLE ux (id INT PRIMARY KEY, email TEXT UNIQUE, a INT, b TEXT, CONSTRAINT ux_ab UNIQUE (b, a))",
            "CREATE INDEX ON ux (a)",
            "CREATE UNIQUE INDEX ux_b ON ux (b)",
            "CREATE TABLE nk (a INT UNIQUE, b INT)",
            "CREATE TABLE cu (code CHAR(2) PRIMARY KEY, name CHARACTER(10), flag CHAR, b BPCHAR)");

    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        DifferentialPostgres.freshDev().close();
        tributary = InProcessTributary.temporary("catalog-diff-", 20, USER, "", 60);
        onBoth(DDL);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(tributary);
    }

    /** Runs {@code statements} in order on PostgreSQL, then on Tributary. */
    private static void onBoth(String... statements) throws SQLException {
        onBoth(List.of(statements));
    }

    /** Runs {@code statements} in order on PostgreSQL, then on Tributary. */
    private static void onBoth(List<String> statements) throws SQLException {
        for (Connection c : List.of(postgresConnection(), tributaryConnection())) {
            try (c;
                    Statement s = c.createStatement()) {
                for (String statement : statements) {
                    s.execute(statement);
                }
            }
        }
    }

    private static Connection postgresConnection() throws SQLException {
        return DifferentialPostgres.connectDev();
    }

    private static Connection tributaryConnection() throws SQLException {
        return tributary.connect(USER, "", 60);
    }

    @Test
    void psqlDescribesLikePostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        for (String command : List.of(
                "\\dt",
                "\\dm",
                "\\d",
                "\\dn public",
                "\\l dev",
                "\\du",
                "\\d t",
                "\\d+ t",
                "\\d u",
                "\\d k",
                "\\d+ k",
                "\\d m",
                "\\d pv",
                "\\dt nosuch",
                "\\dv",
                "\\di",
                "\\d ux",
                "\\d+ ux",
                "\\d nk",
                "\\d cu",
                "\\d+ cu",
                "\\d ux_email_key",
                "\\d ux_a_idx",
                "\\df",
                "\\do",
                "\\dc",
                "\\dT")) {
            assertEquals(psql(DifferentialPostgres.port(), command), psql(tributary.port(), command), command);
        }
    }

    /** psql's {@code \\d} of a table with CHECK constraints: its "Check constraints:" footer. */
    @Test
    void psqlShowsCheckConstraintsLikePostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        String ddl = "CREATE TABLE chk (id INT PRIMARY KEY, v INT CHECK (v > 0), w INT, s TEXT,"
                + " CONSTRAINT w_over_v CHECK (w > v OR w IS NULL), CHECK (length(s) < 4), CHECK (v + w > 0))";
        onBoth(ddl);
        try {
            assertEquals(psql(DifferentialPostgres.port(), "\\d chk"), psql(tributary.port(), "\\d chk"));
            assertEquals(psql(DifferentialPostgres.port(), "\\d+ chk"), psql(tributary.port(), "\\d+ chk"));
        } finally {
            onBoth("DROP TABLE chk");
        }
    }

    /**
     * psql's {@code \\d} of tables with foreign keys: the child's "Foreign-key constraints:" and the
     * parent's "Referenced by:" footers (ON UPDATE and ON DELETE actions among them), whose queries call {@code pg_partition_ancestors} in FROM
     * with an outer query's column and in a select list; pgjdbc's foreign-key metadata of them.
     */
    @Test
    void psqlShowsForeignKeysLikePostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        List<String> ddl = List.of(
                "CREATE TABLE fkp (id INT PRIMARY KEY, a INT, b TEXT, UNIQUE (a, b))",
                "CREATE TABLE fkc (id INT PRIMARY KEY, pid INT REFERENCES fkp (id), a INT, b TEXT,"
                        + " boss INT REFERENCES fkc (id) ON UPDATE CASCADE,"
                        + " CONSTRAINT fkc_ab FOREIGN KEY (a, b) REFERENCES fkp (a, b) ON UPDATE SET NULL,"
                        + " fallback INT DEFAULT 0 REFERENCES fkp (id) ON UPDATE SET DEFAULT ON DELETE SET DEFAULT)");
        onBoth(ddl);
        try {
            for (String command : List.of(
                    "\\d fkp",
                    "\\d fkc",
                    "\\d+ fkc",
                    "SELECT * FROM pg_partition_ancestors('fkc') WITH ORDINALITY",
                    "SELECT pg_partition_ancestors('fkp')",
                    "SELECT c.relname FROM pg_class c WHERE c.relname LIKE 'fk%' AND c.oid IN"
                            + " (SELECT pg_partition_ancestors(c.oid) UNION ALL VALUES (c.oid)) ORDER BY 1",
                    "SELECT * FROM pg_partition_ancestors('nosuch')",
                    "SELECT 'fkc'::regclass, 'nosuch'::regclass",
                    "SELECT pg_relation_size('nosuch')")) {
                assertEquals(psql(DifferentialPostgres.port(), command), psql(tributary.port(), command), command);
            }
            try (Connection pg = postgresConnection();
                    Connection trib = tributaryConnection()) {
                DatabaseMetaData a = pg.getMetaData();
                DatabaseMetaData b = trib.getMetaData();
                assertEquals(
                        rows(a.getImportedKeys(null, "public", "fkc")), rows(b.getImportedKeys(null, "public", "fkc")));
                assertEquals(
                        rows(a.getExportedKeys(null, "public", "fkp")), rows(b.getExportedKeys(null, "public", "fkp")));
                assertEquals(
                        rows(a.getCrossReference(null, "public", "fkp", null, "public", "fkc")),
                        rows(b.getCrossReference(null, "public", "fkp", null, "public", "fkc")));
            }
        } finally {
            onBoth("DROP TABLE fkc", "DROP TABLE fkp");
        }
    }

    /**
     * Column defaults and identity columns show in {@code \d} as PostgreSQL deparses them. The
     * table lives only during this test: PostgreSQL would list its sequences in {@code \d}, which
     * Tributary does not have as relations.
     */
    @Test
    void psqlShowsDefaultsLikePostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        String ddl = "CREATE TABLE dft (id SERIAL PRIMARY KEY, a INT DEFAULT 5, b BIGINT DEFAULT 7,"
                + " c TEXT DEFAULT 'x', d VARCHAR(10) DEFAULT 'y', e NUMERIC(10,2) DEFAULT 1.5,"
                + " f DATE DEFAULT '2024-01-01', g TIMESTAMP DEFAULT now(), h BOOLEAN DEFAULT true,"
                + " i INT GENERATED ALWAYS AS IDENTITY, j BIGINT GENERATED BY DEFAULT AS IDENTITY,"
                + " k DOUBLE PRECISION DEFAULT 2.5, l INT DEFAULT -3, m TEXT DEFAULT 'it''s',"
                + " n TIMESTAMP DEFAULT CURRENT_TIMESTAMP, o INT DEFAULT '12')";
        onBoth(ddl);
        try {
            assertEquals(psql(DifferentialPostgres.port(), "\\d dft"), psql(tributary.port(), "\\d dft"));
            String attrdef = "SELECT a.attname, pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)"
                    + " FROM pg_catalog.pg_attrdef d JOIN pg_catalog.pg_attribute a"
                    + " ON a.attrelid = d.adrelid AND a.attnum = d.adnum"
                    + " WHERE d.adrelid = 'dft'::regclass ORDER BY d.adnum";
            assertEquals(psql(DifferentialPostgres.port(), attrdef), psql(tributary.port(), attrdef));
        } finally {
            onBoth("DROP TABLE dft");
        }
    }

    /**
     * A view's and a materialized view's columns keep the type modifier where PostgreSQL's type
     * derivation keeps it (a column read as it is, a cast to {@code numeric(5,2)}, {@code
     * varchar(10)} or {@code character(3)}) and drop it where it does not ({@code n + 1}, {@code
     * ||}), as psql's {@code \d}, {@code information_schema.columns}, {@code pg_attribute} with
     * {@code format_type} and pgjdbc's {@code getColumns} show them (issue 12).
     */
    @Test
    void viewColumnsKeepTypeModifiersLikePostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        List<String> ddl = List.of(
                "CREATE TABLE vt (id INT PRIMARY KEY, n NUMERIC(5,2), x TEXT, vc VARCHAR(10), c CHAR(3), i INT)",
                "CREATE VIEW vm AS SELECT n, x::numeric(5,2) AS xn, vc, x::varchar(10) AS xv, c, n + 1 AS n1,"
                        + " x::char(3) AS xc, CAST(i AS NUMERIC(4,1)) AS ci, vc || 'a' AS vca, x::numeric AS xu FROM vt",
                "CREATE MATERIALIZED VIEW mm AS SELECT id, n, x::numeric(5,2) AS xn, vc, x::varchar(10) AS xv, c FROM vt");
        onBoth(ddl);
        try {
            for (String command : List.of(
                    "\\d vm",
                    "\\d mm",
                    "SELECT column_name, data_type, numeric_precision, numeric_scale, character_maximum_length"
                            + " FROM information_schema.columns WHERE table_name = 'vm' ORDER BY ordinal_position",
                    "SELECT c.relname, a.attname, a.atttypmod, format_type(a.atttypid, a.atttypmod)"
                            + " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
                            + " WHERE c.relname IN ('vm', 'mm') AND a.attnum > 0 ORDER BY 1, a.attnum")) {
                assertEquals(psql(DifferentialPostgres.port(), command), psql(tributary.port(), command), command);
            }
            try (Connection pg = postgresConnection();
                    Connection trib = tributaryConnection()) {
                for (String relation : List.of("vm", "mm")) {
                    assertEquals(
                            rows(pg.getMetaData().getColumns(null, "public", relation, null)),
                            rows(trib.getMetaData().getColumns(null, "public", relation, null)),
                            relation);
                }
            }
        } finally {
            onBoth("DROP MATERIALIZED VIEW mm", "DROP VIEW vm", "DROP TABLE vt");
        }
    }

    /**
     * A materialized view's column of numeric arithmetic or of an aggregate is plain {@code
     * numeric}, one of a CASE, COALESCE or UNION ALL of columns of one numeric(p,s) keeps it, and
     * one of a cast to {@code character(n)} is {@code character(n)}, blank-padded, as PostgreSQL's
     * are: in psql's {@code \d}, {@code pg_attribute}, pgjdbc's result description and the rows
     * read back (issue 12).
     */
    @Test
    void materializedViewColumnsHavePostgresModifiers() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        onBoth(
                "CREATE TABLE mvt (id INT PRIMARY KEY, n NUMERIC(12,2), x TEXT, m NUMERIC(12,2), i INT)",
                "INSERT INTO mvt VALUES (1, 1.5, 'ab', 3, 1), (2, 2.25, 'abcd', NULL, 2), (3, NULL, NULL, 4.5, 3)",
                "CREATE MATERIALIZED VIEW mmv AS SELECT id, n + 1 AS n1, n, n * 2 AS n2, x::char(3) AS c3,"
                        + " n::numeric(10,1) AS n10, x::varchar(2) AS v2 FROM mvt",
                "CREATE MATERIALIZED VIEW mma AS SELECT x::char(3) AS c3, sum(n) AS s, max(n) AS m, count(*) AS k"
                        + " FROM mvt GROUP BY x::char(3)",
                "CREATE MATERIALIZED VIEW mmc AS SELECT id, coalesce(n, m) AS cm, CASE WHEN id > 1 THEN n ELSE m END AS cs,"
                        + " coalesce(n, i) AS ci, CASE WHEN id > 1 THEN n END AS cn, -n AS neg, round(n, 1) AS r,"
                        + " n::numeric AS nu, x::char(2) AS c2 FROM mvt",
                "CREATE MATERIALIZED VIEW mmu AS SELECT n FROM mvt UNION ALL SELECT m FROM mvt",
                "CREATE MATERIALIZED VIEW mmi AS SELECT n FROM mvt UNION ALL SELECT i FROM mvt",
                "CREATE MATERIALIZED VIEW mmd AS SELECT s.id, s.k, s.c, s.n FROM (SELECT id, n::numeric(5,1) AS k,"
                        + " x::char(3) AS c, n FROM mvt) s");
        try {
            for (String command : List.of(
                    "\\d mmv",
                    "\\d mma",
                    "SELECT c.relname, a.attname, a.atttypmod, format_type(a.atttypid, a.atttypmod)"
                            + " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
                            + " WHERE c.relname IN ('mmv', 'mma', 'mmc', 'mmu', 'mmi', 'mmd') AND a.attnum > 0 ORDER BY 1, a.attnum",
                    "SELECT *, '[' || c3 || ']' AS b, length(c3) AS l, octet_length(c3) AS o FROM mmv ORDER BY id",
                    "SELECT *, '[' || c3 || ']' AS b FROM mma ORDER BY c3",
                    "SELECT id FROM mmv WHERE c3 = 'ab' ORDER BY id",
                    "SELECT k FROM mma WHERE c3 = 'ab'",
                    "SELECT * FROM mmc ORDER BY id",
                    "SELECT * FROM mmu ORDER BY n",
                    "SELECT * FROM mmi ORDER BY n",
                    "SELECT *, '[' || c || ']' AS b FROM mmd ORDER BY id")) {
                assertEquals(psql(DifferentialPostgres.port(), command), psql(tributary.port(), command), command);
            }
            try (Connection pg = postgresConnection();
                    Connection trib = tributaryConnection();
                    Statement ps = pg.createStatement();
                    Statement ts = trib.createStatement()) {
                for (String query : List.of(
                        "SELECT * FROM mmv",
                        "SELECT * FROM mma",
                        "SELECT * FROM mmc",
                        "SELECT * FROM mmu",
                        "SELECT * FROM mmi",
                        "SELECT * FROM mmd")) {
                    assertEquals(described(ps, query), described(ts, query), query);
                }
            }
        } finally {
            onBoth(
                    "DROP MATERIALIZED VIEW mmd",
                    "DROP MATERIALIZED VIEW mmi",
                    "DROP MATERIALIZED VIEW mmu",
                    "DROP MATERIALIZED VIEW mmc",
                    "DROP MATERIALIZED VIEW mma",
                    "DROP MATERIALIZED VIEW mmv",
                    "DROP TABLE mvt");
        }
    }

    /** Each result column of {@code query} as pgjdbc's ResultSetMetaData describes it. */
    private static List<String> described(Statement st, String query) throws SQLException {
        try (ResultSet rs = st.executeQuery(query)) {
            java.sql.ResultSetMetaData md = rs.getMetaData();
            List<String> columns = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                columns.add(md.getColumnLabel(i) + " " + md.getColumnTypeName(i) + " " + md.getPrecision(i) + " "
                        + md.getScale(i) + " " + md.getColumnDisplaySize(i));
            }
            return columns;
        }
    }

    /**
     * A plain view's column of {@code current_user} and the other session functions PostgreSQL types
     * {@code name} is {@code name} in psql's {@code \d}, {@code information_schema.columns} and
     * {@code pg_attribute}, and such a select item is described as {@code name} (issue 12).
     */
    @Test
    void sessionFunctionColumnsAreNamesLikePostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        onBoth("CREATE VIEW vn AS SELECT current_user AS u, session_user AS s, current_role AS r, user AS us,"
                + " current_catalog AS c, current_schema AS sc, current_schema() AS sc2, current_database() AS d,"
                + " 'x'::name AS n, 'x'::text AS t");
        try {
            for (String command : List.of(
                    "\\d vn",
                    "SELECT column_name, data_type, udt_name FROM information_schema.columns WHERE table_name = 'vn'"
                            + " ORDER BY ordinal_position",
                    "SELECT a.attname, a.atttypid, a.attlen, a.atttypmod, format_type(a.atttypid, a.atttypmod)"
                            + " FROM pg_attribute a WHERE a.attrelid = 'vn'::regclass AND a.attnum > 0"
                            + " ORDER BY a.attnum")) {
                assertEquals(psql(DifferentialPostgres.port(), command), psql(tributary.port(), command), command);
            }
            String query = "SELECT current_user AS u, session_user, current_schema, current_database() AS d,"
                    + " 'x'::name AS n, current_user || 'a' AS t";
            try (Connection pg = postgresConnection();
                    Connection trib = tributaryConnection();
                    Statement ps = pg.createStatement();
                    Statement ts = trib.createStatement()) {
                assertEquals(typeNames(ps, query), typeNames(ts, query), query);
            }
        } finally {
            onBoth("DROP VIEW vn");
        }
    }

    /**
     * A column read as it is from a plain view, a view over it, a derived table, a WITH query or a
     * UNION of them is described as PostgreSQL describes it: a {@code name} column (current_user,
     * {@code ::name}) as {@code name}, a {@code timestamp(p)}, {@code numeric(p,s)} or {@code
     * character(n)} column or cast with its modifier (RowDescription's type OID and typmod, as pgjdbc's
     * type name, precision and scale show them); psql's {@code \d} of a view over a view; CREATE OR
     * REPLACE VIEW that keeps or changes such a column (issue 12).
     */
    @Test
    void columnsReadThroughViewsKeepNameAndModifiersLikePostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        onBoth(
                "CREATE TABLE vtp (id INT, t0 TIMESTAMP(0), t3 TIMESTAMP(3), z2 TIMESTAMPTZ(2), c1 TIME(1),"
                        + " n NUMERIC(5,2), ch CHAR(3))",
                "INSERT INTO vtp VALUES (1, '2024-01-01 10:00:00', '2024-01-01 10:00:00.123',"
                        + " '2024-01-01 10:00:00.12+00', '10:00:00.1', 1.25, 'ab')",
                "CREATE VIEW vtq AS SELECT id, t3, z2, c1, n, ch, t0::timestamp(1) AS t1, t3 + interval '1 hour' AS later,"
                        + " current_user AS u, 'x'::name AS nm, current_user || 'a' AS tx FROM vtp",
                "CREATE VIEW vtq2 AS SELECT * FROM vtq",
                "CREATE VIEW vtq3 AS SELECT u, t1, t3 FROM vtq");
        try {
            List<String> queries = List.of(
                    "SELECT * FROM vtq",
                    "SELECT * FROM vtq2",
                    "SELECT v.u, v.t1, v.n FROM vtq v JOIN vtp USING (id)",
                    "SELECT u, t1 FROM (SELECT * FROM vtq) s",
                    "WITH w AS (SELECT t3, ch, current_user AS u FROM vtp) SELECT * FROM w",
                    "SELECT a.u, b.t1, a.* FROM vtq a, vtq2 b",
                    "SELECT u FROM vtq UNION ALL SELECT nm FROM vtq2",
                    "SELECT u, count(*) FROM vtq GROUP BY u",
                    "SELECT n, ch FROM (SELECT n, ch FROM vtp) s",
                    "SELECT relname FROM (SELECT relname FROM pg_class) s LIMIT 1",
                    "SELECT * FROM vtq3");
            List<String> mismatches = new ArrayList<>();
            try (Connection pg = postgresConnection();
                    Connection trib = tributaryConnection();
                    Statement ps = pg.createStatement();
                    Statement ts = trib.createStatement()) {
                for (String query : queries) {
                    String expected = describedOrError(ps, query);
                    String actual = describedOrError(ts, query);
                    if (!expected.equals(actual)) {
                        mismatches.add(query + "\n  postgres:  " + expected + "\n  tributary: " + actual);
                    }
                }
                for (String replace : List.of(
                        "CREATE OR REPLACE VIEW vtq3 AS SELECT u, t1, t3, 1 AS extra FROM vtq",
                        "CREATE OR REPLACE VIEW vtq3 AS SELECT u::text AS u, t1, t3, 1 AS extra FROM vtq",
                        "CREATE OR REPLACE VIEW vtq3 AS SELECT u, t3 AS t1, t3, 1 AS extra FROM vtq",
                        "CREATE OR REPLACE VIEW vtq3 AS SELECT 'x'::name AS u, t1, t3, 2 AS extra FROM vtq")) {
                    String expected = outcome(ps, replace);
                    String actual = outcome(ts, replace);
                    if (!expected.equals(actual)) {
                        mismatches.add(replace + "\n  postgres:  " + expected + "\n  tributary: " + actual);
                    }
                }
            }
            assertEquals(List.of(), mismatches);
            // (not \\d vtq2: PostgreSQL shows collation C for its text column made from current_user, a name)
            assertEquals(psql(DifferentialPostgres.port(), "\\d vtq3"), psql(tributary.port(), "\\d vtq3"));
        } finally {
            onBoth("DROP VIEW vtq3", "DROP VIEW vtq2", "DROP VIEW vtq", "DROP TABLE vtp");
        }
    }

    /** {@link #described} of {@code query} on one line, or its error's SQLSTATE and message. */
    private static String describedOrError(Statement st, String query) {
        try {
            return String.join(" | ", described(st, query));
        } catch (SQLException e) {
            return e.getSQLState() + " " + e.getMessage();
        }
    }

    /** A statement's command outcome: OK, or its SQLSTATE and message. */
    private static String outcome(Statement st, String sql) {
        try {
            st.execute(sql);
            return "OK";
        } catch (SQLException e) {
            return e.getSQLState() + " " + e.getMessage();
        }
    }

    /** The type names of {@code query}'s result columns, as its RowDescription gives them. */
    private static List<String> typeNames(Statement st, String query) throws SQLException {
        try (ResultSet rs = st.executeQuery(query)) {
            List<String> names = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                names.add(rs.getMetaData().getColumnTypeName(i));
            }
            return names;
        }
    }

    @Test
    void psqlSessionSettingsLikePostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        String[] commands = {
            "BEGIN",
            "BEGIN",
            "SET client_min_messages = error",
            "BEGIN",
            "SHOW client_min_messages",
            "SET client_min_messages TO warning",
            "BEGIN",
            "COMMIT",
            "SET application_name = 'tool'",
            "SHOW application_name",
            "SET extra_float_digits = 3",
            "SET DateStyle = 'ISO, MDY'",
            "SHOW DateStyle"
        };
        assertEquals(psql(DifferentialPostgres.port(), commands), psql(tributary.port(), commands));
    }

    /**
     * psql's {@code \\df} and {@code \\df+} of an empty user schema and of the user's functions
     * (none: Tributary's own are in pg_catalog), {@code \\dv+} and {@code \\sv} of a view whose
     * text is written as PostgreSQL deparses it, so that both keep the same text. psql's
     * {@code \\sf} cannot be answered (pg_proc lists no built-in function): its lookup by name is
     * 0A000, where PostgreSQL prints the definition or says which function it cannot pick.
     */
    @Test
    void psqlListsFunctionsAndShowsViewsLikePostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        List<String> ddl =
                List.of("CREATE SCHEMA fn", "CREATE VIEW fn.sv AS\n SELECT t.id,\n    t.v\n   FROM t\n  WHERE t.v > 1");
        onBoth(ddl);
        try {
            for (String command :
                    List.of("\\df fn.*", "\\df+ fn.*", "\\df+", "\\dv+ fn.*", "\\sv fn.sv", "\\sv+ fn.sv")) {
                assertEquals(psql(DifferentialPostgres.port(), command), psql(tributary.port(), command), command);
            }
            try (Connection trib = tributaryConnection();
                    Statement s = trib.createStatement()) {
                for (String lookup : List.of(
                        "SELECT 'lower'::pg_catalog.regproc::pg_catalog.oid",
                        "SELECT 'lower(text)'::pg_catalog.regprocedure::pg_catalog.oid",
                        "SELECT p.oid::pg_catalog.regprocedure FROM pg_catalog.pg_proc p")) {
                    SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(lookup), lookup);
                    assertEquals("0A000", e.getSQLState(), lookup + ": " + e.getMessage());
                }
            }
        } finally {
            onBoth("DROP VIEW fn.sv", "DROP SCHEMA fn");
        }
    }

    /**
     * The catalogs' {@code oid} columns, read as they are (alone, through joins on them), are
     * described as {@code oid} (26), not bigint, as PostgreSQL describes them; expressions over
     * them keep their own types. The OIDs themselves differ between the two, so the column types
     * are compared, and the rows of the statements whose values are not OIDs.
     */
    @Test
    void oidColumnsAreDescribedAsOid() throws Exception {
        List<String> typed = List.of(
                "SELECT oid, relname FROM pg_class WHERE relname = 't'",
                "SELECT c.oid, n.oid AS noid, c.relnamespace, c.relname FROM pg_class c"
                        + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 't'",
                "SELECT a.attrelid, a.atttypid, a.attname FROM pg_catalog.pg_attribute a"
                        + " WHERE a.attrelid = 't'::regclass AND a.attnum = 1",
                "SELECT t.oid, t.typname FROM pg_type t WHERE t.typname = 'int4'",
                "SELECT oid::bigint + 1 AS next, relname FROM pg_class WHERE relname = 't'");
        List<String> answered = List.of(
                "SELECT pg_typeof(oid) AS ty, pg_typeof(relnamespace) AS ns FROM pg_class WHERE relname = 't'",
                "SELECT t.oid, t.typname FROM pg_type t WHERE t.typname = 'int4'",
                "SELECT relname FROM pg_class WHERE oid = 't'::regclass",
                "SELECT count(*) AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        + " WHERE c.relname IN ('t', 'u') AND n.nspname = 'public'");
        List<List<String>> answers = new ArrayList<>();
        for (Connection c : List.of(postgresConnection(), tributaryConnection())) {
            List<String> answer = new ArrayList<>();
            try (c;
                    Statement s = c.createStatement()) {
                for (String query : typed) {
                    try (ResultSet rs = s.executeQuery(query)) {
                        StringBuilder types = new StringBuilder(query).append(" ->");
                        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                            types.append(' ').append(rs.getMetaData().getColumnTypeName(i));
                        }
                        answer.add(types.toString());
                    }
                }
                for (String query : answered) {
                    answer.add(StatementOutcome.withTypeNames(c, query));
                }
            }
            answers.add(answer);
        }
        assertEquals(answers.get(0), answers.get(1));
    }

    /**
     * PostgreSQL's one-byte {@code "char"}: a text cast to it keeps its first character, is labelled
     * {@code char} and compares as text; the catalogs' "char" columns compare with such constants,
     * as psql's queries do. A column of that type is 0A000 in Tributary (PostgreSQL creates it).
     */
    @Test
    void charTypeCastsLikePostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PSQL)), "psql is not installed");
        for (String query : List.of(
                "SELECT 'abc'::\"char\", 'a'::\"char\" < 'b'::\"char\" AS lt, ''::\"char\" = '' AS empty",
                "SELECT CAST('xyz' AS \"char\") AS c, 'r'::\"char\" = 'rel'::\"char\" AS same",
                "SELECT relname, relkind FROM pg_class WHERE relkind = 'table'::\"char\" AND relname IN ('t', 'u')"
                        + " ORDER BY 1")) {
            assertEquals(psql(DifferentialPostgres.port(), query), psql(tributary.port(), query), query);
        }
        try (Connection trib = tributaryConnection();
                Statement s = trib.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE TABLE ch (c \"char\")"));
            assertEquals("0A000", e.getSQLState(), e.getMessage());
        }
    }

    /** psql's output for {@code commands}, each given with {@code -c}, in one session. */
    private static String psql(int port, String... commands) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(
                List.of(PSQL, "-X", "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", USER, "-d", "dev"));
        for (String c : commands) {
            args.add("-c");
            args.add(c);
        }
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("psql did not finish: " + String.join("; ", commands));
        }
        return out;
    }

    @Test
    void jdbcMetadataLikePostgres() throws SQLException {
        try (Connection pg = postgresConnection();
                Connection trib = tributaryConnection()) {
            DatabaseMetaData a = pg.getMetaData();
            DatabaseMetaData b = trib.getMetaData();
            String[] types = {"TABLE", "MATERIALIZED VIEW"};
            assertEquals(rows(a.getTables(null, "public", "%", types)), rows(b.getTables(null, "public", "%", types)));
            assertEquals(rows(a.getColumns(null, "public", "%", "%")), rows(b.getColumns(null, "public", "%", "%")));
            assertEquals(rows(a.getSchemas(null, "public")), rows(b.getSchemas(null, "public")));
            assertEquals(pg.getCatalog(), trib.getCatalog());
            for (String table : List.of("t", "k", "u")) {
                assertEquals(
                        rows(a.getPrimaryKeys(null, "public", table)),
                        rows(b.getPrimaryKeys(null, "public", table)),
                        table);
            }
            // PostgreSQL has more types than Tributary: each of ours must be described as PostgreSQL does
            java.util.Map<String, String> pgTypes = new java.util.HashMap<>();
            for (String row : rows(a.getTypeInfo())) {
                pgTypes.put(row.substring(0, row.indexOf(' ')), row);
            }
            List<String> ours = rows(b.getTypeInfo());
            assertTrue(ours.size() > 10, "getTypeInfo lists Tributary's types");
            for (String row : ours) {
                assertEquals(pgTypes.get(row.substring(0, row.indexOf(' '))), row);
            }
        }
    }

    /**
     * The first statements pg_dump sends (settings, then catalog queries using {@code tableoid},
     * {@code "char"} casts, {@code acldefault} and set_config over pg_settings) answer as in
     * PostgreSQL. pg_dump as a whole does not run yet; see README's known limits.
     */
    @Test
    void pgDumpOpeningQueriesLikePostgres() throws SQLException {
        String[] statements = {
            "SET synchronize_seqscans TO off",
            "SET lock_timeout = 0",
            "SET idle_in_transaction_session_timeout = 0",
            "SET row_security = off",
            "SELECT name, setting FROM pg_settings WHERE name IN ('synchronize_seqscans', 'lock_timeout',"
                    + " 'idle_in_transaction_session_timeout', 'row_security') ORDER BY name",
            "SELECT set_config(name, 'view, foreign-table', false) FROM pg_settings WHERE name = 'no_such_setting'",
            // each has one built-in extension: PostgreSQL plpgsql, Tributary tributary (owning its schema)
            "SELECT count(*) FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace"
                    + " WHERE x.extname NOT IN ('plpgsql', 'tributary')",
            "SELECT c.relname, c.tableoid = 'pg_class'::regclass AS is_class FROM pg_class c"
                    + " WHERE c.relname IN ('t', 'm', 'pv') ORDER BY c.relname",
            "SELECT n.nspname, n.tableoid = 'pg_namespace'::regclass FROM pg_namespace n WHERE n.nspname = 'public'",
            "SELECT CASE WHEN c.relkind = 'S' THEN 's'::\"char\" ELSE 'r'::\"char\" END FROM pg_class c"
                    + " WHERE c.relname = 't'",
            "SELECT c.relname, d.refobjid FROM pg_class c LEFT JOIN pg_depend d ON (c.relkind = 'S'"
                    + " AND d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.objsubid = 0"
                    + " AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))"
                    + " WHERE c.relname IN ('t', 'u') ORDER BY c.relname",
            // a parenthesis around an expression with several casts encloses all of it
            "SELECT (1 = '1'::int AND 2 = '2'::int AND 'a' IN ('a', 'b')) AS b",
            "SELECT count(*) AS n FROM pg_class c WHERE (c.relname = 't'::name AND c.relkind = 'r'::\"char\")",
            "SELECT (SELECT ftserver FROM pg_catalog.pg_foreign_table WHERE ftrelid = c.oid) AS foreignserver"
                    + " FROM pg_class c"
                    + " WHERE c.relname = 't'",
        };
        try (Connection pg = postgresConnection();
                Connection trib = tributaryConnection();
                Statement ps = pg.createStatement();
                Statement ts = trib.createStatement()) {
            for (String sql : statements) {
                if (sql.startsWith("SET")) {
                    ps.execute(sql);
                    ts.execute(sql);
                } else {
                    assertEquals(rows(ps.executeQuery(sql)), rows(ts.executeQuery(sql)), sql);
                }
            }
        }
    }

    /**
     * The catalog queries pg_dump sends after its opening ones, over sequences (those behind SERIAL
     * and identity columns), the catalogs of things Tributary lacks, and the functions and
     * constants they use, answered as PostgreSQL answers them.
     */
    @Test
    void pgDumpCatalogQueriesLikePostgres() throws SQLException {
        String[] queries = {
            "SELECT pg_get_indexdef('ux_a_idx'::regclass), pg_get_indexdef('ux_pkey'::regclass),"
                    + " pg_get_indexdef('ux_email_key'::regclass)",
            "SELECT c.relname, c.relkind, c.relam FROM pg_class c WHERE c.relname LIKE '%_seq' ORDER BY 1",
            "SELECT c.relname, format_type(s.seqtypid, NULL) AS t, s.seqstart, s.seqincrement, s.seqmax,"
                    + " s.seqmin, s.seqcache, s.seqcycle FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid"
                    + " ORDER BY 1",
            "SELECT c.relname, t.relname AS owner, d.refobjsubid, d.deptype FROM pg_depend d"
                    + " JOIN pg_class c ON c.oid = d.objid JOIN pg_class t ON t.oid = d.refobjid"
                    + " WHERE d.classid = 'pg_class'::regclass AND c.relkind = 'S' ORDER BY 1",
            "SELECT a.attname, a.atttypid, a.attnum FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
                    + " WHERE c.relname = 'sq_id_seq' AND a.attnum > 0 ORDER BY a.attnum",
            "SELECT array_remove(array_remove(c.reloptions,'check_option=local'),'check_option=cascaded') AS r"
                    + " FROM pg_class c WHERE c.relname = 't'",
            "SELECT quote_literal('it''s') AS a, quote_literal('plain') AS b",
            "SELECT x FROM unnest('{16390,16388,16392}'::pg_catalog.oid[]) AS s(x)",
            // psql's \dd and pg_dump qualify the types they cast to, in CAST too
            "SELECT CAST(c.relname AS pg_catalog.text) AS name, CAST('table' AS pg_catalog.text) AS object,"
                    + " CAST('2024-01-01' AS pg_catalog.date) AS d, CAST(2 AS pg_catalog.int8) AS j,"
                    + " CAST(1.5 AS pg_catalog.numeric(5,2)) AS n FROM pg_catalog.pg_class c WHERE c.relname = 't'",
            "SELECT option_name, option_value FROM pg_options_to_table('{fillfactor=70,b=x}'::text[]) ORDER BY 1",
            "SELECT typname[0] AS c, typname[1] AS d FROM pg_type WHERE typname = '_int4'",
            "SELECT tableoid = 'pg_type'::regclass AS same FROM pg_type WHERE typname = 'int4'",
            "SELECT t.typstorage FROM pg_type t WHERE t.typname IN ('int4', 'text', 'numeric') ORDER BY t.typname",
            "SELECT lanname, lanispl, lanpltrusted FROM pg_language WHERE NOT lanispl ORDER BY oid",
            "SELECT count(*) AS n FROM pg_init_privs WHERE objoid > 16383",
            "SELECT count(*) AS n FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class WHERE c.relname = 't'",
            "SELECT count(*) AS n FROM pg_cast WHERE oid > 16383",
            "SELECT count(*) AS n FROM pg_operator o WHERE o.oprnamespace <> 11",
            // int2vector prints as PostgreSQL prints it, and still expands as an array
            "SELECT c.relname, i.indkey FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid"
                    + " WHERE c.relname IN ('t', 'k') ORDER BY 1",
            "SELECT c.relname, a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid"
                    + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)"
                    + " WHERE c.relname = 'k' ORDER BY 2",
            "SELECT x FROM unnest('{}'::pg_catalog.oid[]) AS s(x)",
            "SELECT s.tableoid, s.oid, s.subname, s.subowner, s.subconninfo, s.subslotname, s.subsynccommit,"
                    + " s.subpublications, s.subbinary, s.substream"
                    + " FROM pg_subscription s WHERE s.subdbid = (SELECT oid FROM pg_database"
                    + " WHERE datname = current_database())",
            // pg_dump's view-dependency query: five relations joined twice, planned in bounded time
            "WITH RECURSIVE w AS ( SELECT d1.objid, d2.refobjid, c2.relkind AS refrelkind FROM pg_depend d1"
                    + " JOIN pg_class c1 ON c1.oid = d1.objid AND c1.relkind = 'm'"
                    + " JOIN pg_rewrite r1 ON r1.ev_class = d1.objid"
                    + " JOIN pg_depend d2 ON d2.classid = 'pg_rewrite'::regclass AND d2.objid = r1.oid"
                    + " AND d2.refobjid <> d1.objid"
                    + " JOIN pg_class c2 ON c2.oid = d2.refobjid AND c2.relkind IN ('m','v')"
                    + " WHERE d1.classid = 'pg_class'::regclass"
                    + " UNION SELECT w.objid, d3.refobjid, c3.relkind FROM w"
                    + " JOIN pg_rewrite r3 ON r3.ev_class = w.refobjid"
                    + " JOIN pg_depend d3 ON d3.classid = 'pg_rewrite'::regclass AND d3.objid = r3.oid"
                    + " AND d3.refobjid <> w.refobjid"
                    + " JOIN pg_class c3 ON c3.oid = d3.refobjid AND c3.relkind IN ('m','v') )"
                    + " SELECT 'pg_class'::regclass::oid AS classid, objid, refobjid FROM w WHERE refrelkind = 'm'",
            "SELECT pg_get_triggerdef(0, false) AS t, pg_get_ruledef(0, false) AS r",
            // the text variant names the view as a regclass does
            "SELECT pg_get_viewdef('pv') = pg_get_viewdef('pv'::regclass) AS same,"
                    + " pg_get_viewdef('public.pv', true) = pg_get_viewdef('pv'::regclass, true) AS same_pretty",
            "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'"
                    + " AND table_name LIKE '%seq' ORDER BY 1, 2",
        };
        try (Connection pg = postgresConnection();
                Connection trib = tributaryConnection();
                Statement ps = pg.createStatement();
                Statement ts = trib.createStatement()) {
            for (String sql : queries) {
                assertEquals(rows(ps.executeQuery(sql)), rows(ts.executeQuery(sql)), sql);
            }
        }
    }

    /**
     * {@code LOCK TABLE}, which pg_dump sends for each table it dumps: accepted in a transaction
     * block, 25P01 outside one, 42P01 for a relation that does not exist, as in PostgreSQL.
     */
    @Test
    void lockTableLikePostgres() throws SQLException {
        for (Connection c : List.of(postgresConnection(), tributaryConnection())) {
            try (c;
                    Statement s = c.createStatement()) {
                SQLException outside = org.junit.jupiter.api.Assertions.assertThrows(
                        SQLException.class, () -> s.execute("LOCK TABLE public.t IN ACCESS SHARE MODE"));
                assertEquals("25P01", outside.getSQLState(), outside.getMessage());
                c.setAutoCommit(false);
                s.execute("LOCK TABLE public.t, u IN ACCESS SHARE MODE");
                s.execute("LOCK t");
                c.commit();
                SQLException missing = org.junit.jupiter.api.Assertions.assertThrows(
                        SQLException.class, () -> s.execute("LOCK TABLE nope IN SHARE MODE"));
                assertEquals("42P01", missing.getSQLState(), missing.getMessage());
                c.rollback();
            }
        }
    }

    /**
     * pgjdbc's getIndexInfo (whose query calls pg_get_indexdef on a derived table's columns),
     * getImportedKeys/getExportedKeys (no foreign keys: no rows) and getCrossReference answer as
     * PostgreSQL's, for tables with one-column, composite and no keys. CARDINALITY and PAGES are
     * statistics of the storage engine (reltuples, relpages), so they are left out.
     */
    @Test
    void jdbcIndexInfoAndKeysLikePostgres() throws SQLException {
        try (Connection pg = postgresConnection();
                Connection trib = tributaryConnection()) {
            DatabaseMetaData a = pg.getMetaData();
            DatabaseMetaData b = trib.getMetaData();
            for (String table : List.of("t", "k", "u", "sq", "ux", "nk")) {
                for (boolean unique : List.of(false, true)) {
                    assertEquals(
                            rowsWithout(a.getIndexInfo(null, "public", table, unique, false), "cardinality", "pages"),
                            rowsWithout(b.getIndexInfo(null, "public", table, unique, false), "cardinality", "pages"),
                            table);
                }
                assertEquals(
                        rows(a.getImportedKeys(null, "public", table)), rows(b.getImportedKeys(null, "public", table)));
                assertEquals(
                        rows(a.getExportedKeys(null, "public", table)), rows(b.getExportedKeys(null, "public", table)));
            }
            assertEquals(
                    rows(a.getCrossReference(null, "public", "t", null, "public", "k")),
                    rows(b.getCrossReference(null, "public", "t", null, "public", "k")));
        }
    }

    private static List<String> rowsWithout(ResultSet rs, String... skipped) throws SQLException {
        List<String> skip = List.of(skipped);
        List<String> out = new ArrayList<>();
        for (String row : rows(rs)) {
            StringBuilder kept = new StringBuilder();
            for (String cell : row.split(" ")) {
                if (!skip.contains(cell.substring(0, Math.max(0, cell.indexOf('='))))) {
                    kept.append(cell).append(' ');
                }
            }
            out.add(kept.toString());
        }
        return out;
    }

    private static List<String> rows(ResultSet rs) throws SQLException {
        try (rs) {
            List<String> out = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(rs.getMetaData().getColumnLabel(i).toLowerCase())
                            .append('=')
                            .append(rs.getString(i))
                            .append(' ');
                }
                out.add(row.toString());
            }
            return out;
        }
    }
}
