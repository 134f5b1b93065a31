package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Array values with NULL elements in key order, against an embedded PostgreSQL: PostgreSQL's
 * array_cmp holds a NULL element greater than any non-null one, so {@code ARRAY[1,NULL]} sorts
 * after {@code ARRAY[1,2]} (and after {@code ARRAY[1]}, its prefix). The order shows in
 * materialized views, whose min/max, window ORDER BY and top-N keep values in key-encoding order,
 * and in array primary keys and indexes read with ORDER BY and range predicates.
 */
class ArrayKeyOrderDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE ak (k INT[] PRIMARY KEY, v INT)",
            "CREATE TABLE at (id INT PRIMARY KEY, t TEXT[] UNIQUE)",
            "CREATE TABLE ai (id INT PRIMARY KEY, k INT[])",
            "CREATE INDEX ai_k ON ai (k)");

    private static final List<String> WRITES = List.of(
            "INSERT INTO ak VALUES ('{1,2}', 1), ('{1}', 2)",
            "INSERT INTO ak VALUES (ARRAY[1, NULL], 3)",
            "INSERT INTO ak VALUES ('{}', 4), ('{2}', 5), ('{NULL}', 6), (ARRAY[1, NULL, 3], 7)",
            "INSERT INTO ak VALUES ('{1,NULL,NULL}', 8), ('{1,3}', 9), ('{NULL,1}', 10), ('{2,NULL}', 11)",
            "DELETE FROM ak WHERE v IN (6, 10)",
            "DELETE FROM ak WHERE v = 1",
            "INSERT INTO at VALUES (1, ARRAY['a', NULL]), (2, '{a,b}'), (3, '{a}')",
            "INSERT INTO at VALUES (4, '{NULL,a}'), (5, '{b}'), (6, '{NULL}')",
            "DELETE FROM at WHERE id IN (4, 6)",
            "INSERT INTO ai SELECT v, k FROM ak");

    private static final List<PostgresPair.FollowedView> VIEWS = List.of(
            new PostgresPair.FollowedView("ak_ext", "SELECT min(k) AS lo, max(k) AS hi, count(*) AS c FROM ak", "c"),
            new PostgresPair.FollowedView(
                    "ak_grouped", "SELECT v % 2 AS g, min(k) AS lo, max(k) AS hi FROM ak GROUP BY v % 2", "g"),
            new PostgresPair.FollowedView("at_ext", "SELECT min(t) AS lo, max(t) AS hi, count(*) AS c FROM at", "c"),
            new PostgresPair.FollowedView("ak_ranked", "SELECT v, row_number() OVER (ORDER BY k) AS r FROM ak", "v"),
            new PostgresPair.FollowedView(
                    "ak_top", "SELECT * FROM (SELECT k, v FROM ak ORDER BY k DESC LIMIT 3) s", "v"));

    private static final List<String> READS = List.of(
            "SELECT * FROM ak ORDER BY k",
            "SELECT * FROM ak ORDER BY k DESC",
            "SELECT k FROM ak ORDER BY k LIMIT 3",
            "SELECT k FROM ak ORDER BY k DESC LIMIT 3",
            "SELECT v FROM ak WHERE k > ARRAY[1, 2] ORDER BY v",
            "SELECT v FROM ak WHERE k < ARRAY[1, 3] ORDER BY v",
            "SELECT v FROM ak WHERE k >= ARRAY[1, 5] AND k < ARRAY[2] ORDER BY v",
            "SELECT min(k) AS lo, max(k) AS hi FROM ak",
            "SELECT k, count(*) AS c FROM ak GROUP BY k ORDER BY k",
            "SELECT ARRAY[1, NULL] < ARRAY[1, 2] AS a, ARRAY[1, NULL] > ARRAY[1] AS b",
            "SELECT ARRAY['a', NULL] > ARRAY['a', 'z'] AS a, ARRAY[1, NULL] = ARRAY[1, NULL] AS b",
            "SELECT t FROM at ORDER BY t",
            "SELECT t FROM at ORDER BY t DESC LIMIT 2",
            "SELECT id FROM at WHERE t > ARRAY['a', 'b'] ORDER BY id",
            "SELECT min(t) AS lo, max(t) AS hi FROM at",
            "SELECT k FROM ai ORDER BY k",
            "SELECT id FROM ai WHERE k > ARRAY[1, 2] ORDER BY id");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("array-key-order-");
        for (String sql : SETUP) {
            String[] outcome = pair.both(sql);
            assertEquals(outcome[0], outcome[1], sql);
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void arraysWithNullElementsOrderAsPostgres() {
        List<String> mismatches = pair.viewMismatches(VIEWS, WRITES);
        mismatches.addAll(pair.mismatches(READS));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
