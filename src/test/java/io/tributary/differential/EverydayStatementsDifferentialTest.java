package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Everyday PostgreSQL statements from the sweep of issue 12: {@code TABLE t} as {@code SELECT * FROM
 * t}, {@code REFRESH MATERIALIZED VIEW}, {@code SHOW lc_collate} and {@code lc_ctype} answer as PostgreSQL; PostgreSQL's statements
 * Tributary does not support are 0A000 naming the statement, never 42601.
 */
class EverydayStatementsDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE t (id INT PRIMARY KEY, g INT)",
            "INSERT INTO t VALUES (1, 1), (2, 2), (3, 2)",
            "CREATE TABLE one (id INT PRIMARY KEY, s TEXT)",
            "INSERT INTO one VALUES (7, 'x')",
            // TABLE t was XX000 (Calcite's explicit table reached the planner as the statement)
            "TABLE one",
            "TABLE one;",
            "TABLE public.one",
            "TABLE t ORDER BY id DESC LIMIT 2",
            "TABLE t ORDER BY g, id OFFSET 1",
            "TABLE t UNION TABLE t ORDER BY 1",
            "(TABLE t) EXCEPT SELECT 1, 1 ORDER BY id",
            "WITH c AS (TABLE t) SELECT count(*) AS n FROM c",
            "WITH c AS (SELECT * FROM t WHERE g = 2) TABLE c ORDER BY id",
            "SELECT x.id FROM (TABLE t) AS x WHERE x.g = 2 ORDER BY 1",
            "SELECT id FROM t WHERE (id, g) IN (TABLE t) ORDER BY id",
            "CREATE VIEW tv AS TABLE t",
            "SELECT * FROM tv ORDER BY id",
            "TABLE tv ORDER BY id",
            "CREATE MATERIALIZED VIEW tm AS TABLE t",
            "SELECT * FROM tm ORDER BY id",
            // a materialized view is current once its backfill is done: REFRESH waits for that (was 0A000)
            "REFRESH MATERIALIZED VIEW tm",
            "REFRESH MATERIALIZED VIEW tm WITH DATA",
            "REFRESH MATERIALIZED VIEW public.tm",
            "REFRESH MATERIALIZED VIEW t",
            "REFRESH MATERIALIZED VIEW tv",
            "REFRESH MATERIALIZED VIEW nosuch",
            "BEGIN",
            "REFRESH MATERIALIZED VIEW tm",
            "COMMIT",
            "TABLE nosuch",
            // the locales: every database is C (was 42704)
            "SHOW lc_collate",
            "SHOW lc_ctype",
            "SELECT current_setting('lc_collate') AS c, current_setting('lc_ctype') AS t",
            "SELECT datcollate = current_setting('lc_collate') AS same FROM pg_database"
                    + " WHERE datname = current_database()",
            "SET lc_collate = 'C'",
            "SET lc_ctype TO 'C'");

    /**
     * PostgreSQL 14's statements (one of each from its SQL Commands reference that Tributary does not
     * support), and a word the 0A000 message must name; were 42601.
     */
    private static final Map<String, String> REFUSED = Map.ofEntries(
            Map.entry("ANALYZE u", "ANALYZE"),
            Map.entry("ANALYZE", "ANALYZE"),
            Map.entry("CHECKPOINT", "CHECKPOINT"),
            Map.entry("CLOSE c", "CLOSE"),
            Map.entry("CLUSTER u", "CLUSTER"),
            Map.entry("CREATE ACCESS METHOD am TYPE TABLE HANDLER h", "ACCESS METHOD"),
            Map.entry("CREATE AGGREGATE a(int) (SFUNC = f, STYPE = int)", "AGGREGATE"),
            Map.entry("CREATE CAST (int AS text) WITH INOUT", "CAST"),
            Map.entry("CREATE COLLATION c (locale = 'C')", "COLLATION"),
            Map.entry("CREATE CONVERSION cv FOR 'UTF8' TO 'LATIN1' FROM f", "CONVERSION"),
            Map.entry("CREATE DEFAULT CONVERSION cv FOR 'UTF8' TO 'LATIN1' FROM f", "CONVERSION"),
            Map.entry("CREATE DOMAIN d AS int CHECK (VALUE > 0)", "DOMAIN"),
            Map.entry("CREATE EVENT TRIGGER et ON ddl_command_start EXECUTE FUNCTION f()", "EVENT TRIGGER"),
            Map.entry("CREATE EXTENSION pgcrypto", "EXTENSION"),
            Map.entry("CREATE EXTENSION IF NOT EXISTS pgcrypto", "EXTENSION"),
            Map.entry("CREATE FOREIGN DATA WRAPPER w", "FOREIGN DATA WRAPPER"),
            Map.entry("CREATE FOREIGN TABLE ft (a int) SERVER s", "FOREIGN TABLE"),
            Map.entry("CREATE GROUP g", "GROUP"),
            Map.entry("CREATE LANGUAGE plx HANDLER h", "LANGUAGE"),
            Map.entry("CREATE TRUSTED LANGUAGE plx HANDLER h", "LANGUAGE"),
            Map.entry("CREATE OPERATOR === (LEFTARG = int, RIGHTARG = int, FUNCTION = f)", "OPERATOR"),
            Map.entry("CREATE OPERATOR CLASS oc FOR TYPE int USING btree AS OPERATOR 1 <", "OPERATOR"),
            Map.entry("CREATE OPERATOR FAMILY of USING btree", "OPERATOR"),
            Map.entry("CREATE POLICY p ON u USING (true)", "POLICY"),
            Map.entry("CREATE PROCEDURE p() LANGUAGE sql AS 'select 1'", "PROCEDURE"),
            Map.entry("CREATE OR REPLACE PROCEDURE p() LANGUAGE sql AS 'select 1'", "PROCEDURE"),
            Map.entry("CREATE OR REPLACE FUNCTION f() RETURNS int AS 'select 1' LANGUAGE sql", "FUNCTION"),
            Map.entry("CREATE PUBLICATION pub FOR ALL TABLES", "PUBLICATION"),
            Map.entry("CREATE ROLE r1", "ROLE"),
            Map.entry("CREATE RULE r AS ON INSERT TO u DO NOTHING", "RULE"),
            Map.entry("CREATE OR REPLACE RULE r AS ON INSERT TO u DO NOTHING", "RULE"),
            Map.entry("CREATE SERVER s FOREIGN DATA WRAPPER w", "SERVER"),
            Map.entry("CREATE STATISTICS st ON id, qty FROM u", "STATISTICS"),
            Map.entry("CREATE SUBSCRIPTION sub CONNECTION 'x' PUBLICATION pub", "SUBSCRIPTION"),
            Map.entry("CREATE TABLESPACE ts LOCATION '/tmp'", "TABLESPACE"),
            Map.entry("CREATE TEXT SEARCH CONFIGURATION tc (PARSER = default)", "TEXT SEARCH"),
            Map.entry("CREATE TRANSFORM FOR int LANGUAGE sql (FROM SQL WITH FUNCTION f(internal))", "TRANSFORM"),
            Map.entry("CREATE TRIGGER tr AFTER INSERT ON u FOR EACH ROW EXECUTE FUNCTION f()", "TRIGGER"),
            Map.entry("CREATE CONSTRAINT TRIGGER tr AFTER INSERT ON u FOR EACH ROW EXECUTE FUNCTION f()", "TRIGGER"),
            Map.entry("CREATE OR REPLACE TRIGGER tr AFTER INSERT ON u FOR EACH ROW EXECUTE FUNCTION f()", "TRIGGER"),
            Map.entry("CREATE TYPE mood AS ENUM ('sad', 'ok')", "TYPE"),
            Map.entry("CREATE TYPE pair AS (a int, b int)", "TYPE"),
            Map.entry("CREATE GLOBAL TEMPORARY TABLE gt (a int)", "TEMPORARY TABLE"),
            Map.entry("CREATE RECURSIVE VIEW rv (n) AS SELECT 1", "RECURSIVE VIEW"),
            Map.entry("DECLARE c CURSOR FOR SELECT 1", "DECLARE"),
            Map.entry("DO $$ BEGIN END $$", "DO"),
            Map.entry("DO LANGUAGE plpgsql $$ BEGIN END $$", "DO"),
            Map.entry("FETCH NEXT FROM c", "FETCH"),
            Map.entry("IMPORT FOREIGN SCHEMA s FROM SERVER x INTO public", "IMPORT FOREIGN SCHEMA"),
            Map.entry("LISTEN ch", "LISTEN"),
            Map.entry("LOAD 'auto_explain'", "LOAD"),
            Map.entry("MOVE NEXT FROM c", "MOVE"),
            Map.entry("NOTIFY ch", "NOTIFY"),
            Map.entry("NOTIFY ch, 'payload'", "NOTIFY"),
            Map.entry("PREPARE TRANSACTION 'x'", "two-phase commit"),
            Map.entry("REASSIGN OWNED BY r1 TO r2", "REASSIGN OWNED"),
            Map.entry("REINDEX TABLE u", "REINDEX"),
            Map.entry("REINDEX INDEX i", "REINDEX"),
            Map.entry("SECURITY LABEL ON TABLE u IS 'x'", "SECURITY LABEL"),
            Map.entry("SET ROLE r1", "SET ROLE"),
            Map.entry("SET SESSION AUTHORIZATION r1", "SET SESSION AUTHORIZATION"),
            Map.entry("SET CONSTRAINTS ALL DEFERRED", "SET CONSTRAINTS"),
            Map.entry("UNLISTEN ch", "UNLISTEN"),
            Map.entry("UNLISTEN *", "UNLISTEN"),
            Map.entry("VACUUM u", "VACUUM"),
            Map.entry("VACUUM", "VACUUM"),
            Map.entry("VACUUM FULL u", "VACUUM"),
            Map.entry("VACUUM (ANALYZE) u", "VACUUM"),
            Map.entry("REFRESH MATERIALIZED VIEW tm WITH NO DATA", "WITH NO DATA"));

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("statements-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void everydayStatementsAnswerAsPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS));
    }

    /**
     * Each statement is PostgreSQL's (PostgreSQL does not call it a syntax error; run in a transaction
     * it rolls back, so that roles and the like do not outlive the test) and Tributary refuses it with
     * 0A000 naming it.
     */
    @Test
    void postgresStatementsBeyondTributaryAreRefusedByName() throws SQLException {
        try (Statement s = tributary.connection.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS u (id INT PRIMARY KEY, qty INT)");
            s.execute("CREATE TABLE IF NOT EXISTS t (id INT PRIMARY KEY, g INT)");
        }
        try (Statement s = pg.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS u (id INT PRIMARY KEY, qty INT)");
            s.execute("CREATE TABLE IF NOT EXISTS t (id INT PRIMARY KEY, g INT)");
        }
        List<String> wrong = new ArrayList<>();
        pg.setAutoCommit(false);
        try {
            for (Map.Entry<String, String> refused : REFUSED.entrySet()) {
                String sql = refused.getKey();
                String postgres = StatementOutcome.of(pg, sql, true);
                pg.rollback();
                if (postgres.startsWith("ERROR 42601")) {
                    wrong.add(sql + " is no PostgreSQL statement: " + postgres);
                }
                try (Statement s = tributary.connection.createStatement()) {
                    s.execute(sql);
                    wrong.add(sql + " ran");
                } catch (SQLException e) {
                    if (!"0A000".equals(e.getSQLState()) || !e.getMessage().contains(refused.getValue())) {
                        wrong.add(sql + " -> " + e.getSQLState() + " " + e.getMessage());
                    }
                }
            }
        } finally {
            pg.setAutoCommit(true);
        }
        assertEquals(List.of(), wrong);
    }
}
