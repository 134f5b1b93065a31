package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.TributaryException;
import org.junit.jupiter.api.Test;

/**
 * Which statements {@link ComparisonChains} refuses: PostgreSQL's non-associative comparisons (the
 * outcomes themselves are compared with PostgreSQL by {@code ExpressionCorpusDifferentialTest}),
 * and statements PostgreSQL accepts that must pass.
 */
class ComparisonChainsTest {
    @Test
    void chainsAreSyntaxErrorsNamingTheSecondOperator() {
        String[][] cases = {
            {"SELECT 1 < 2 = true", "="},
            {"SELECT 1 <> 2 <> true", "<>"},
            {"SELECT a = b = c FROM t", "="},
            {"SELECT id FROM ev WHERE i4 + 1 > 0 = bo", "="},
            {"SELECT x::int >= f(y, 2) != 3", "!="},
            {"SELECT (a < b <= c)", "<="},
        };
        for (String[] c : cases) {
            TributaryException e = assertThrows(TributaryException.class, () -> ComparisonChains.check(c[0]), c[0]);
            assertEquals("42601", e.sqlState());
            assertEquals("syntax error at or near \"" + c[1] + "\"", e.getMessage());
        }
    }

    @Test
    void comparisonsSeparatedByLooserSyntaxPass() {
        for (String sql : new String[] {
            "SELECT a = 1 AND b < 2 OR c > 3 FROM t WHERE x >= 1 AND y <= 2",
            "SELECT (1 < 2) = true, 1 = 1 IS TRUE, (SELECT 1) = 1, a = b, c = d",
            "SELECT CASE WHEN a = 1 THEN b = 2 ELSE c < 3 END",
            "SELECT x = ANY (SELECT y FROM t WHERE y > 0)",
            "SELECT a BETWEEN 1 AND 2 = true",
            "UPDATE t SET a = b = c WHERE d = 1",
            "SELECT c.relname OPERATOR(pg_catalog.~) '^t$' AND c.relkind OPERATOR(pg_catalog.=) 'r'",
            "SELECT '1 < 2 = 3', \"a=b\" = 1 -- x < y = z",
            "SELECT f(a => 1) = 2",
        }) {
            assertDoesNotThrow(() -> ComparisonChains.check(sql), sql);
        }
    }
}
