package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Everyday SQL a sweep found missing or misprinted, run in order on Tributary and on an embedded
 * PostgreSQL: each statement's rows (labels and JDBC types) or SQLSTATE must match: {@code
 * array_replace}, {@code array_fill}, {@code array_dims}, {@code ^@}, {@code substring} with
 * {@code SIMILAR} (or {@code FROM ... FOR} an escape), and the session and privilege functions
 * tools call, whose values PostgreSQL alone knows compared by type and shape.
 */
class SweepGapsDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE sw (id INT PRIMARY KEY, a INT, t TEXT, n NUMERIC(10,2))",
            "INSERT INTO sw VALUES (1, 1, 'a', 1.50), (2, NULL, 'a b', NULL), (3, 3, '', -2), (4, 4, 'x,y\"z', 0)",
            // array_replace, array_fill, array_dims
            "SELECT array_replace(array[1,2,1], 1, 9), array_fill(7, array[3]), array_dims(array[1,2,3])",
            "SELECT array_replace(array[1,NULL,2], NULL, 5), array_replace(array[NULL,1], 1, NULL),"
                    + " array_replace(array['a','b'], 'a', 'z'), array_replace(array[1.5,2.5], 2.5, 0)",
            "SELECT array_replace(CASE WHEN false THEN array[1] END, 1, 2), array_replace(array[1, 2], 2, 3.5)",
            "SELECT array_fill('x'::text, array[2]), array_fill(CAST(NULL AS INT), array[2]), array_fill(1.5, array[0]),"
                    + " array_fill(DATE '2024-01-02', array[1])",
            "SELECT array_fill(true, array[-1])",
            "SELECT array_fill(7, CASE WHEN false THEN array[1] END)",
            "SELECT array_dims(array['a','b']), array_dims(array_remove(array[1], 1)),"
                    + " array_dims(CASE WHEN false THEN array[1] END), array_dims(array[1.5])",
            "SELECT id, array_replace(array[a, 3], 3, a) AS r, array_dims(array[t]) AS d,"
                    + " array_replace(array[t, 'a'], 'a', t) AS s, array_fill(n, array[2]) AS f FROM sw ORDER BY id",
            // ^@ and SIMILAR substring
            "SELECT 'apple' ^@ 'ap', 'apple' ^@ 'pp', 'a' ^@ NULL, 'apple' ^@ '' AND true",
            "SELECT id, t ^@ 'a' AS s FROM sw WHERE t ^@ 'a' ORDER BY id",
            "SELECT substring('foobar' similar '%#\"o_b#\"%' escape '#'), substring('foobar' similar 'x#\"o#\"%' escape '#')",
            "SELECT substring('foobar' similar 'f(o|x)*b%' escape '#'), substring('a.b' similar 'a.b' escape ''),"
                    + " substring('abc' similar '#\"a#\"%' escape NULL), substring('x_y' similar '%#_#\"y#\"' escape '#')",
            "SELECT substring('foobar' FROM '%#\"o_b#\"%' FOR '#'), substring('foobar' FROM '#\"f#\"%' FOR '#')",
            "SELECT id, substring(t similar '#\"_#\"%' escape '#') AS s FROM sw ORDER BY id",
            "SELECT substring('a' similar '#\"a#\"#\"' escape '#')",
            "SELECT substring('a' similar 'a' escape '##')",
            // session and catalog functions (values PostgreSQL alone knows: their shape)
            "SELECT pg_postmaster_start_time() IS NOT NULL, pg_postmaster_start_time() < now()",
            "SELECT pg_typeof(pg_postmaster_start_time())::text",
            "SELECT has_table_privilege('sw', 'select'), has_table_privilege('sw', 'SELECT, INSERT'),"
                    + " has_table_privilege(current_user, 'sw', 'update WITH GRANT OPTION')",
            "SELECT has_table_privilege('no_such_table', 'select')",
            "SELECT has_table_privilege('sw', 'fly')",
            "SELECT has_schema_privilege('public', 'usage'), has_database_privilege(current_database(), 'connect'),"
                    + " has_schema_privilege('public', 'CREATE')",
            "SELECT has_schema_privilege('no_such_schema', 'usage')",
            "SELECT has_database_privilege('no_such_db', 'connect')",
            "SELECT to_regclass('sw') = 'sw'::regclass, to_regclass('no_such_table') IS NULL,"
                    + " to_regclass('public.sw') = 'sw'::regclass");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("sweep-diff-");
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
