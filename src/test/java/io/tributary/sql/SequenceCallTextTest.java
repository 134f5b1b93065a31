package io.tributary.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which statements' sequence calls are evaluated ahead ({@link SequenceCallText#find}) and the
 * text planned with their values; the answers themselves are compared with PostgreSQL in {@code
 * SequenceFunctionsDifferentialTest}.
 */
class SequenceCallTextTest {
    @Test
    void replacesEachCallInTheOrderWritten() {
        SequenceCallText calls =
                SequenceCallText.find("SELECT nextval('s') + 1, currval('s'), setval('t', 5, false) * 2");
        assertEquals(
                List.of(
                        new SequenceCallText.Call("nextval", "s", null, true),
                        new SequenceCallText.Call("currval", "s", null, true),
                        new SequenceCallText.Call("setval", "t", 5L, false)),
                calls.calls());
        assertEquals(
                "SELECT CAST(7 AS BIGINT) + 1, CAST(7 AS BIGINT) AS \"currval\", CAST(5 AS BIGINT) * 2",
                calls.withValues(List.of(7L, 7L, 5L)));
    }

    @Test
    void takesInsertValuesAndQualifiedNames() {
        SequenceCallText calls = SequenceCallText.find(
                "INSERT INTO public.w (id, v) VALUES (pg_catalog.nextval('q'::regclass) * 10, 'a'), (nextval('q'), 'b')"
                        + " RETURNING id");
        assertEquals(
                "INSERT INTO public.w (id, v) VALUES (CAST(1 AS BIGINT) * 10, 'a'), (CAST(2 AS BIGINT), 'b')"
                        + " RETURNING id",
                calls.withValues(List.of(1L, 2L)));
        assertEquals(
                "INSERT INTO w VALUES (CAST(3 AS BIGINT), 'x')",
                SequenceCallText.find("INSERT INTO w VALUES (nextval('q'), 'x')")
                        .withValues(List.of(3L)));
    }

    @Test
    void leavesStatementsWhereACallCouldRunAnotherNumberOfTimes() {
        for (String sql : List.of(
                "SELECT 1",
                "SELECT nextval('s') FROM t",
                "SELECT nextval('s') WHERE false",
                "SELECT CASE WHEN true THEN nextval('s') END",
                "SELECT coalesce(1, nextval('s'))",
                "SELECT true OR nextval('s') > 0",
                "SELECT (SELECT nextval('s'))",
                "SELECT nextval(name) + 1",
                "SELECT setval('s', 1 + 1) + 0",
                "UPDATE t SET v = nextval('s') + 1",
                "INSERT INTO t SELECT nextval('s')",
                "INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET v = nextval('s')",
                "INSERT INTO t VALUES (1) RETURNING nextval('s')")) {
            assertNull(SequenceCallText.find(sql), sql);
        }
    }
}
