package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The labels PostgreSQL derives for unnamed select items (its {@code FigureColname}), against
 * embedded PostgreSQL: {@code array} for an ARRAY constructor (also subscripted, and cast), the
 * element type for an array constant ({@code '{1,2}'::int[]} is {@code int4}), {@code row},
 * {@code case}, {@code coalesce}, {@code greatest}, {@code nullif}, a cast's type name, a function's
 * name and {@code ?column?} for operators and constants. Each statement's rows (labels and JDBC
 * types) or SQLSTATE must match.
 */
class ExpressionLabelsDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE el (a INT PRIMARY KEY, s TEXT)",
            "INSERT INTO el VALUES (1, 'x')",
            "SELECT ARRAY[1, 2]",
            "SELECT ARRAY['a', 'b'], ARRAY[a, a + 1] FROM el",
            "SELECT (ARRAY[1, 2])[1], (ARRAY[1, 2])[1]::text, cardinality(ARRAY[1, 2])::text",
            "SELECT ROW(1, 'a'), (1, 'a')",
            "SELECT coalesce(1, 2), greatest(1, 2), least(1, 2), nullif(1, 2)",
            "SELECT CASE WHEN true THEN 1 END, 1::int, '1'::text, 1 + 1, abs(-1), -1, NOT true",
            "SELECT 1 IS NULL, 1 IN (1), 1 BETWEEN 0 AND 2, 'a' LIKE 'a'",
            "SELECT position('a' in 'abc'), substring('abc' from 1 for 1)",
            "SELECT EXISTS (SELECT 1), (SELECT 1), true, 'x', 1.5",
            "SELECT coalesce(a, 2)::text, upper(s)::varchar FROM el",
            // an array constant is a cast, labelled by its element type; a constructor is array
            "SELECT '{1,2}'::int[], '{a,b}'::text[], CAST('{1,2}' AS bigint[]), '{}'::int[], '{NULL,1}'::integer[]",
            "SELECT '{1.5}'::numeric[], ARRAY['1', '2']::int[], ARRAY[1]::text[]",
            "SELECT x FROM (SELECT '{1,2}'::int[]) AS s(x)",
            "SELECT * FROM (SELECT '{1,2}'::int[], '{t}'::boolean[]) AS s");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("exprlabels-diff-");
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
