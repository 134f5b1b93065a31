package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's json aggregates ({@code json_agg}, {@code jsonb_agg}, {@code json_object_agg},
 * {@code jsonb_object_agg}) run in order on Tributary and on an embedded PostgreSQL: NULL elements
 * and keys, empty inputs, ORDER BY inside the call, grouping, json and jsonb elements. Where
 * PostgreSQL's element order is unspecified the statements order inside the call.
 */
class JsonAggregateDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE t (id INT PRIMARY KEY, g TEXT, k TEXT, n INT, x NUMERIC, doc jsonb, raw json)",
            "INSERT INTO t VALUES (1, 'a', 'k1', 10, 1.50, '{\"b\":1,\"a\":2}', '{\"b\" :  1}'),"
                    + " (2, 'a', 'k2', NULL, NULL, NULL, NULL), (3, 'b', 'k1', 30, 3, '[1,2]', '[1, 2]'),"
                    + " (4, 'b', 'k3', 40, -4.25, 'null', 'null'), (5, 'a', 'k1', 50, 5, '\"s\"', '\"s\"')",
            "SELECT json_agg(n ORDER BY id) FROM t",
            "SELECT jsonb_agg(n ORDER BY id) AS j FROM t",
            "SELECT json_agg(k ORDER BY id DESC) AS a, jsonb_agg(x ORDER BY id) AS b FROM t",
            "SELECT jsonb_agg(doc ORDER BY id) AS a, json_agg(raw ORDER BY id) AS b, json_agg(doc ORDER BY id) AS c FROM t",
            "SELECT g, jsonb_agg(n ORDER BY n DESC) AS j, json_agg(id ORDER BY id) AS i FROM t GROUP BY g ORDER BY g",
            "SELECT json_agg(n) AS a, jsonb_agg(n) AS b, json_object_agg(k, n) AS c, jsonb_object_agg(k, n) AS d"
                    + " FROM t WHERE id > 100",
            "SELECT g, count(*) AS c, jsonb_agg(id ORDER BY id) AS j FROM t WHERE id > 100 GROUP BY g",
            "SELECT jsonb_object_agg(k, n ORDER BY id) AS j FROM t",
            "SELECT json_object_agg(k, n ORDER BY id) AS j FROM t",
            "SELECT json_object_agg(id, doc ORDER BY id) AS a, jsonb_object_agg(id, raw ORDER BY id) AS b FROM t",
            "SELECT jsonb_object_agg(k, n) AS j FROM t WHERE id = 1",
            "SELECT g, jsonb_object_agg(k, x ORDER BY id) AS j FROM t GROUP BY g ORDER BY g",
            "SELECT jsonb_object_agg(n, k) AS j FROM t",
            "SELECT json_object_agg(k, n ORDER BY id) FILTER (WHERE n > 20) AS j FROM t",
            "SELECT jsonb_agg(jsonb_build_object('id', id, 'k', k) ORDER BY id) AS j FROM t WHERE g = 'a'",
            "SELECT jsonb_agg(n > 20 ORDER BY id) AS b, json_agg(NULL::int) AS c FROM t",
            "SELECT jsonb_agg(DISTINCT g) AS a FROM t WHERE id < 3",
            "SELECT json_agg(x ORDER BY x DESC) AS j FROM t");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("json-agg-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void jsonAggregatesAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
