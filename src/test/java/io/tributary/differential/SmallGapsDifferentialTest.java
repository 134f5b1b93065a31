package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Small differences a client sees, each against embedded PostgreSQL: the command tag (pgjdbc's
 * update count) of a populated {@code CREATE MATERIALIZED VIEW ... AS} and {@code CREATE TABLE
 * AS}, and the one NOTICE (with its DETAIL list) of {@code DROP SCHEMA ... CASCADE}.
 */
class SmallGapsDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE t (id INT PRIMARY KEY, g INT, v TEXT)",
            "INSERT INTO t VALUES (1, 1, 'a'), (2, 1, 'b'), (3, 2, 'b'), (4, 2, NULL), (5, 3, 'c')");

    private static final List<String> TAGS = List.of(
            "CREATE MATERIALIZED VIEW m_all AS SELECT * FROM t",
            "CREATE MATERIALIZED VIEW m_dup AS SELECT g FROM t",
            "CREATE MATERIALIZED VIEW m_grp AS SELECT g, count(*) AS n FROM t GROUP BY g",
            "CREATE MATERIALIZED VIEW m_none AS SELECT * FROM t WHERE id > 100",
            "CREATE MATERIALIZED VIEW IF NOT EXISTS m_all AS SELECT * FROM t",
            "CREATE TABLE c_all AS SELECT * FROM t",
            "CREATE TABLE c_dup AS SELECT v FROM t");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("smallgaps-diff-", 20, "postgres", "", 60);
        for (Connection c : List.of(pg, tributary.connection)) {
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
    void commandTagsOfPopulatingStatementsLikePostgres() {
        assertEquals(List.of(), mismatches(TAGS));
    }

    /** Each statement run on both servers in order; the ones whose outcomes differ, with both. */
    private static List<String> mismatches(List<String> statements) {
        return StatementOutcome.mismatches(pg, tributary.connection, statements, StatementOutcome::withoutTypes);
    }

    /**
     * {@code CONSTRAINT t_pkey PRIMARY KEY (...)} in CREATE TABLE (PostgreSQL's default name) is the
     * table's key, as in PostgreSQL; constraints Tributary cannot enforce are 0A000 naming them.
     */
    @Test
    void namedPrimaryKeyLikePostgresAndOtherConstraintsNamed() throws SQLException {
        List<String> statements = List.of(
                "CREATE TABLE npk (id INT, v TEXT, CONSTRAINT npk_pkey PRIMARY KEY (id))",
                "INSERT INTO npk VALUES (1, 'a')",
                "INSERT INTO npk VALUES (1, 'b')",
                "SELECT c.conname, c.contype, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c"
                        + " JOIN pg_class r ON r.oid = c.conrelid WHERE r.relname = 'npk'",
                "SELECT a.attname, a.attnotnull FROM pg_attribute a JOIN pg_class r ON r.oid = a.attrelid"
                        + " WHERE r.relname = 'npk' AND a.attnum > 0 ORDER BY a.attnum");
        assertEquals(List.of(), mismatches(statements));
        for (String[] refused : new String[][] {
            {"CREATE UNIQUE INDEX ui ON t ((g + 1))", "an index on an expression"},
            {"CREATE TABLE ck (a INT, CONSTRAINT ck_a CHECK (a > 0) NO INHERIT)", "NO INHERIT"},
            {"CREATE TABLE fk (a INT, FOREIGN KEY (a) REFERENCES t (id) MATCH FULL)", "MATCH FULL"},
            {"CREATE TABLE pk2 (a INT, CONSTRAINT other PRIMARY KEY (a))", "pk2_pkey"}
        }) {
            String outcome = StatementOutcome.withMessage(tributary.connection, refused[0]);
            org.junit.jupiter.api.Assertions.assertTrue(
                    outcome.contains("0A000") && outcome.contains(refused[1]), refused[0] + ": " + outcome);
        }
    }

    @Test
    void dropSchemaCascadeSendsOneNoticeLikePostgres() throws SQLException {
        List<String> statements = List.of(
                "CREATE SCHEMA ds",
                "CREATE TABLE ds.t1 (id INT)",
                "CREATE TABLE ds.t2 (id INT)",
                "CREATE MATERIALIZED VIEW ds.m AS SELECT count(*) AS n FROM ds.t1",
                "CREATE SCHEMA ds1",
                "CREATE TABLE ds1.lone (id INT)");
        for (Connection c : List.of(pg, tributary.connection)) {
            try (Statement s = c.createStatement()) {
                for (String sql : statements) {
                    s.execute(sql);
                }
            }
        }
        for (String drop : List.of("DROP SCHEMA ds CASCADE", "DROP SCHEMA ds1 CASCADE")) {
            assertEquals(notices(pg, drop), notices(tributary.connection, drop), drop);
        }
    }

    /** The notices {@code sql} sends: message and DETAIL of each. */
    private static List<String> notices(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            s.execute(sql);
            for (java.sql.SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
                var server = w instanceof org.postgresql.util.PSQLWarning p ? p.getServerErrorMessage() : null;
                out.add(server == null ? w.getMessage() : server.getMessage() + " | " + server.getDetail());
            }
        }
        return out;
    }
}
