package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's lexical rules where Tributary's text readers lacked them, run in order on
 * Tributary and on an embedded PostgreSQL: each statement's rows (labels and JDBC types) or
 * SQLSTATE must match. Dollar-quoted string constants in queries, INSERT values, function
 * arguments, UPDATE and CREATE VIEW bodies, beside names and parameters that hold {@code $}; a
 * cast to a type that does not exist (42704); {@code ^@} beside {@code ||}, of one precedence.
 */
class LexicalGapsDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE dq (id INT PRIMARY KEY, t TEXT)",
            "INSERT INTO dq VALUES (1, $$it's$$), (2, $tag$a$$b$tag$), (3, $$$$), (4, $q$'$q$ || 'x')",
            "INSERT INTO dq VALUES ($$5$$::int, $x$back\\slash 'quoted' ''twice''$x$)",
            "INSERT INTO dq (id, t) SELECT 6, upper($$six's$$)",
            "SELECT * FROM dq ORDER BY id",
            "SELECT $$it's$$, $tag$a$$b$tag$, $$ -- not a comment $$, $$ /* nor this */ $$, $$a;b$$",
            "SELECT length($$abc$$), upper($x$q'q$x$), replace($$a'b$$, $$'$$, $$\"$$), $$''''''''$$ || 'z'",
            "SELECT 1 AS a$$b$$, 2 AS \"c$d\", $_1$y$_1$ AS e, $A$b$a$c$A$ AS f, $$$1$$ AS g",
            "SELECT $$x$$::int",
            "SELECT $$1$$::int + 1, CAST($$2024-01-02$$ AS DATE), $$t$$::boolean",
            "SELECT id FROM dq WHERE t = $$it's$$ OR t LIKE $$%$$$$%$$ ORDER BY id",
            "UPDATE dq SET t = $$it''s$$ WHERE id = $$3$$::int",
            "DELETE FROM dq WHERE t = $z$x'$z$ || ''",
            "CREATE VIEW dqv AS SELECT id, t || $$!$$ AS u FROM dq WHERE t <> $$$$",
            "SELECT * FROM dqv ORDER BY id",
            "SELECT $$abc",
            // a quoted constant after a dollar-quoted one is a syntax error even across a line break
            "SELECT $$a$$\n'b'",
            "SELECT $x$a$x$ 'b'",
            "SELECT 'a'\n'b'",
            // a backslash-escaped quote in an escape string constant
            "SELECT E'\\'', E'it\\'s', E'\\'' || 'a', E'a\\\\' || 'b', 'c\\' AS d",
            "SELECT id FROM dq WHERE t = E'it\\'s'",
            // a cast to a type that does not exist
            "SELECT (1)::nosuchtype",
            "SELECT CAST(1 AS nosuchtype)",
            "SELECT 'a'::nosuchtype",
            "SELECT id::nosuchtype FROM dq",
            "SELECT id FROM dq WHERE CAST(t AS no_such_type) IS NULL",
            // ^@ shares PostgreSQL's "other operator" level with ||, left-associative
            "SELECT 'a' || 'b' ^@ 'a', 'ab' ^@ 'a' || 'b', 'x' || 'ab' ^@ 'x' || 'b' ^@ 't'",
            "SELECT id, t || 'x' ^@ 'it' AS s FROM dq ORDER BY id");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("lexical-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void answersAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
