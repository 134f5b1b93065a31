package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Row and array expressions against embedded PostgreSQL (issue 12): whole-row references in a
 * select list ({@code SELECT t FROM t}, {@code row_to_json(t)}, {@code to_json(t)}, {@code
 * to_jsonb(t)}, {@code json_agg(t)}, also over a sub-query's alias), printed as PostgreSQL prints a
 * row value and its JSON (keys in column order, its number, date and timestamp texts). Each
 * statement's rows, column labels and types (the wire type's JDBC type) or SQLSTATE must match.
 * Casts to array types ({@code ARRAY[1, NULL]::text[]}, {@code CAST(x AS int[])}, {@code
 * '{"a b"}'::text[]}) answer as PostgreSQL's, and an unknown element type is 42704; so do array
 * slices ({@code a[2:3]}, {@code a[:2]}, {@code a[2:]}), {@code unnest} of several arrays in FROM
 * and {@code WITH ORDINALITY} on other set-returning functions.
 */
class WholeRowAndArrayExpressionsDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE wr (a INT PRIMARY KEY, b TEXT, d DATE, ts TIMESTAMP, n NUMERIC(6,2), f FLOAT8, bo BOOLEAN)",
            "INSERT INTO wr VALUES (1, 'x', '2024-01-02', '2024-01-02 10:00:00.5', 1.50, 2.5, true),"
                    + " (2, 'a b', NULL, NULL, NULL, 1e20, NULL), (3, 'q\"u,(\\)', '1999-12-31', '1999-12-31 23:59:59', -2, -0.5, false)");

    private static final List<String> WHOLE_ROWS = List.of(
            "SELECT x FROM (SELECT 1 AS a, 'x' AS b) x",
            "SELECT row_to_json(x) FROM (SELECT 1 AS a, 'x' AS b) x",
            "SELECT to_json(x), to_jsonb(x) FROM (SELECT 1 AS a, 'a \"b\"' AS \"Key\", 2.5::float8 AS f, NULL::int AS z) x",
            "SELECT a, row_to_json(t) FROM wr t ORDER BY a",
            "SELECT a, to_json(t) AS j FROM wr t ORDER BY a",
            "SELECT a, to_jsonb(t) FROM wr t ORDER BY a",
            "SELECT json_agg(t ORDER BY a) FROM wr t",
            "SELECT jsonb_agg(t ORDER BY a) FROM wr t",
            "SELECT json_agg(x) FROM (SELECT a, b FROM wr WHERE a = 1) x",
            "SELECT b, row_to_json(s) FROM (SELECT a, b FROM wr) s ORDER BY a",
            "SELECT t.a, row_to_json(u) FROM wr t JOIN (SELECT a AS k, d FROM wr) u ON t.a = u.k ORDER BY t.a",
            "SELECT row_to_json(x) FROM (SELECT TIME '10:00:01.5' AS tm, TIMESTAMP '2024-03-15 10:00:00' AS ts) x",
            // a column of that name comes first, as in PostgreSQL
            "SELECT row_to_json(x) FROM (SELECT 1 AS x, 2 AS y) x",
            "SELECT t FROM (SELECT 1 AS a, 'x y' AS b) t, wr WHERE wr.a = 1");

    /**
     * A table's whole row: the same text and label, but PostgreSQL sends the table's own row type
     * where Tributary, which has no composite types in pg_type, sends {@code record} (README).
     */
    private static final List<String> TABLE_ROWS = List.of(
            "SELECT t FROM wr t ORDER BY a",
            "SELECT wr, a FROM wr ORDER BY a",
            "SELECT a, wr FROM wr WHERE a > 1 ORDER BY a");

    /** Casts to array types: of ARRAY[...] constructors element by element, of constants, and their errors. */
    private static final List<String> ARRAY_CASTS = List.of(
            "CREATE TABLE ac (a INT PRIMARY KEY, arr INT[])",
            "INSERT INTO ac VALUES (1, '{3,NULL}'), (2, NULL)",
            "SELECT ARRAY[1, NULL]::text[]",
            "SELECT (ARRAY[1, 2])::bigint[]",
            "SELECT CAST(ARRAY[1, 2] AS int[])",
            "SELECT CAST(ARRAY[1, 2] AS int[]) AS x",
            "SELECT ARRAY['1', '2']::int[]",
            "SELECT ARRAY[1.5, 2.5, -0.5]::int[]",
            "SELECT ARRAY[1.5, 2.25]::numeric[]",
            "SELECT ARRAY[true, NULL]::text[]",
            "SELECT ARRAY[1, 2]::double precision[]",
            "SELECT ARRAY[1, 2]::varchar(10)[]",
            "SELECT ARRAY[1, 2]::int[3]",
            "SELECT a, ARRAY[a, NULL]::bigint[] AS x FROM ac ORDER BY a",
            "SELECT a, arr::int[] FROM ac ORDER BY a",
            "SELECT ARRAY['a']::int[]",
            "SELECT ARRAY[2147483648]::int[]",
            "SELECT 1::nosuchtype[]",
            "SELECT CAST(1 AS nosuchtype[])",
            "SELECT CAST('{1,2}' AS int[]) AS x",
            "SELECT '{\"a b\",NULL,\"q\\\"u\",\"\"}'::text[] AS x",
            "SELECT CAST('{\"a b\",c}' AS varchar[]) AS x",
            "SELECT 'abc'::int[]",
            "SELECT '{1,x}'::int[]");

    /** Array slices: PostgreSQL's bounds, cut to the array, empty out of range, NULL for a NULL bound. */
    private static final List<String> SLICES = List.of(
            "CREATE TABLE sl (a INT PRIMARY KEY, arr INT[], tags TEXT[])",
            "INSERT INTO sl VALUES (1, '{3,NULL}', '{x,y,z}'), (2, '{5,6,7}', NULL), (3, NULL, '{}')",
            "SELECT (ARRAY[1, 2, 3, 4])[2:3]",
            "SELECT (ARRAY[1, 2, 3, 4])[:2]",
            "SELECT (ARRAY[1, 2, 3, 4])[2:]",
            "SELECT (ARRAY[1, 2, 3, 4])[5:6]",
            "SELECT (ARRAY[1, 2, 3, 4])[3:2]",
            "SELECT (ARRAY[1, 2, 3, 4])[-5:1], (ARRAY[1, 2, 3, 4])[0:2]",
            "SELECT (ARRAY[1, 2, 3, 4])[NULL:2], (ARRAY[1, 2, 3, 4])[1:NULL]",
            "SELECT (ARRAY[1, 2, 3, 4])[1 + 1:2 * 2], (ARRAY[1, 2, 3, 4])[2::int:3]",
            "SELECT (ARRAY['a', 'b', 'c'])[2:3]",
            "SELECT (NULL::int[])[1:2]",
            "SELECT a, arr[2:], arr[:1], arr[a:a + 1], tags[2:3] FROM sl ORDER BY a",
            "SELECT a, arr[2:3] AS x FROM sl WHERE cardinality(arr[1:2]) = 2 ORDER BY a");

    /** unnest of several arrays in FROM, side by side, and WITH ORDINALITY on other set-returning functions. */
    private static final List<String> FROM_CALLS = List.of(
            "CREATE TABLE fc (a INT PRIMARY KEY, arr INT[], tags TEXT[])",
            "INSERT INTO fc VALUES (1, '{3,NULL}', '{x,y,z}'), (2, '{5,6,7}', NULL)",
            "SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a', 'b', 'c'])",
            "SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a', 'b', 'c']) AS u(n, s) ORDER BY s",
            "SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a', 'b', 'c']) WITH ORDINALITY AS u(n, s, o)",
            "SELECT * FROM unnest(ARRAY[1, 2], NULL::text[]) AS u(n, s)",
            "SELECT f.a, u.* FROM fc f CROSS JOIN unnest(f.arr, f.tags) WITH ORDINALITY AS u(x, y, o) ORDER BY 1, 4",
            "SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(v, n)",
            "SELECT * FROM generate_series(1, 3) WITH ORDINALITY",
            "SELECT * FROM generate_series(1, 3) WITH ORDINALITY g",
            "SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(v, n) WHERE n > 1",
            "SELECT * FROM jsonb_each('{\"a\":1,\"b\":2}') WITH ORDINALITY",
            "SELECT f.a, g.* FROM fc f, generate_series(1, f.a + 1) WITH ORDINALITY AS g(v, n) ORDER BY 1, 3");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("wholerow-diff-");
        assertEquals(List.of(), pair.mismatches(SETUP));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void wholeRowReferencesAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(WHOLE_ROWS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void arrayCastsAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(ARRAY_CASTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void arraySlicesAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(SLICES);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void setReturningCallsInFromAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(FROM_CALLS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void tableRowsPrintAsPostgres() {
        List<String> mismatches = StatementOutcome.mismatches(
                pair.pg, pair.tributary.connection, TABLE_ROWS, StatementOutcome::withoutTypes);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}
