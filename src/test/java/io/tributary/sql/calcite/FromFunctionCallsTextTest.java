package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import org.junit.jupiter.api.Test;

/**
 * The names {@link FromFunctionCallsText} gives an unnest in FROM (what PostgreSQL names them is
 * checked against PostgreSQL by the expression corpus) and its refusal of several arrays, which
 * PostgreSQL answers and Calcite would answer wrongly.
 */
class FromFunctionCallsTextTest {
    @Test
    void unaliasedUnnestIsNamedUnnest() {
        assertEquals(
                "SELECT * FROM unnest(ARRAY[1]) AS \"unnest\"(\"unnest\") WHERE true",
                FromFunctionCallsText.rewrite("SELECT * FROM unnest(ARRAY[1]) WHERE true"));
        assertEquals(
                "SELECT * FROM t, unnest(ARRAY[1]) WITH ORDINALITY AS \"unnest\"(\"unnest\", \"ordinality\")",
                FromFunctionCallsText.rewrite("SELECT * FROM t, unnest(ARRAY[1]) WITH ORDINALITY"));
    }

    @Test
    void aliasedUnnestKeepsItsNames() {
        String sql = "SELECT * FROM unnest(ARRAY[1]) AS u(x) JOIN t ON true";
        assertEquals(sql, FromFunctionCallsText.rewrite(sql));
        assertEquals(
                "SELECT * FROM unnest(ARRAY[1]) WITH ORDINALITY AS u(\"u\", \"ordinality\")",
                FromFunctionCallsText.rewrite("SELECT * FROM unnest(ARRAY[1]) WITH ORDINALITY AS u"));
    }

    @Test
    void unnestOfSeveralArraysIsRefused() {
        TributaryException e = assertThrows(
                TributaryException.class,
                () -> FromFunctionCallsText.rewrite("SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a']) u"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, e.sqlState());
    }
}
