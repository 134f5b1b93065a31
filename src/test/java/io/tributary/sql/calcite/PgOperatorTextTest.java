package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The operand extents {@link PgOperatorText} finds: PostgreSQL's precedence of its "other
 * operators" level (the results are checked against PostgreSQL by {@code
 * PgFunctionGapsDifferentialTest}).
 */
class PgOperatorTextTest {
    @Test
    void operandsExtendOverTighterOperatorsOnly() {
        assertEquals("SELECT pg_op_bitor(1 + 2, 4 * 2) = 11", PgOperatorText.rewrite("SELECT 1 + 2 | 4 * 2 = 11"));
        assertEquals("SELECT pg_op_bitor(pg_op_bitand(6, 3), 8)", PgOperatorText.rewrite("SELECT 6 & 3 | 8"));
        assertEquals("SELECT pg_op_bitor(pg_op_bitnot(5), 1)", PgOperatorText.rewrite("SELECT ~5 | 1"));
        assertEquals(
                "SELECT pg_op_sqrt(CAST(pg_op_abs(f) AS DOUBLE PRECISION)) AS r FROM g",
                PgOperatorText.rewrite("SELECT |/ @ f AS r FROM g"));
        assertEquals(
                "SELECT pg_op_bitxor(a::int2, t.b) z FROM t WHERE pg_op_shr(-a, 2) > 0",
                PgOperatorText.rewrite("SELECT a::int2 # t.b z FROM t WHERE -a >> 2 > 0"));
        assertEquals(
                "SELECT pg_op_bitor(CASE WHEN b THEN 1 ELSE 2 END, f(x, y))",
                PgOperatorText.rewrite("SELECT CASE WHEN b THEN 1 ELSE 2 END | f(x, y)"));
        assertEquals(
                "SELECT pg_op_bitor(length(left(t, 2)), 1) FROM a LEFT JOIN b ON pg_op_bitxor(a.x, 1) = b.y",
                PgOperatorText.rewrite("SELECT length(left(t, 2)) | 1 FROM a LEFT JOIN b ON a.x # 1 = b.y"));
    }

    @Test
    void otherStatementsAreLeftAlone() {
        // only &, << (which Babel parses) or the regex ~: nothing to write
        for (String sql : new String[] {
            "SELECT 5 & 3, 1 << 4", "SELECT 'a' ~ 'b'", "SELECT '5 | 3', \"a|b\" -- x | y\nFROM t", "SELECT 'a' || 'b'"
        }) {
            assertEquals(sql, PgOperatorText.rewrite(sql));
        }
    }
}
