package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code CREATE SEQUENCE} with START, INCREMENT, MINVALUE, MAXVALUE, CYCLE and CACHE 1, {@code
 * ALTER SEQUENCE ... RESTART [WITH n]} and {@code INCREMENT BY} (issue 12; were 0A000), run in
 * order on Tributary and on an embedded PostgreSQL: the values, and the errors' SQLSTATEs and
 * messages (nextval past a bound 2200H, setval out of bounds 22003, options PostgreSQL refuses
 * 22023), must match, and {@code pg_sequences}' rows.
 */
class SequenceOptionsDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE SEQUENCE s START WITH 10 INCREMENT BY 5 MINVALUE 5 MAXVALUE 22 NO CYCLE CACHE 1",
            "SELECT nextval('s')",
            "SELECT nextval('s'), nextval('s')",
            "SELECT nextval('s')",
            "SELECT currval('s')",
            "SELECT setval('s', 4)",
            "SELECT setval('s', 23)",
            "SELECT setval('s', 5)",
            "SELECT nextval('s')",
            "ALTER SEQUENCE s RESTART",
            "SELECT nextval('s')",
            "ALTER SEQUENCE s RESTART WITH 6",
            "SELECT nextval('s')",
            "ALTER SEQUENCE s INCREMENT BY 7",
            "SELECT nextval('s')",
            "SELECT nextval('s')",
            "ALTER SEQUENCE s RESTART WITH 30",
            "ALTER SEQUENCE s RESTART WITH 4",
            "ALTER SEQUENCE s INCREMENT BY 0",
            "ALTER SEQUENCE s MAXVALUE 100 RESTART WITH 99",
            "SELECT nextval('s')",
            "SELECT setval('s', 50, false)",
            "SELECT nextval('s')",
            "ALTER SEQUENCE nosuch RESTART",
            "ALTER SEQUENCE IF EXISTS nosuch RESTART",
            // counting down, with CYCLE
            "CREATE SEQUENCE down INCREMENT BY -3 MINVALUE -7 MAXVALUE 0 CYCLE",
            "SELECT nextval('down'), nextval('down'), nextval('down'), nextval('down')",
            "CREATE SEQUENCE neg INCREMENT -1 MINVALUE -2",
            "SELECT nextval('neg'), nextval('neg'), nextval('neg')",
            "SELECT nextval('neg')",
            "SELECT setval('neg', 0)",
            "CREATE SEQUENCE up CYCLE MAXVALUE 2",
            "SELECT nextval('up'), nextval('up'), nextval('up')",
            "ALTER SEQUENCE up NO CYCLE",
            "SELECT nextval('up'), nextval('up')",
            "SELECT nextval('up')",
            // the type's bounds
            "CREATE SEQUENCE small AS smallint START WITH 32766",
            "SELECT nextval('small'), nextval('small')",
            "SELECT nextval('small')",
            "CREATE SEQUENCE bad AS smallint MAXVALUE 40000",
            "CREATE SEQUENCE bad START 0",
            "CREATE SEQUENCE bad START 30 MAXVALUE 20",
            "CREATE SEQUENCE bad MINVALUE 10 MAXVALUE 5",
            "CREATE SEQUENCE bad INCREMENT BY 0",
            "CREATE SEQUENCE bad CACHE 0",
            "SELECT nextval('bad')",
            // pg_sequences shows the options and the last value handed out (null before the first)
            "CREATE SEQUENCE fresh START 3 CACHE 1",
            "SELECT sequencename, data_type, start_value, min_value, max_value, increment_by, cycle, cache_size,"
                    + " last_value FROM pg_sequences ORDER BY sequencename");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("seqopt-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void sequenceOptionsCountAsPostgres() {
        List<String> mismatches =
                StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS, StatementOutcome::withMessage);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
