package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Text read by a type's input function where Calcite converted it its own way: a text expression
 * cast to bytea (Calcite took the characters' UTF-16 bytes), string constants beside a bytea value
 * in a VALUES list, a set operation or a multi-row INSERT (they were cut to the bytea constant's
 * length, an empty one emptied them), and string constants as operands of AND, OR and NOT (42883).
 * Run in order on Tributary and on an embedded PostgreSQL: each statement's rows, with their labels
 * and JDBC types, or its SQLSTATE must match.
 */
class ConstantInputDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE words (id INT PRIMARY KEY, w TEXT, flag BOOLEAN)",
            "INSERT INTO words VALUES (1, 'apple', true), (2, '\\x0a0b', false), (3, NULL, NULL), (4, 'a\\\\b', true)",
            // text to bytea reads bytea input, as PostgreSQL's I/O conversion cast does
            "SELECT 'apple'::text::bytea AS a, CAST('\\x41'::text AS bytea) AS b",
            "SELECT id, w::bytea AS b, length(w::bytea) AS n FROM words ORDER BY id",
            "SELECT encode(sha256(w::bytea), 'hex') AS h FROM words WHERE id = 1",
            "SELECT ('x' || 'y')::bytea AS b",
            "SELECT '\\xzz'::text::bytea",
            "SELECT 'a\\q'::text::bytea",
            // string constants beside a bytea value keep their bytes
            "SELECT * FROM (VALUES ('\\x0102'), (''::bytea)) AS v(b)",
            "SELECT * FROM (VALUES ('\\x0102'::bytea), ('\\x0a'), ('abc')) AS v(b)",
            "SELECT '\\x01' AS b UNION ALL SELECT '\\x02'::bytea ORDER BY 1",
            "SELECT '\\x0102' AS b UNION SELECT ''::bytea ORDER BY 1",
            "CREATE TABLE blobs (id INT PRIMARY KEY, b BYTEA)",
            "INSERT INTO blobs VALUES (1, '\\x0102'), (2, ''::bytea), (3, '\\x41'::bytea), (4, '\\x0a'), (5, NULL)",
            "SELECT id, b, length(b) AS n FROM blobs ORDER BY id",
            "SELECT id FROM blobs WHERE b = '\\x0102' ORDER BY id",
            // string constants as boolean operands read boolean input
            "SELECT true AND 'f' AS a, 'yes' OR false AS b, NOT 'off' AS c, 't' AND 'on' AS d",
            "SELECT id, flag AND 't' AS a, 'false' OR flag AS b FROM words ORDER BY id",
            "SELECT id FROM words WHERE 'true' AND flag ORDER BY id",
            "SELECT true AND 'maybe'",
            "SELECT NOT ''");

    private static java.sql.Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("constant-input-diff-", 20, "postgres", "", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void constantsAndTextReadAsPostgresReadsThem() {
        assertEquals(List.of(), StatementOutcome.mismatches(pg, tributary.connection, STATEMENTS));
    }
}
