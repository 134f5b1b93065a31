package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Row values against embedded PostgreSQL: a row constructor in a select list is a {@code record}
 * column printed as PostgreSQL's record text ({@code (1,"a b",)}, labelled {@code row}), which no
 * table or view column may be (42P16), and row comparisons answer with PostgreSQL's NULL rules
 * ({@code (1, NULL) < (1, 2)} is NULL, {@code (1, 2) IS DISTINCT FROM (1, NULL)} true), in queries
 * and in a materialized view's filter. Each statement's rows (labels and JDBC types) or SQLSTATE
 * must match.
 */
class RowValuesDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE rv (a INT PRIMARY KEY, b TEXT, n NUMERIC(6,2))",
            "INSERT INTO rv VALUES (1, 'x', 1.50), (2, 'a b', NULL), (3, NULL, -2), (4, 'q\"u,(\\)', 0), (5, '', 7)",
            // record text: quoting, NULL and empty fields, nesting, field types' text forms
            "SELECT ROW(1, 'a')",
            "SELECT (1, 'a b', NULL)",
            "SELECT ROW(1, 'a', true, 1.5, 2.5::float8, 'q\"u', '', DATE '2024-01-02', ROW(2, 'c d'))",
            "SELECT ROW(1.50, 2::float4, 'x'::varchar, TIMESTAMP '2024-01-01 10:00:00', TIME '10:00:01.5',"
                    + " '\\x01'::bytea, ARRAY[1, 2])",
            "SELECT ROW(1, ROW(2, 3))",
            "SELECT a, ROW(a, b, n) FROM rv ORDER BY a",
            "SELECT ROW(a, b) AS r, a FROM rv ORDER BY r",
            "SELECT pg_typeof(ROW(1, 'a'))::text",
            // no table or view column is a record
            "CREATE VIEW rv_v AS SELECT ROW(1, 'a')",
            "CREATE TABLE rv_t AS SELECT ROW(a, b) AS r FROM rv",
            // row comparisons: NULL fields as PostgreSQL reads them
            "SELECT (1, NULL::text) < (1, 'z'), (1, NULL::text) = (2, 'z'), (1, NULL::text) = (1, 'z')",
            "SELECT (1, 2) < (1, 3), (1, 2) <= (1, 2), (2, 1) > (1, 9), (1, 2) >= (1, 3), (1, 2) <> (1, 2),"
                    + " (1, 2) IS DISTINCT FROM (1, NULL), (1, NULL) IS NOT DISTINCT FROM (1, NULL)",
            "SELECT (NULL, 1) < (2, 0), (1, NULL) < (2, 0), (1, 1, NULL) <= (1, 1, 5), (1, 2, NULL) <> (1, 3, NULL)",
            "SELECT a, (a, b) < (3, 'z') AS lt, (a, b) <= (3, 'z') AS le, (a, b) > (1, 'z') AS gt,"
                    + " (a, b) >= (3, 'z') AS ge, (a, b) = (3, 'z') AS eq, (a, b) <> (3, 'z') AS ne,"
                    + " (a, b) IS DISTINCT FROM (3, NULL) AS d, (a, b) IS NOT DISTINCT FROM (3, NULL) AS nd"
                    + " FROM rv ORDER BY a",
            "SELECT a FROM rv WHERE (a, b) < (3, 'z') ORDER BY a",
            "SELECT a FROM rv WHERE (b, n) <> ('x', 1.5) ORDER BY a",
            "CREATE MATERIALIZED VIEW rv_m AS SELECT a FROM rv WHERE (a, b) >= (2, 'a b')",
            "SELECT a FROM rv_m ORDER BY a",
            "SELECT a FROM rv WHERE (a, b) >= (2, 'a b') ORDER BY a");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("rowvalues-diff-");
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
