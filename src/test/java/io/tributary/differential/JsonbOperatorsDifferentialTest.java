package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * jsonb's key-existence operators {@code ?}, {@code ?|}, {@code ?&} and path deletion {@code #-}
 * over the simple query protocol against embedded PostgreSQL: constants, a table's jsonb column in
 * WHERE, NULLs and PostgreSQL's errors.
 */
class JsonbOperatorsDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE docs (id INT PRIMARY KEY, b jsonb)",
            "INSERT INTO docs VALUES (1, '{\"a\": 1, \"b\": {\"c\": [1, 2, 3]}}'), (2, '[\"a\", \"x\", 3]'),"
                    + " (3, '\"a\"'), (4, NULL), (5, '{\"x\": null}')");

    private static final List<String> QUERIES = List.of(
            "SELECT '{\"a\":1}'::jsonb ? 'a' AS a, '{\"a\":1}'::jsonb ? 'b' AS b, '[\"a\"]'::jsonb ? 'a' AS c,"
                    + " '[1]'::jsonb ? '1' AS d, '\"a\"'::jsonb ? 'a' AS e",
            "SELECT '{\"a\":{\"b\":1}}'::jsonb ? 'b'",
            "SELECT id FROM docs WHERE b ? 'a' ORDER BY id",
            "SELECT id, b ? 'x' AS x FROM docs ORDER BY id",
            "SELECT id FROM docs WHERE b ?| ARRAY['x', 'zz'] ORDER BY id",
            "SELECT id FROM docs WHERE b ?& ARRAY['a', 'x'] ORDER BY id",
            "SELECT '{\"a\":1,\"b\":2}'::jsonb ?| '{b,c}' AS some_, '{\"a\":1,\"b\":2}'::jsonb ?& '{a,b}' AS all_,"
                    + " '{\"a\":1}'::jsonb ?& '{}' AS none",
            "SELECT NULL::jsonb ? 'a' AS n, '{\"a\":1}'::jsonb ? NULL AS m",
            "SELECT '{\"a\":1,\"b\":{\"c\":[1,2,3]}}'::jsonb #- '{b,c,1}' AS j",
            "SELECT '{\"a\":1,\"b\":{\"c\":[1,2,3]}}'::jsonb #- '{b,c,-1}' AS j",
            "SELECT '{\"a\":1,\"b\":2}'::jsonb #- '{a}' AS j, '{\"a\":1}'::jsonb #- '{z,y}' AS k, '[1,2]'::jsonb #- '{}' AS l",
            "SELECT '[1,[2,3]]'::jsonb #- '{1,0}' AS j, '[1,2]'::jsonb #- '{5}' AS k",
            "SELECT id, b #- '{b,c}' AS j FROM docs WHERE id IN (1, 5) ORDER BY id",
            "SELECT '1'::jsonb #- '{a}'",
            "SELECT '[1,2]'::jsonb #- '{x}'",
            "SELECT ('{\"a\":1}'::jsonb #- '{a}') ? 'a' AS gone",
            // || and - of jsonb, jsonb_set
            "SELECT '{\"a\":1}'::jsonb || '{\"b\":2}'::jsonb AS a, '[1,2]'::jsonb || '[3]'::jsonb AS b,"
                    + " '{\"a\":1}'::jsonb || '{\"a\":5,\"c\":[1]}' AS c, '[1]'::jsonb || '2'::jsonb AS d,"
                    + " '1'::jsonb || '[2]'::jsonb AS e, '\"x\"'::jsonb || '{\"a\":1}'::jsonb AS f",
            "SELECT id, b || '{\"z\":0}' AS z, '[0]' || b AS p FROM docs ORDER BY id",
            "SELECT '{\"a\":1,\"b\":2}'::jsonb - 'a' AS a, '[\"a\",\"b\",\"a\"]'::jsonb - 'a' AS b,"
                    + " '[1,2,3]'::jsonb - 1 AS c, '[1,2,3]'::jsonb - -1 AS d, '[1,2,3]'::jsonb - 5 AS e,"
                    + " '{\"a\":1,\"b\":2,\"c\":3}'::jsonb - ARRAY['a','c'] AS f",
            "SELECT id, b - 'a' AS k, b - 0 AS i FROM docs WHERE id IN (2, 4) ORDER BY id",
            "SELECT id, b - 'a' AS k FROM docs ORDER BY id",
            "SELECT '{\"a\":1}'::jsonb - 0",
            "SELECT jsonb_set('{\"a\":1}', '{b}', '2') AS a, jsonb_set('{\"a\":{\"b\":1}}', '{a,b}', '\"x\"') AS b,"
                    + " jsonb_set('[1,2,3]', '{-1}', '9') AS c, jsonb_set('[1,2]', '{5}', '9') AS d,"
                    + " jsonb_set('[1,2]', '{-5}', '9') AS e, jsonb_set('{\"a\":1}', '{b}', '2', false) AS f,"
                    + " jsonb_set('{\"a\":1}', '{x,y}', '2') AS g, jsonb_set('{\"a\":1}', '{a}', NULL) AS h",
            "SELECT id, jsonb_set(b, '{b,c,0}', '\"y\"') AS s FROM docs WHERE id <> 3 ORDER BY id",
            "SELECT jsonb_set('1', '{a}', '2')",
            "SELECT jsonb_set('[1]', '{x}', '2')");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("jsonb-ops-diff-");
        assertEquals(List.of(), pair.mismatches(SETUP));
    }

    @AfterAll
    static void stop() {
        pair.close();
    }

    @Test
    void answersLikePostgres() {
        List<String> mismatches = pair.mismatches(QUERIES);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
