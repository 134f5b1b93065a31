package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Arrays on Tributary and on an embedded PostgreSQL over the same rows: {@code array_agg} over
 * every type family (ORDER BY, DISTINCT, FILTER, no rows, NULL arguments kept as NULL elements),
 * {@code = ANY} and {@code
 * <> ALL} with NULLs on either side (three-valued), array text constants after ANY, the array
 * functions and {@code ||}, {@code array_to_string} of each element family, and materialized views that filter with {@code ANY} kept through
 * writes. Statements answering an array are compared by label and text (arrays reach clients as
 * text, README's deviation); the others also by JDBC type.
 */
class ArrayDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE t (id INT PRIMARY KEY, s2 SMALLINT, i INT, b BIGINT, n NUMERIC, f FLOAT8, tx TEXT,"
                    + " d DATE, ts TIMESTAMP, bo BOOLEAN, by BYTEA)",
            "INSERT INTO t VALUES (1, 1, 10, 100, 1.5, 1.25, 'a', '2024-01-01', '2024-01-01 10:00:00', true, '\\x01'),"
                    + " (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
                    + " (3, 3, 30, 300, -2.25, 3.5, 'x y', '2024-02-01', '2024-02-01 00:00:01.5', false, '\\xdead'),"
                    + " (4, 4, 40, 400, 4, 4, 'q\"u\\o,te', '2024-03-01', '2024-03-01 00:00:00', true, '\\x'),"
                    + " (5, -5, -50, -500, 0.001, -0.5, '', '1999-12-31', '1999-12-31 23:59:59', NULL, '\\x00ff')");

    /** Statements answering arrays: compared by label and text. */
    private static final List<String> ARRAY_RESULTS = List.of(
            "SELECT array_agg(i ORDER BY id) FROM t WHERE i IS NOT NULL",
            "SELECT array_agg(s2 ORDER BY id) AS a, array_agg(b ORDER BY id) AS b FROM t WHERE b IS NOT NULL",
            "SELECT array_agg(n ORDER BY id) FROM t WHERE n IS NOT NULL",
            "SELECT array_agg(f ORDER BY id) FROM t WHERE f IS NOT NULL",
            "SELECT array_agg(tx ORDER BY id) FROM t WHERE tx IS NOT NULL",
            "SELECT array_agg(d ORDER BY id) FROM t WHERE d IS NOT NULL",
            "SELECT array_agg(ts ORDER BY id) FROM t WHERE ts IS NOT NULL",
            "SELECT array_agg(bo ORDER BY id) FROM t WHERE bo IS NOT NULL",
            "SELECT array_agg(by ORDER BY id) FROM t WHERE by IS NOT NULL",
            "SELECT array_agg(DISTINCT bo ORDER BY bo) FROM t WHERE bo IS NOT NULL",
            "SELECT array_agg(i ORDER BY id DESC) FILTER (WHERE i > 10) AS a FROM t",
            "SELECT array_agg(i) FROM t WHERE id > 100",
            "SELECT array_agg(x) FROM (VALUES (1), (NULL), (3)) v(x)",
            "SELECT array_agg(x ORDER BY x) AS a, array_agg(x ORDER BY x DESC) AS b FROM (VALUES (1), (NULL), (3)) v(x)",
            "SELECT array_agg(DISTINCT x ORDER BY x) FROM (VALUES (1), (NULL), (3), (1), (NULL)) v(x)",
            "SELECT array_agg(x ORDER BY x NULLS FIRST) FROM (VALUES ('a'), (NULL), ('c')) v(x)",
            "SELECT array_agg(tx ORDER BY id) AS a, array_agg(d ORDER BY id) AS b, array_agg(bo ORDER BY id) AS c FROM t",
            "SELECT array_agg(i ORDER BY id) FILTER (WHERE id < 4) AS a, array_agg(NULL::int) AS b FROM t",
            "SELECT bo, array_agg(i ORDER BY id) AS i FROM t GROUP BY bo ORDER BY bo",
            "SELECT array_agg(i ORDER BY id) || 99 AS a FROM t",
            "SELECT id, array_agg(i) OVER (ORDER BY id) AS a FROM t ORDER BY id",
            "SELECT id, array_agg(tx) OVER (PARTITION BY id % 2 ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a"
                    + " FROM t ORDER BY id",
            "SELECT bo, array_agg(id ORDER BY id) AS ids FROM t GROUP BY bo ORDER BY bo",
            "SELECT array_agg(i ORDER BY id) || 99 AS a FROM t WHERE i IS NOT NULL",
            "SELECT array_append(ARRAY[1, 2], 3), array_prepend(0, ARRAY[1, 2]), array_cat(ARRAY[1], ARRAY[2, 3])",
            "SELECT array_append(ARRAY[1, 2], NULL), array_cat(ARRAY[1], NULL), array_remove(ARRAY[1, NULL, 1], NULL)",
            "SELECT ARRAY[1, 2] || 3, 3 || ARRAY[1, 2], ARRAY[1] || ARRAY[2], ARRAY[1] || 2 || 3",
            "SELECT array_remove(ARRAY[1, 2, 1], 1), array_remove(ARRAY['a', 'b'], 'a')",
            "SELECT id, CASE WHEN bo THEN ARRAY[1.5, 2.5] ELSE ARRAY[n] END AS a, COALESCE(ARRAY[n], ARRAY[i]) AS b"
                    + " FROM t ORDER BY id",
            "SELECT ARRAY[1, NULL, 3] AS a, ARRAY['a', 'b c', 'q\"x', NULL, 'NULL', '', 'x\\y'] AS b",
            "SELECT id, ARRAY[i, NULL] AS a, array_append(ARRAY[tx], tx) AS b FROM t ORDER BY id",
            "SELECT id, ARRAY[ts] AS a, ARRAY[d] AS b, ARRAY[by] AS c, ARRAY[bo] AS e FROM t ORDER BY id");

    /** Statements answering scalars: compared by label, JDBC type and text, or SQLSTATE. */
    private static final List<String> SCALARS = List.of(
            "SELECT id FROM t WHERE i = ANY (ARRAY[10, NULL, 30]) ORDER BY id",
            "SELECT id FROM t WHERE i = ANY (ARRAY[10, 30]) ORDER BY id",
            "SELECT id, i = ANY (ARRAY[10, NULL, 30]) AS a, i <> ALL (ARRAY[10, NULL]) AS b,"
                    + " i <> ALL (ARRAY[10, 30]) AS c, i > ANY (ARRAY[20, 35]) AS e, i <= ALL (ARRAY[30, NULL]) AS g"
                    + " FROM t ORDER BY id",
            "SELECT id FROM t WHERE NOT (s2 = ANY (ARRAY[1, 3])) ORDER BY id",
            "SELECT id FROM t WHERE b = ANY (ARRAY[100, 400]) OR f = ANY (ARRAY[3.5]) ORDER BY id",
            "SELECT id FROM t WHERE d = ANY ('{2024-01-01,2024-02-01}') ORDER BY id",
            "SELECT id FROM t WHERE ts = ANY ('{\"2024-01-01 10:00:00\", NULL}') ORDER BY id",
            "SELECT id FROM t WHERE tx = ANY ('{a,\"x y\",\"q\\\\\"u\\\\\\\\o,te\"}') ORDER BY id",
            "SELECT id FROM t WHERE i = ANY ('{10, 40}') ORDER BY id",
            "SELECT id, i <> ALL ('{10,NULL}') AS a FROM t ORDER BY id",
            "SELECT id FROM t WHERE i = ANY ('{}') ORDER BY id",
            "SELECT count(*) FROM t WHERE i <> ALL ('{}')",
            "SELECT id FROM t WHERE i = ANY ('{10')",
            "SELECT id FROM t WHERE i = ANY ('{10,,30}')",
            "SELECT 'a b' = ANY ('{\"a b\",c}') AS a, 'NULL' = ANY ('{\"NULL\"}') AS b, 'c' = ANY ('{a, NULL}') AS e",
            "SELECT array_length(ARRAY[1, 2, 3], 1), cardinality(ARRAY[1, 2]), array_position(ARRAY[1, 2, 3], 2),"
                    + " array_position(ARRAY[1, NULL], NULL), array_position(ARRAY[1], 5)",
            "SELECT id, array_position(ARRAY[10, 30, 40], i) AS p, cardinality(ARRAY[i, b]) AS c FROM t ORDER BY id",
            "SELECT array_position(ARRAY['a', 'b'], 'b'), array_position(ARRAY[1.50, 2], 1.5)",
            "SELECT array_append(1, 2)");

    /** array_to_string over every element family it prints (Calcite's own failed at run time on non-text ones). */
    private static final List<String> JOINED = List.of(
            "SELECT array_to_string(ARRAY[1, NULL, 3], ',') AS a, array_to_string(ARRAY[1, NULL, 3], ',', '*') AS b",
            "SELECT array_to_string(array_agg(i ORDER BY id), ',') AS a,"
                    + " array_to_string(array_agg(i ORDER BY id), ',', 'null') AS b FROM t",
            "SELECT array_to_string(array_agg(n ORDER BY id), ' ', '-') AS a, array_to_string(array_agg(f ORDER BY id), ';')"
                    + " AS b FROM t",
            "SELECT array_to_string(array_agg(bo ORDER BY id), '', 'n') AS a, array_to_string(array_agg(by ORDER BY id), ' ')"
                    + " AS b FROM t",
            "SELECT array_to_string(array_agg(s2 ORDER BY id), '|') AS a, array_to_string(array_agg(b ORDER BY id), '|')"
                    + " AS b, array_to_string(array_agg(tx ORDER BY id), '|', '?') AS c FROM t",
            "SELECT bo, array_to_string(array_agg(id ORDER BY id), ',') AS ids FROM t GROUP BY bo ORDER BY bo",
            "SELECT array_to_string(ARRAY['a', 'b'], NULL) AS a, array_to_string(ARRAY[0.1::float8, 1e20::float8], ',') AS b",
            "SELECT id, array_to_string(ARRAY[i, b], '+', '?') AS s FROM t ORDER BY id");

    private static final List<String> VIEW_WRITES = List.of(
            "INSERT INTO t (id, i, tx, d) VALUES (6, 30, 'q', '2024-02-01'), (7, NULL, NULL, NULL), (8, 70, 'a', NULL)",
            "UPDATE t SET i = 10, d = '2024-01-01' WHERE id = 8",
            "UPDATE t SET i = NULL WHERE id = 1",
            "DELETE FROM t WHERE id IN (3, 6)",
            "INSERT INTO t (id, i, tx) VALUES (3, 40, 'x y')");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("array-diff-");
        for (String sql : SETUP) {
            pair.both(sql);
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void arrayResultsAnswerAsPostgres() {
        List<String> mismatches = StatementOutcome.mismatches(
                pair.pg, pair.tributary.connection, ARRAY_RESULTS, StatementOutcome::withoutTypes);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void comparisonsWithArraysAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(SCALARS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void arrayToStringAnswersAsPostgres() {
        List<String> mismatches = pair.mismatches(JOINED);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** Views filtering with ANY and ALL over arrays with NULLs follow writes as PostgreSQL's queries answer. */
    @Test
    void viewsWithAnyAreMaintained() {
        List<PostgresPair.FollowedView> views = List.of(
                new PostgresPair.FollowedView("any_i", "SELECT id, i FROM t WHERE i = ANY (ARRAY[10, NULL, 30])", "id"),
                new PostgresPair.FollowedView(
                        "all_i",
                        "SELECT id, i <> ALL (ARRAY[10, NULL]) AS a, array_position(ARRAY[10, 30, 40], i) AS p FROM t",
                        "id"),
                new PostgresPair.FollowedView(
                        "any_d", "SELECT id, tx FROM t WHERE d = ANY ('{2024-01-01,2024-02-01}')", "id"),
                new PostgresPair.FollowedView(
                        "by_any",
                        "SELECT i = ANY ('{10,30}') AS hit, count(*) AS n FROM t GROUP BY i = ANY ('{10,30}')",
                        "hit"));
        List<String> mismatches = pair.viewMismatches(views, VIEW_WRITES);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
