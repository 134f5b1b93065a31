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
 * {@code nextval}, {@code currval} and {@code setval} on the sequences of SERIAL and identity
 * columns, run in order on Tributary and on an embedded PostgreSQL with the same tables: each
 * statement's rows (including the sequence relations' {@code last_value, is_called}) or SQLSTATE
 * must match, and so must what a second session sees.
 */
class SequenceFunctionsDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE s (id SERIAL PRIMARY KEY, v TEXT)",
            "CREATE TABLE b (k BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v TEXT)",
            "CREATE TABLE small (id SMALLSERIAL PRIMARY KEY, v TEXT)");

    private static final List<String> SESSION = List.of(
            "SELECT currval('s_id_seq')",
            "SELECT last_value, is_called FROM s_id_seq",
            "SELECT nextval('s_id_seq')",
            "SELECT nextval('s_id_seq')",
            "SELECT currval('s_id_seq')",
            "SELECT last_value, is_called FROM s_id_seq",
            "INSERT INTO s (v) VALUES ('a'), ('b') RETURNING id",
            "SELECT currval('s_id_seq')",
            "SELECT nextval('public.s_id_seq'::regclass)",
            "SELECT nextval('S_ID_SEQ')",
            "SELECT nextval('\"s_id_seq\"')",
            "SELECT setval('s_id_seq', 10)",
            "SELECT currval('s_id_seq')",
            "SELECT last_value, is_called FROM s_id_seq",
            "SELECT nextval('s_id_seq')",
            "INSERT INTO s (v) VALUES ('c') RETURNING id",
            "SELECT setval('s_id_seq', 20, true)",
            "SELECT nextval('s_id_seq')",
            "SELECT setval('s_id_seq', 0)",
            "SELECT setval('s_id_seq', 2147483648)",
            "SELECT setval('small_id_seq', 40000)",
            "SELECT setval('small_id_seq', 1, false)",
            "SELECT last_value, is_called FROM small_id_seq",
            "SELECT nextval('small_id_seq')",
            "SELECT last_value, is_called FROM small_id_seq",
            "SELECT setval('small_id_seq', 32767)",
            "SELECT nextval('small_id_seq')",
            "SELECT currval('b_k_seq')",
            "SELECT nextval('b_k_seq')",
            "INSERT INTO b (v) VALUES ('x') RETURNING k",
            "SELECT setval('b_k_seq', 9000000000)",
            "SELECT nextval('b_k_seq')",
            "SELECT last_value, is_called FROM b_k_seq",
            "SELECT nextval('nosuch_seq')",
            "SELECT currval('nosuch_seq')",
            "SELECT setval('nosuch_seq', 3)",
            "SELECT nextval('public.nosuch_seq')",
            "SELECT setval('s_id_seq', 50, false)",
            "SELECT last_value, is_called FROM s_id_seq",
            "SELECT sequencename, last_value FROM pg_sequences WHERE sequencename = 's_id_seq'",
            "SELECT nextval('s_id_seq')",
            "SELECT last_value, is_called FROM s_id_seq",
            "SELECT setval('s_id_seq', 60, false)",
            "INSERT INTO s (v) VALUES ('d') RETURNING id",
            "SELECT setval('s_id_seq', 70, false)",
            "SELECT id, v FROM s ORDER BY id");

    /** Run in a second session after {@link #SESSION}: currval is per session, positions are not. */
    private static final List<String> OTHER_SESSION = List.of(
            "SELECT currval('s_id_seq')",
            "SELECT last_value, is_called FROM s_id_seq",
            "SELECT nextval('s_id_seq')",
            "SELECT currval('s_id_seq')");

    /** Sequence calls inside larger expressions, in a SELECT without FROM and in INSERT ... VALUES. */
    private static final List<String> IN_EXPRESSIONS = List.of(
            "CREATE SEQUENCE q",
            "CREATE TABLE w (id BIGINT PRIMARY KEY, v TEXT)",
            "CREATE TABLE sw (id SERIAL PRIMARY KEY, v TEXT)",
            "SELECT nextval('q') + 1",
            "SELECT nextval('q') * 10 AS x, currval('q')",
            "SELECT nextval('q'), nextval('q'), currval('q') AS c",
            "SELECT currval('q') - 1, 'x' AS label",
            "SELECT setval('q', 100, false) + 0",
            "SELECT nextval('q')",
            "SELECT pg_catalog.nextval('q'::regclass) * 2 AS d",
            "SELECT setval('q', 5) + nextval('q') AS s",
            "SELECT abs(nextval('q')), length('a' || nextval('q'))",
            "INSERT INTO w VALUES (nextval('q') * 10, 'a'), (nextval('q') * 10, 'b')",
            "INSERT INTO w (id, v) VALUES (currval('q'), 'c') RETURNING id, v",
            "INSERT INTO sw (v) VALUES ('seq ' || nextval('q')), ('seq ' || nextval('q')) RETURNING id, v",
            "SELECT id, v FROM w ORDER BY id",
            "SELECT nextval('nosuch') + 1",
            "SELECT currval('q') + setval('nosuch', 1)",
            "SELECT currval('q')",
            "SELECT setval('q', 0) * 2",
            "SELECT currval('q')");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("seqfn-diff-", 20, "postgres", "", 60);
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
    void sequenceFunctionsLikePostgres() throws SQLException {
        List<String> mismatches = new ArrayList<>();
        mismatches.addAll(StatementOutcome.mismatches(pg, tributary.connection, SESSION));
        compareInNewSessions(OTHER_SESSION, mismatches);
        assertEquals(List.of(), mismatches);
    }

    /** {@link #compare} in a new session on each server. */
    private static void compareInNewSessions(List<String> statements, List<String> mismatches) throws SQLException {
        try (Connection pg2 = DifferentialPostgres.connectDev();
                Connection trib2 = tributary.connect("postgres", "", 60)) {
            mismatches.addAll(StatementOutcome.mismatches(pg2, trib2, statements));
        }
    }

    @Test
    void sequenceCallsInsideExpressionsLikePostgres() throws SQLException {
        List<String> mismatches = new ArrayList<>();
        compareInNewSessions(IN_EXPRESSIONS, mismatches);
        assertEquals(List.of(), mismatches);
    }

    /**
     * A call on the INSERT's own SERIAL sequence inside its VALUES is refused: PostgreSQL
     * interleaves it with the column default row by row, which evaluating ahead cannot reproduce.
     */
    @Test
    void callOnTheInsertedTablesOwnSequenceIsRefused() throws SQLException {
        try (Connection trib2 = tributary.connect("postgres", "", 60)) {
            String outcome =
                    StatementOutcome.of(trib2, "INSERT INTO small (v) VALUES ('n' || nextval('small_id_seq'))", true);
            org.junit.jupiter.api.Assertions.assertTrue(outcome.contains("0A000"), outcome);
        }
    }
}
