package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's json and jsonb, run in order on Tributary and on an embedded PostgreSQL: input
 * forms and their errors, jsonb's normalised output (key order, duplicate keys, numbers, escapes),
 * json kept verbatim, casts, the operators and functions, NULL handling, a table with a jsonb
 * column written and read, json's missing ordering and equality operators, and a materialized view grouping by a field followed through changes.
 */
class JsonDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            // input and output
            "SELECT '{\"a\":1}'::jsonb ->> 'a' AS v",
            // unaliased operators are labelled ?column?, as PostgreSQL labels operators
            "SELECT '{\"a\":{\"b\":[1,{\"c\":3}]}}'::jsonb #>> '{a,b,1,c}', '[1,2,3]'::jsonb -> -1,"
                    + " '{\"a\":1}'::jsonb @> '{\"a\":1}', '{\"a\":1}'::json ->> 'a'",
            "SELECT '{\"b\":1,\"a\":[1,2],\"aa\":{\"x\":1.0,\"y\":1e3}}'::jsonb AS j",
            "SELECT '{\"b\":1,  \"a\" : [1,2]}'::json AS j",
            "SELECT '{\"a\":1,\"a\":2}'::jsonb AS j",
            "SELECT '{\"a\":1,\"a\":2}'::json AS j",
            "SELECT '{\"bb\":1,\"a\":2,\"c\":3,\"B\":4,\"ab\":5}'::jsonb AS j",
            "SELECT '[1, 1.0, 1e3, -0, -0.0, 1.50e1, 1E-2, 12345678901234567890, 0.1e-5]'::jsonb AS j",
            "SELECT '\"a\\u00e9\\n\\t\\\"q\\\\\"'::jsonb AS j",
            "SELECT '\"\\ud83d\\ude00\"'::jsonb AS j",
            "SELECT '\"h\u00e9llo\"'::jsonb AS j",
            "SELECT 'null'::jsonb AS a, 'true'::jsonb AS b, 'false'::json AS c, '3'::jsonb AS d, '\"s\"'::json AS e",
            "SELECT '  {\"a\" :  [ ] , \"b\":{}}  '::jsonb AS j",
            "SELECT '[[[1]], {\"x\": [null, {\"y\": true}]}]'::jsonb AS j",
            "SELECT CAST('{\"a\": 2}' AS jsonb) AS j, CAST('[1 ,2]' AS json) AS k",
            "SELECT '{bad'::jsonb AS j",
            "SELECT '{\"a\":1,}'::jsonb AS j",
            "SELECT '[1,2'::json AS j",
            "SELECT ''::jsonb AS j",
            "SELECT '01'::jsonb AS j",
            "SELECT 'NaN'::jsonb AS j",
            "SELECT '{\"a\":1} x'::json AS j",
            "SELECT '''a'''::jsonb AS j",
            "SELECT '1.'::jsonb AS j",
            "SELECT '.5'::jsonb AS j",
            "SELECT '\"\\x\"'::jsonb AS j",
            "SELECT NULL::jsonb AS j",
            // casts
            "SELECT '{\"b\":1,\"a\":2}'::jsonb::text AS t",
            "SELECT '{\"b\":1,  \"a\":2}'::json::text AS t",
            "SELECT '{\"b\":1,  \"a\":2}'::json::jsonb AS t",
            "SELECT '{\"b\":1,\"a\":2}'::jsonb::json AS t",
            "SELECT CAST('[3,2]'::jsonb AS varchar) AS t",
            "SELECT ('{\"n\": 5}'::jsonb ->> 'n')::int + 1 AS n",
            // -> and ->>
            "SELECT '{\"a\":{\"b\":[10,20]}}'::jsonb -> 'a' AS j",
            "SELECT '{\"a\":{\"b\":[10,20]}}'::jsonb -> 'a' -> 'b' -> 1 AS j",
            "SELECT '{\"a\":{\"b\":[10,20]}}'::jsonb -> 'a' -> 'b' ->> 0 AS j",
            "SELECT '[1,2,3]'::jsonb -> -1 AS a, '[1,2,3]'::jsonb -> 3 AS b, '[1,2,3]'::jsonb -> -4 AS c",
            "SELECT '{\"a\":\"x\"}'::jsonb -> 'a' AS a, '{\"a\":\"x\"}'::jsonb ->> 'a' AS b",
            "SELECT '{\"a\":null}'::jsonb -> 'a' AS a, '{\"a\":null}'::jsonb ->> 'a' AS b",
            "SELECT '{\"a\":1}'::jsonb -> 'z' AS a, '{\"a\":1}'::jsonb ->> 'z' AS b",
            "SELECT '{\"a\":1}'::jsonb -> 0 AS a, '[1]'::jsonb -> 'a' AS b, '5'::jsonb -> 'a' AS c",
            "SELECT '{\"a\":[1,{\"b\":2}]}'::jsonb ->> 'a' AS a",
            "SELECT '{\"a\":1.50}'::jsonb ->> 'a' AS a, '{\"a\":true}'::jsonb ->> 'a' AS b",
            "SELECT '{\"a\":1}'::jsonb ->> NULL AS a",
            "SELECT NULL::jsonb -> 'a' AS a",
            "SELECT '{\"a\": {\"b\": 1}}'::jsonb -> 'a' ->> 'b' = '1' AS eq",
            "SELECT 1 + 2 AS n, '{\"a\":5}'::jsonb ->> 'a' AS a",
            // #> and #>>
            "SELECT '{\"a\":{\"b\":[10,20]}}'::jsonb #> '{a,b}' AS j",
            "SELECT '{\"a\":{\"b\":[10,20]}}'::jsonb #>> '{a,b,1}' AS j",
            "SELECT '{\"a\":{\"b\":[10,20]}}'::jsonb #> '{a,x}' AS j",
            "SELECT '{\"a\":{\"b\":[10,20]}}'::jsonb #> '{}' AS j",
            "SELECT '{\"a b\":{\"c\":1}}'::jsonb #>> '{\"a b\",c}' AS j",
            "SELECT '[[1,2],[3,4]]'::jsonb #>> '{1,0}' AS j",
            // containment
            "SELECT '{\"a\":1,\"b\":2}'::jsonb @> '{\"a\":1}' AS c",
            "SELECT '{\"a\":1,\"b\":2}'::jsonb @> '{\"a\":2}' AS c",
            "SELECT '{\"a\":{\"b\":1,\"c\":2}}'::jsonb @> '{\"a\":{\"c\":2}}' AS c",
            "SELECT '[1,2,[3,4]]'::jsonb @> '[2,[4]]' AS c",
            "SELECT '[1,2,3]'::jsonb @> '[3,1,1]' AS c",
            "SELECT '[1,2,3]'::jsonb @> '2' AS c",
            "SELECT '[[1,2]]'::jsonb @> '[1]' AS c",
            "SELECT '{\"a\":1.0}'::jsonb @> '{\"a\":1}' AS c",
            "SELECT '\"a\"'::jsonb @> '\"a\"' AS c",
            "SELECT '{\"a\":1}'::jsonb <@ '{\"a\":1,\"b\":2}' AS c",
            "SELECT '{\"a\":[1,2]}'::jsonb @> '{\"a\":1}' AS c",
            // functions
            "SELECT json_build_object('a', 1, 'b', 'x') AS j",
            "SELECT jsonb_build_object('b', 1, 'a', true, 'c', NULL) AS j",
            "SELECT jsonb_build_object() AS a, json_build_object() AS b",
            "SELECT jsonb_build_object('a', 1.50, 'b', 2.5::float8, 'c', '{\"x\":1}'::jsonb) AS j",
            "SELECT json_build_object('a', '{\"x\" :1}'::json) AS j",
            "SELECT jsonb_build_object(NULL, 1) AS j",
            "SELECT jsonb_build_object('k', 1, 'k', 2) AS j",
            "SELECT jsonb_build_array(1, 'a', NULL, true) AS a, json_build_array(1, 'a', NULL, false) AS b",
            "SELECT jsonb_build_array() AS a, json_build_array() AS b",
            "SELECT jsonb_build_array(jsonb_build_object('a', 1), jsonb_build_array(2)) AS j",
            // variadic: more than four pairs or elements, and an odd argument list
            "SELECT jsonb_build_object('a', 1, 'b', 2, 'c', 3, 'd', 4, 'e', 5, 'f', 6) AS j",
            "SELECT json_build_object('a', 1, 'b', 2, 'c', 3, 'd', 4, 'e', 'x', 1, true) AS j",
            "SELECT jsonb_build_array(1, 2, 3, 4, 5, 'six', NULL, 8.50) AS a,"
                    + " json_build_array(1, 2, 3, 4, 5, 'six', NULL, 8.50) AS b",
            "SELECT json_build_object('a') AS j",
            "SELECT jsonb_build_object('a', 1, 'b') AS j",
            "SELECT jsonb_build_object(1, 'one', 2.5, 'two', true, 'three') AS j",
            "SELECT to_jsonb(1) AS a, to_jsonb('x'::text) AS b, to_jsonb(true) AS c, to_jsonb(2.50) AS d",
            "SELECT to_json('a\"b'::text) AS a, to_json(3) AS b",
            "SELECT to_jsonb(NULL::text) AS a",
            "SELECT jsonb_typeof('{}'::jsonb) AS a, jsonb_typeof('[]') AS b, jsonb_typeof('1') AS c,"
                    + " jsonb_typeof('\"s\"') AS d, jsonb_typeof('true') AS e, jsonb_typeof('null') AS f",
            "SELECT json_typeof('{\"a\": 1}'::json -> 'a') AS a",
            "SELECT jsonb_typeof(NULL::jsonb) AS a",
            "SELECT jsonb_array_length('[1,2,[3]]') AS a, jsonb_array_length('[]') AS b",
            "SELECT jsonb_array_length('{}') AS a",
            "SELECT jsonb_array_length('3') AS a",
            "SELECT jsonb_pretty('{\"b\":[1,{\"c\":null}],\"a\":{},\"d\":[]}') AS p",
            "SELECT jsonb_pretty('5') AS p",
            "SELECT jsonb_strip_nulls('{\"a\":null,\"b\":{\"c\":null,\"d\":[null,{\"e\":null,\"f\":1}]},\"g\":2}')"
                    + " AS a, jsonb_strip_nulls('[null,1]') AS b, jsonb_strip_nulls('null') AS c, jsonb_strip_nulls(NULL) AS d",
            // a table with a jsonb column
            "CREATE TABLE docs (id INT PRIMARY KEY, doc jsonb, raw json)",
            "INSERT INTO docs VALUES (1, '{\"k\":\"x\",\"n\":1,\"tags\":[\"a\",\"b\"]}', '{\"k\":  \"x\"}'),"
                    + " (2, '{\"k\":\"y\",\"n\":2}', '[1,2]'), (3, '{\"k\":\"x\",\"n\":5,\"o\":{\"p\":true}}', 'null'),"
                    + " (4, NULL, NULL), (5, '[1,2,3]', '\"s\"')",
            "INSERT INTO docs VALUES (6, '{bad', NULL)",
            "INSERT INTO docs VALUES (7, NULL, '[1,')",
            "SELECT * FROM docs ORDER BY id",
            "SELECT id, doc -> 'k' AS k, doc ->> 'n' AS n FROM docs ORDER BY id",
            "SELECT id FROM docs WHERE doc ->> 'k' = 'x' ORDER BY id",
            "SELECT id FROM docs WHERE doc @> '{\"k\":\"x\"}' ORDER BY id",
            "SELECT id FROM docs WHERE (doc ->> 'n')::int > 1 ORDER BY id",
            "SELECT id, doc #>> '{o,p}' AS p, doc #> '{tags,1}' AS t FROM docs ORDER BY id",
            "SELECT id, jsonb_typeof(doc) AS t FROM docs ORDER BY id",
            "SELECT doc ->> 'k' AS k, count(*) AS c, sum((doc ->> 'n')::int) AS s FROM docs GROUP BY doc ->> 'k' ORDER BY k",
            "SELECT id, doc::text AS t, raw::text AS r FROM docs ORDER BY id",
            "SELECT id, raw -> 0 AS a FROM docs WHERE id = 2",
            "UPDATE docs SET doc = '{\"k\":\"z\",\"n\":9}' WHERE id = 2",
            "UPDATE docs SET doc = jsonb_build_object('k', 'w', 'n', id) WHERE id = 4",
            "DELETE FROM docs WHERE doc ->> 'k' = 'x' AND (doc ->> 'n')::int = 5",
            "SELECT * FROM docs ORDER BY id",
            "SELECT id, jsonb_build_object('id', id, 'doc', doc) AS j FROM docs ORDER BY id",
            "SELECT id, to_jsonb(id) AS j, jsonb_build_array(id, doc ->> 'k') AS a FROM docs ORDER BY id",
            "SELECT id, json_build_object('id', id, 'k', doc ->> 'k', 'n', doc -> 'n', 'raw', raw, 'doc', doc) AS j"
                    + " FROM docs ORDER BY id",
            "SELECT count(*) AS n FROM docs WHERE doc IS NULL",
            // json has no ordering or equality operator (42883); jsonb has both
            "SELECT id FROM docs ORDER BY raw",
            "SELECT id FROM docs ORDER BY raw DESC, id",
            "SELECT DISTINCT raw FROM docs",
            "SELECT raw, count(*) FROM docs GROUP BY raw",
            "SELECT count(DISTINCT raw) FROM docs",
            "SELECT raw FROM docs UNION SELECT raw FROM docs",
            "SELECT id, row_number() OVER (PARTITION BY raw) FROM docs",
            "SELECT count(*) AS n FROM (SELECT raw FROM docs UNION ALL SELECT raw FROM docs) u",
            "SELECT doc, count(*) AS n FROM docs GROUP BY doc ORDER BY n, doc::text",
            "SELECT count(DISTINCT doc) AS n FROM docs");

    /** Writes to the table the views read, each followed by a check of every view. */
    private static final List<String> VIEW_WRITES = List.of(
            "INSERT INTO ev VALUES (10, '{\"kind\":\"click\",\"user\":{\"id\":7},\"ms\":12}')",
            "INSERT INTO ev VALUES (11, '{\"kind\":\"view\",\"user\":{\"id\":8},\"ms\":3}'),"
                    + " (12, '{\"kind\":\"click\",\"user\":{\"id\":8},\"ms\":1.5}')",
            "UPDATE ev SET doc = '{\"kind\":\"buy\",\"user\":{\"id\":7},\"ms\":40}' WHERE id = 1",
            "DELETE FROM ev WHERE id = 2",
            "INSERT INTO ev VALUES (13, '{\"user\":{\"id\":9}}')",
            "DELETE FROM ev WHERE doc ->> 'kind' = 'click'");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("json-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void jsonAnswersAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * Materialized views extracting fields of a jsonb column, grouping by one and keeping the
     * document itself, are maintained as rows come, change and go.
     */
    @Test
    void viewsOverJsonbAreMaintained() {
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "CREATE TABLE ev (id INT PRIMARY KEY, doc jsonb)",
                        "INSERT INTO ev VALUES (1, '{\"kind\":\"click\",\"user\":{\"id\":7},\"ms\":5}'),"
                                + " (2, '{\"kind\":\"view\",\"user\":{\"id\":7},\"ms\":2}'),"
                                + " (3, '{\"kind\":\"click\",\"user\":{\"id\":8}}')")));
        List<PostgresPair.FollowedView> views = List.of(
                new PostgresPair.FollowedView(
                        "by_kind",
                        "SELECT doc ->> 'kind' AS kind, count(*) AS n, sum((doc ->> 'ms')::numeric) AS ms FROM ev"
                                + " GROUP BY doc ->> 'kind'",
                        "kind"),
                new PostgresPair.FollowedView(
                        "by_user",
                        "SELECT doc #>> '{user,id}' AS uid, count(*) AS n FROM ev GROUP BY doc #>> '{user,id}'",
                        "uid"),
                new PostgresPair.FollowedView(
                        "clicks",
                        "SELECT id, doc, doc -> 'user' AS u, jsonb_build_object('id', id, 'kind', doc -> 'kind', 'a', 1,"
                                + " 'b', 2, 'c', doc ->> 'ms') AS o FROM ev WHERE doc @> '{\"kind\":\"click\"}'",
                        "id"));
        List<String> mismatches = pair.viewMismatches(views, VIEW_WRITES);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
