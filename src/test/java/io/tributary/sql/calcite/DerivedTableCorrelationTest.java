package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.TributaryException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

/**
 * Which queries {@link DerivedTableCorrelation} refuses: each refused shape was answered wrongly
 * or failed with XX000 by Calcite 1.42 (checked by hand against PostgreSQL, and in the expression
 * corpus); each passed shape is answered as PostgreSQL answers it.
 */
class DerivedTableCorrelationTest {
    private static void check(String sql) throws Exception {
        SqlNode node = SqlParser.create(PgSyntaxText.rewrite(sql), CalciteSettings.PARSER)
                .parseStmt();
        DerivedTableCorrelation.check(node);
    }

    private static void refused(String sql) {
        TributaryException e = assertThrows(TributaryException.class, () -> check(sql), sql);
        assertEquals("0A000", e.sqlState(), sql);
    }

    @Test
    void refusesSelectListSubQueriesCorrelatedWithDerivedTables() {
        refused("SELECT x.s, (SELECT w FROM b WHERE b.id = x.s) FROM (SELECT w AS s, id FROM b) x");
        refused("SELECT s, (SELECT v FROM a WHERE a.id = s) FROM (SELECT w AS s FROM b) x");
        refused("WITH x AS (SELECT w AS s FROM b) SELECT x.s, (SELECT v FROM a WHERE a.id = x.s) FROM x");
        refused(
                "SELECT x.s, EXISTS (SELECT 1 FROM a WHERE a.id = x.s) FROM (SELECT b.w AS s FROM a JOIN b ON a.id = b.id) x");
        refused("SELECT (SELECT v FROM a WHERE a.id = tmp.c) FROM t JOIN (SELECT c FROM u) tmp ON t.id = tmp.c");
    }

    @Test
    void passesWhatCalciteAnswersCorrectly() {
        assertDoesNotThrow(
                () -> check("SELECT x.s FROM (SELECT w AS s FROM b) x WHERE (SELECT v FROM a WHERE a.id = x.s) = 10"));
        assertDoesNotThrow(() -> check("SELECT b.w, (SELECT v FROM a WHERE a.id = b.w) FROM b"));
        assertDoesNotThrow(() -> check("SELECT x.s, (SELECT max(v) FROM a) FROM (SELECT w AS s FROM b) x"));
        assertDoesNotThrow(
                () -> check("SELECT x.s FROM (SELECT w AS s, (SELECT v FROM a WHERE a.id = b.w) AS v FROM b) x"));
    }
}
