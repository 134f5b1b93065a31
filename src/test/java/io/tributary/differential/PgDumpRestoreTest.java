package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
 * Real {@code pg_dump} (PostgreSQL 15's client) dumps a Tributary database of tables of the common
 * types (NOT NULL, defaults, primary keys, SERIAL and identity columns, array columns), a view and a materialized
 * view, comments on them and their columns, foreign keys (one referencing a UNIQUE constraint), a schema with a sequence of its own (CREATE SEQUENCE with options, OWNED BY a column), and
 * real {@code psql} restores the dump into an empty embedded PostgreSQL with {@code
 * ON_ERROR_STOP}: then every relation's rows, and each sequence's options and position, read the same
 * on both. Skipped when the PostgreSQL client programs are not installed.
 */
class PgDumpRestoreTest {
    private static final String PG_DUMP = "/usr/bin/pg_dump";
    private static final String PSQL = "/usr/bin/psql";
    private static final String USER = "postgres";

    private static final List<String> SETUP = List.of(
            "CREATE TABLE t (id SERIAL PRIMARY KEY, name TEXT NOT NULL DEFAULT 'x', n INT, b BIGINT, s SMALLINT,"
                    + " f DOUBLE PRECISION, r REAL, d NUMERIC(10,2), dt DATE, ts TIMESTAMP, tz TIMESTAMPTZ,"
                    + " bo BOOLEAN, bin BYTEA, iv INTERVAL, vc VARCHAR(20))",
            "CREATE TABLE u (k BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v TEXT)",
            "CREATE TABLE pair (a INT NOT NULL, b TEXT NOT NULL, c NUMERIC, PRIMARY KEY (b, a))",
            "CREATE TABLE unused (id BIGSERIAL PRIMARY KEY, x INT)",
            "CREATE TABLE uid (id UUID PRIMARY KEY, ref UUID, n INT)",
            "INSERT INTO uid VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', NULL, 1),"
                    + " ('{8A0EEBC9-9C0B-4EF8-BB6D-6BB9BD380A11}', 'a0eebc999c0b4ef8bb6d6bb9bd380a11', 2)",
            "CREATE TABLE chk (id INT PRIMARY KEY, v INT CHECK (v > 0), w INT, s TEXT,"
                    + " CONSTRAINT w_over_v CHECK (w > v OR w IS NULL), CHECK (length(s) < 4))",
            "INSERT INTO chk VALUES (1, 1, 2, 'a'), (2, 5, NULL, NULL)",
            "CREATE TABLE uq (id INT PRIMARY KEY, code TEXT UNIQUE, a INT, b INT, CONSTRAINT uq_ab UNIQUE (a, b))",
            "CREATE INDEX uq_a_idx ON uq (a)",
            "CREATE UNIQUE INDEX uq_code_b ON uq (code, b)",
            "INSERT INTO uq VALUES (1, 'a', 1, 1), (2, 'b', 1, 2), (3, NULL, NULL, NULL), (4, NULL, NULL, NULL)",
            "INSERT INTO t (name, n, b, s, f, r, d, dt, ts, tz, bo, bin, iv, vc) VALUES"
                    + " ('a', 1, 2, 3, 1.5, 2.5, 3.25, '2024-01-02', '2024-01-02 03:04:05.25',"
                    + " '2024-01-02 03:04:05+00', true, '\\xdeadbeef'::bytea, '1 day 02:00:00', 'v')",
            "INSERT INTO t (name) VALUES ('b')",
            "INSERT INTO t (name, n, b, s, f, r, d, dt, ts, tz, bo, bin, iv, vc) VALUES"
                    + " ('tab\tand \\ backslash', -7, -9000000000, -3, -0.125, 1e10, -99999999.99, '1999-12-31',"
                    + " '1999-12-31 23:59:59', '1999-12-31 23:59:59+00', false, ''::bytea, '3 mons', '')",
            "INSERT INTO t (id, name) VALUES (100, 'explicit')",
            "INSERT INTO u (v) VALUES ('p'), ('q'), (NULL), ('line\nbreak')",
            "INSERT INTO pair VALUES (1, 'x', 1.5), (2, 'x', NULL), (1, 'y', 100000000000000000000.01)",
            "CREATE VIEW v AS SELECT id, name FROM t WHERE n > 0",
            "CREATE VIEW vj AS SELECT t.id, u.v FROM t JOIN u ON t.id = u.k, pair WHERE pair.a = t.id",
            "CREATE MATERIALIZED VIEW m AS SELECT b, count(*) AS c, sum(a) AS s FROM pair GROUP BY b",
            "CREATE TABLE arr (id INT PRIMARY KEY, tags TEXT[] NOT NULL DEFAULT '{}', nums INTEGER ARRAY,"
                    + " n NUMERIC(6,2)[], d DATE[], vc VARCHAR(8)[])",
            "INSERT INTO arr VALUES (1, '{a,\"b c\",NULL,\"\",\"q\\\"r\"}', '{1,NULL,-3}', '{1.5}',"
                    + " '{2024-01-02}', '{x}'), (2, '{}', NULL, NULL, '{}', NULL)",
            "INSERT INTO arr (id) VALUES (3)",
            "CREATE SCHEMA app",
            "CREATE TABLE app.cfg (k TEXT PRIMARY KEY, n BIGINT)",
            "CREATE SEQUENCE app.counter AS integer START WITH 100 INCREMENT BY 5 MAXVALUE 1000 CACHE 2",
            "ALTER SEQUENCE app.counter OWNED BY app.cfg.n",
            "SELECT nextval('app.counter')",
            "SELECT nextval('app.counter')",
            "CREATE SEQUENCE fresh",
            "CREATE TABLE parent (id INT PRIMARY KEY, name TEXT)",
            "CREATE TABLE child (id INT PRIMARY KEY, pid INT REFERENCES parent (id), note TEXT,"
                    + " CONSTRAINT child_code FOREIGN KEY (note) REFERENCES uq (code))",
            "INSERT INTO parent VALUES (1, 'a'), (2, 'b')",
            "INSERT INTO child VALUES (1, 1, 'a'), (2, NULL, NULL), (3, 2, NULL)",
            "COMMENT ON TABLE t IS 'every type''s column'",
            "COMMENT ON COLUMN t.name IS 'a name'",
            "COMMENT ON VIEW v IS 'positive n'",
            "COMMENT ON COLUMN v.id IS 'id of t'",
            "COMMENT ON MATERIALIZED VIEW m IS 'per b'",
            "COMMENT ON COLUMN m.c IS 'count'",
            "COMMENT ON SCHEMA app IS 'the app'",
            "COMMENT ON COLUMN app.cfg.n IS 'counter'");

    /** What is compared after the restore: every relation and every sequence. */
    private static final List<String> CHECKS = List.of(
            "SELECT * FROM t ORDER BY id",
            "SELECT * FROM u ORDER BY k",
            "SELECT * FROM pair ORDER BY b, a",
            "SELECT * FROM unused ORDER BY id",
            "SELECT * FROM uid ORDER BY id",
            "SELECT * FROM chk ORDER BY id",
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'chk'::regclass"
                    + " AND contype = 'c' ORDER BY conname",
            "SELECT * FROM uq ORDER BY id",
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'uq' ORDER BY 1",
            "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'uq'::regclass"
                    + " ORDER BY 1",
            "SELECT * FROM v ORDER BY id",
            "SELECT * FROM vj ORDER BY id",
            "SELECT * FROM m ORDER BY b",
            "SELECT * FROM arr ORDER BY id",
            "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'arr'::regclass"
                    + " AND attnum > 0 ORDER BY attnum",
            "SELECT last_value, is_called FROM t_id_seq",
            "SELECT last_value, is_called FROM u_k_seq",
            "SELECT last_value, is_called FROM unused_id_seq",
            "SELECT last_value, is_called FROM app.counter",
            "SELECT last_value, is_called FROM fresh",
            "SELECT schemaname, sequencename, data_type, start_value, min_value, max_value, increment_by, cycle,"
                    + " cache_size, last_value FROM pg_sequences ORDER BY 1, 2",
            "SELECT refobjid::regclass::text, refobjsubid, deptype FROM pg_depend"
                    + " WHERE objid = 'app.counter'::regclass AND refobjid <> 'app'::regnamespace",
            "SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                    + " WHERE n.nspname = 'app' ORDER BY 1",
            "SELECT * FROM child ORDER BY id",
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'f' ORDER BY 1",
            "SELECT n.nspname, c.relname, d.objsubid, d.description FROM pg_description d"
                    + " JOIN pg_class c ON c.oid = d.objoid AND d.classoid = 1259"
                    + " JOIN pg_namespace n ON n.oid = c.relnamespace ORDER BY 1, 2, 3",
            "SELECT n.nspname, d.description FROM pg_description d JOIN pg_namespace n ON n.oid = d.objoid"
                    + " WHERE n.nspname IN ('public', 'app') ORDER BY 1",
            "SELECT nextval('app.counter'), nextval('fresh')");

    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        DifferentialPostgres.freshDev().close();
        tributary = InProcessTributary.temporary("pgdump-restore-", 20, USER, "", 60);
        try (Connection c = tributary.connect(USER, "", 60);
                Statement s = c.createStatement()) {
            for (String sql : SETUP) {
                s.execute(sql);
            }
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(tributary);
    }

    @Test
    void dumpRestoresIntoPostgres() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(PG_DUMP)) && Files.isExecutable(Path.of(PSQL)), "no pg_dump/psql");
        Path dump = Files.createTempFile("tributary-dump-", ".sql");
        try {
            run(
                    PG_DUMP,
                    "-h",
                    "127.0.0.1",
                    "-p",
                    Integer.toString(tributary.port()),
                    "-U",
                    USER,
                    "--no-owner",
                    "-f",
                    dump.toString(),
                    "dev");
            run(
                    PSQL,
                    "-X",
                    "-q",
                    "-v",
                    "ON_ERROR_STOP=1",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    Integer.toString(DifferentialPostgres.port()),
                    "-U",
                    USER,
                    "-d",
                    "dev",
                    "-f",
                    dump.toString());
            try (Connection pg = DifferentialPostgres.connectDev();
                    Connection trib = tributary.connect(USER, "", 60);
                    Statement ps = pg.createStatement();
                    Statement ts = trib.createStatement()) {
                for (String sql : CHECKS) {
                    assertEquals(rows(ps.executeQuery(sql)), rows(ts.executeQuery(sql)), sql);
                }
                // the restored constraints and unique indexes hold: each insert fails with 23505 on both
                for (String sql : List.of(
                        "INSERT INTO uq VALUES (9, 'a', 7, 7)",
                        "INSERT INTO uq VALUES (9, 'z', 1, 2)",
                        "INSERT INTO uq VALUES (1, 'z', 7, 7)")) {
                    String restored = StatementOutcome.of(pg, sql, false);
                    assertEquals(restored, StatementOutcome.of(trib, sql, false), sql);
                    assertTrue(restored.contains("23505"), restored);
                }
            }
        } finally {
            Files.deleteIfExists(dump);
        }
    }

    /** Runs a client program to its end; its output is in the failure message when it fails. */
    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command[0] + " did not finish");
        }
        assertEquals(0, p.exitValue(), command[0] + " failed:\n" + out);
    }

    private static List<List<String>> rows(ResultSet rs) throws SQLException {
        try (rs) {
            List<List<String>> out = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            List<String> header = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                // labels only: pgjdbc names a SERIAL column's type "serial" from PostgreSQL's
                // catalog, and Tributary's query results type varchar columns as text
                header.add(rs.getMetaData().getColumnLabel(i));
            }
            out.add(header);
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                out.add(row);
            }
            return out;
        }
    }
}
