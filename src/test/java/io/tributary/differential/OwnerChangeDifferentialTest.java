package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ALTER ... OWNER TO}, which pg_dump writes after every object: naming the session's user
 * (the one role, PostgreSQL's superuser here) succeeds for each kind of relation and for a schema,
 * and each wrong kind, missing object or unknown role fails with PostgreSQL's SQLSTATE, in
 * PostgreSQL's order (the object first). Sequences made by CREATE SEQUENCE read as relations of
 * their schema, as PostgreSQL's catalog shows them.
 */
class OwnerChangeDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE own_t (a INT PRIMARY KEY, b INT)",
            "CREATE VIEW own_v AS SELECT a FROM own_t",
            "CREATE SEQUENCE own_s",
            "CREATE MATERIALIZED VIEW own_m AS SELECT a, b FROM own_t",
            "CREATE INDEX own_i ON own_t (b)",
            "CREATE SCHEMA own_sch",
            "CREATE TABLE own_sch.ser (id SERIAL PRIMARY KEY, v TEXT)",
            "CREATE SEQUENCE own_sch.counter START WITH 100 INCREMENT BY 5 MAXVALUE 1000",
            "ALTER SEQUENCE own_sch.counter OWNED BY own_sch.ser.v");

    private static final List<String> STATEMENTS = List.of(
            "ALTER TABLE own_t OWNER TO postgres",
            "ALTER TABLE own_v OWNER TO postgres",
            "ALTER TABLE own_s OWNER TO postgres",
            "ALTER TABLE own_m OWNER TO postgres",
            "ALTER TABLE own_i OWNER TO postgres",
            "ALTER TABLE ONLY own_t OWNER TO postgres",
            "ALTER TABLE own_sch.ser OWNER TO postgres",
            "ALTER TABLE own_sch.ser_id_seq OWNER TO postgres",
            "ALTER SEQUENCE own_sch.ser_id_seq OWNER TO CURRENT_USER",
            "ALTER VIEW own_t OWNER TO postgres",
            "ALTER VIEW own_v OWNER TO current_user",
            "ALTER SEQUENCE own_t OWNER TO postgres",
            "ALTER SEQUENCE own_s OWNER TO session_user",
            "ALTER MATERIALIZED VIEW own_t OWNER TO postgres",
            "ALTER MATERIALIZED VIEW own_m OWNER TO current_role",
            "ALTER INDEX own_t OWNER TO postgres",
            "ALTER INDEX own_i OWNER TO postgres",
            "ALTER TABLE own_t OWNER TO nobody",
            "ALTER TABLE own_t OWNER TO \"Postgres\"",
            "ALTER TABLE own_t OWNER TO public",
            "ALTER TABLE own_missing OWNER TO nobody",
            "ALTER TABLE own_missing OWNER TO postgres",
            "ALTER TABLE IF EXISTS own_missing OWNER TO postgres",
            "ALTER VIEW IF EXISTS own_missing OWNER TO postgres",
            "ALTER SCHEMA own_sch OWNER TO postgres",
            "ALTER SCHEMA public OWNER TO postgres",
            "ALTER SCHEMA own_missing OWNER TO postgres",
            "ALTER SCHEMA own_sch OWNER TO nobody",
            "ALTER TABLE own_t OWNER TO 'postgres'",
            // the sequence of its own, read as a relation and through the catalog
            "SELECT nextval('own_sch.counter'), nextval('own_sch.counter')",
            "SELECT last_value, is_called FROM own_sch.counter",
            "SELECT last_value, is_called FROM own_s",
            "SELECT c.relname, c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                    + " WHERE n.nspname = 'own_sch' ORDER BY 1",
            "SELECT format_type(seqtypid, NULL), seqstart, seqincrement, seqmax, seqmin, seqcache, seqcycle"
                    + " FROM pg_sequence WHERE seqrelid = 'own_sch.counter'::regclass",
            "SELECT refobjid::regclass::text, refobjsubid, deptype::text FROM pg_depend"
                    + " WHERE objid = 'own_sch.counter'::regclass AND refobjid <> 'own_sch'::regnamespace",
            "SELECT schemaname, sequencename, last_value FROM pg_sequences ORDER BY 1, 2",
            "SELECT c.oid::regclass::text FROM pg_class c WHERE c.relname IN ('ser', 'own_t', 'own_m') ORDER BY 1",
            "SET search_path = own_sch, public",
            "SELECT c.oid::regclass::text FROM pg_class c WHERE c.relname IN ('ser', 'own_t', 'own_m') ORDER BY 1",
            "RESET search_path");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("owner-diff-", 20, "postgres", "", 60);
        for (String sql : SETUP) {
            assertEquals(StatementOutcome.of(pg, sql, true), StatementOutcome.of(tributary.connection, sql, true), sql);
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void ownerChangesAndSequencesAnswerAsPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS));
    }
}
