package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's set-returning json functions ({@code json(b)_each(_text)}, {@code
 * json(b)_array_elements(_text)}, {@code json(b)_object_keys}) against embedded PostgreSQL: in
 * FROM over constants and laterally over a table's json and jsonb columns, in a select list, with
 * PostgreSQL's column names, types, row order and 22023 errors.
 */
class JsonSetFunctionsDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE docs (id INT PRIMARY KEY, j json, b jsonb)",
            "INSERT INTO docs VALUES (1, '{\"b\": [1,  2], \"a\":\"x\", \"b\": null}', '{\"zz\": 1, \"a\": {\"k\": true}}'),"
                    + " (2, '[1, \"two\", {\"c\":3}]', '[\"p\", null, 2.50]'), (3, NULL, NULL),"
                    + " (4, '{}', '{}')");

    private static final List<String> QUERIES = List.of(
            "SELECT * FROM json_each('{\"a\": [1,  2], \"b\":null, \"c\" : \"s\"}')",
            "SELECT * FROM json_each_text('{\"a\": [1,  2], \"b\":null, \"c\" : \"s\\n\"}')",
            "SELECT * FROM jsonb_each('{\"bb\": [1,  2], \"a\":null, \"c\" : \"s\"}')",
            "SELECT key, value FROM jsonb_each_text('{\"bb\": [1,  2], \"a\":null, \"c\" : \"s\", \"d\": 1.0}')",
            "SELECT * FROM json_array_elements('[1, {\"b\":2,  \"a\":1} , \"x\", null]')",
            "SELECT * FROM json_array_elements_text('[1, {\"b\":2,  \"a\":1} , \"x\", null]')",
            "SELECT * FROM jsonb_array_elements('[1, {\"b\":2,  \"a\":1} , \"x\", null]')",
            "SELECT value FROM jsonb_array_elements_text('[1, {\"b\":2,  \"a\":1} , \"x\", null]') AS e",
            "SELECT * FROM json_object_keys('{\"b\":1,\"a\":2,\"b\":3}')",
            "SELECT * FROM jsonb_object_keys('{\"bb\":1,\"a\":2,\"b\":3}')",
            "SELECT * FROM jsonb_each(NULL)",
            "SELECT * FROM json_each('{}')",
            "SELECT e.key, e.value ->> 0 AS first FROM jsonb_each('{\"x\": [5, 6]}') AS e",
            "SELECT k FROM jsonb_object_keys('{\"b\":1,\"a\":2}') AS t(k) ORDER BY k DESC",
            "SELECT count(*) FROM jsonb_array_elements('[1, 2, 3]')",
            "SELECT sum(value::int) FROM jsonb_array_elements_text('[1, 2, 3]')",
            // over a table's columns
            "SELECT d.id, e.key, e.value FROM docs d, json_each(d.j) e WHERE d.id = 1",
            "SELECT d.id, e.key, e.value FROM docs d, jsonb_each(d.b) e WHERE d.id IN (1, 4) ORDER BY 1, 2",
            "SELECT d.id, e.* FROM docs d CROSS JOIN LATERAL jsonb_each_text(d.b) e WHERE d.id <> 2 ORDER BY 1, 2",
            "SELECT d.id, x.value FROM docs d, LATERAL json_array_elements(d.j) x WHERE d.id = 2",
            "SELECT d.id, x.value FROM docs d, jsonb_array_elements_text(d.b) AS x WHERE d.id = 2 ORDER BY 2",
            "SELECT x FROM jsonb_array_elements_text('[3, 4]') AS x",
            "SELECT d.id, e.key, e.value FROM docs d, jsonb_each(d.b -> 'a') e ORDER BY 1, 2",
            "SELECT d.id, x.value::text AS v FROM docs d CROSS JOIN LATERAL json_array_elements(d.j -> 'b') x ORDER BY 1, 2",
            "SELECT d.id, x.value FROM docs d, jsonb_array_elements_text(d.b #> '{a}') x",
            "SELECT g FROM generate_series(1 + 1, 2 * 3) g",
            "SELECT d.id, k FROM docs d, jsonb_object_keys(d.b) k WHERE d.id = 1 ORDER BY 2",
            "SELECT d.id, count(k) FROM docs d LEFT JOIN LATERAL json_object_keys(d.j) k ON true"
                    + " WHERE d.id <> 2 GROUP BY d.id ORDER BY 1",
            // in a select list
            "SELECT jsonb_array_elements('[1, [2], {\"a\": 3}]')",
            "SELECT json_array_elements_text('[1,null,\"a\"]')",
            "SELECT jsonb_object_keys('{\"b\":1,\"a\":2}') AS k ORDER BY k",
            "SELECT id, json_object_keys(j) FROM docs WHERE id = 1",
            "SELECT id, jsonb_array_elements_text(b) AS v FROM docs WHERE id = 2",
            // errors
            "SELECT * FROM json_each('[1]')",
            "SELECT * FROM json_each('1')",
            "SELECT * FROM json_each_text('\"x\"')",
            "SELECT * FROM jsonb_each('1')",
            "SELECT * FROM jsonb_each_text('[]')",
            "SELECT * FROM json_array_elements('{}')",
            "SELECT * FROM json_array_elements_text('1')",
            "SELECT * FROM jsonb_array_elements('{}')",
            "SELECT * FROM jsonb_array_elements_text('1')",
            "SELECT * FROM json_object_keys('[1]')",
            "SELECT * FROM jsonb_object_keys('1')",
            "SELECT * FROM jsonb_each('{bad')",
            "SELECT d.id, e.key FROM docs d, jsonb_each(d.b) e",
            "SELECT d.id, e.value FROM docs d, json_array_elements(d.j) e",
            "SELECT * FROM jsonb_object_keys('{\"b\":1,\"a\":2}') k");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("json-srf-diff-");
        assertEquals(List.of(), pair.mismatches(SETUP));
    }

    @AfterAll
    static void stop() {
        pair.close();
    }

    @Test
    void answersLikePostgres() {
        assertEquals(List.of(), pair.mismatches(QUERIES));
    }
}
