package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * Empty arrays against embedded PostgreSQL (issue 12): {@code ARRAY[]} cast to an array type
 * ({@code ARRAY[]::int[]}, {@code CAST(ARRAY[] AS text[])}) and the constant {@code '{}'} in
 * expressions, functions and array columns (also of {@code varchar(5)[]}, {@code numeric(10,2)[]},
 * {@code double precision[]}, boolean and date arrays), array text ({@code '{}'}, {@code '{1,NULL}'})
 * compared with an array or among a CASE's or COALESCE's results beside one, and the labels of an
 * array constant's casts, each statement's rows compared with their labels and type names; and
 * {@code ARRAY[]} without a cast, which is PostgreSQL's 42P18 with its message, hint and position,
 * and array text PostgreSQL cannot read beside an array (22P02).
 */
class EmptyArraysDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "SELECT ARRAY[]::int[]",
            "SELECT ARRAY[]::text[], ARRAY[]::varchar(5)[] AS v, ARRAY[]::double precision[] AS d,"
                    + " ARRAY [ ]::pg_catalog.int4[] AS p",
            "SELECT CAST(ARRAY[] AS bigint[]), CAST( array[ ] as numeric(10,2)[]) AS n",
            "SELECT '{}'::int[], '{}'::text[]",
            "SELECT cardinality(ARRAY[]::int[]), array_length(ARRAY[]::int[], 1), array_upper(ARRAY[]::int[], 1)",
            "SELECT ARRAY[]::int[] || 1 AS a, 2 || ARRAY[]::int[] AS c, ARRAY[]::int[] || ARRAY[]::int[] AS d",
            "SELECT pg_typeof(ARRAY[]::int[])::text AS a, pg_typeof(ARRAY[]::text[])::text AS b",
            "SELECT to_json(ARRAY[]::int[]), array_to_string(ARRAY[]::text[], ','), ARRAY[]::int[]::text",
            "SELECT 1 = ANY (ARRAY[]::int[]) AS a, 1 <> ALL (ARRAY[]::int[]) AS b",
            "SELECT * FROM unnest(ARRAY[]::int[])",
            "SELECT x, cardinality(x) FROM (VALUES (ARRAY[]::int[]), (ARRAY[1, 2])) v(x)",
            "CREATE TABLE ea (id INT PRIMARY KEY, a INT[], t TEXT[])",
            "INSERT INTO ea VALUES (1, ARRAY[]::int[], ARRAY[]::text[]), (2, ARRAY[1], CAST(ARRAY[] AS text[]))",
            "INSERT INTO ea VALUES (3, '{}', '{}')",
            "UPDATE ea SET t = ARRAY[]::text[] || 'x'::text WHERE id = 2",
            "SELECT id, a, t, cardinality(a), array_length(a, 1) FROM ea ORDER BY id",
            "SELECT id FROM ea WHERE a = ARRAY[]::int[] ORDER BY id",
            "CREATE TABLE em (id INT PRIMARY KEY, v VARCHAR(5)[], d DOUBLE PRECISION[], n NUMERIC(10,2)[],"
                    + " b BOOLEAN[], dt DATE[])",
            "INSERT INTO em VALUES (1, '{}'::varchar(5)[], '{}'::double precision[], '{}'::numeric(10,2)[],"
                    + " '{}'::boolean[], '{}'::date[])",
            "INSERT INTO em VALUES (2, '{a,b}'::varchar(5)[], '{1.5}'::float8[], '{1.5,2}'::numeric(10,2)[],"
                    + " '{t}'::boolean[], '{2024-01-01}'::date[])",
            "INSERT INTO em VALUES (3, ARRAY[]::varchar(5)[], ARRAY[]::double precision[], ARRAY[]::numeric(10,2)[],"
                    + " ARRAY[]::boolean[], ARRAY[]::date[])",
            "INSERT INTO em VALUES (4, '{}', '{}', '{}', '{}', '{}')",
            "UPDATE em SET n = '{7.777}'::numeric(10,2)[], v = CAST('{long}' AS varchar(5)[]) WHERE id = 1",
            "SELECT id, v, d, n, b, dt, cardinality(v) AS cv, cardinality(n) AS cn, n::text AS nt FROM em ORDER BY id",
            // array text beside an array: compared with, and a CASE's or COALESCE's result
            "SELECT ARRAY[]::int[] = '{}' AS a, '{}'::int[] = ARRAY[]::int[] AS b, ARRAY[1] <> '{}' AS c,"
                    + " ARRAY[]::text[] = '{}' AS d, '{}' = ARRAY[]::int[] AS e, ARRAY[1] = '{ }' AS f",
            "SELECT ARRAY[1, NULL] = '{1,NULL}' AS a, ARRAY[true] = '{yes}' AS b, ARRAY['a', 'bb'] = '{a,bb}' AS c,"
                    + " ARRAY[DATE '2024-01-01'] = '{2024-01-01}' AS d, ARRAY[1.5, 2] = '{1.5,2.0}' AS e",
            "SELECT id, a = '{}' AS e, a <> '{}' AS ne, '{}' = a AS e2, a = ARRAY[]::int[] AS e3, a = '{1}' AS e4,"
                    + " t = '{}' AS te, t = '{x}' AS tx, a < '{}' AS lt, a > '{}' AS gt FROM ea ORDER BY id",
            "SELECT id FROM ea WHERE a = '{}' ORDER BY id",
            "SELECT id FROM ea WHERE a <> '{}' ORDER BY id",
            "SELECT id FROM ea WHERE a IS DISTINCT FROM '{}' ORDER BY id",
            "SELECT id FROM ea WHERE a IN ('{}', '{1}') ORDER BY id",
            "SELECT id, COALESCE(a, '{}') AS a, COALESCE(t, '{}') AS t, COALESCE(a, ARRAY[]::int[]) AS a2,"
                    + " COALESCE(a, '{7,NULL}') AS a3, COALESCE(t, '{\"b c\",d}') AS t2 FROM ea ORDER BY id",
            "SELECT id, CASE WHEN id = 1 THEN a ELSE '{}' END AS c, CASE WHEN id = 2 THEN t ELSE '{z}' END AS d,"
                    + " NULLIF(a, '{}') AS n FROM ea ORDER BY id",
            "SELECT id, COALESCE(v, '{}') AS v, COALESCE(b, '{f}') AS b, COALESCE(dt, '{}') AS dt,"
                    + " COALESCE(dt, '{2024-02-29}') AS dt2, b = '{t}' AS bt, n = '{1.5,2}' AS nn FROM em ORDER BY id",
            // a cast of an array constant is labelled as the cast's type, in parentheses too
            "SELECT ('{1,2}'::int[])::text, ('{1,2}'::int[])::int[],"
                    + " ( ('{}'::text[]) )::text, '{1,2}'::int[]::text AS x, (ARRAY[1])::text");

    /** {@code ARRAY[]} with no cast to give it a type. */
    private static final List<String> UNTYPED = List.of(
            "SELECT ARRAY[]",
            "SELECT ARRAY[] || ARRAY[1]",
            "SELECT coalesce(ARRAY[], ARRAY[1])",
            "INSERT INTO ea VALUES (4, ARRAY[], NULL)",
            // array text beside an array that is no array text, or whose element is no value of the type
            "SELECT ARRAY[1] = 'x'",
            "SELECT ARRAY[1] = '{x}'",
            "SELECT id FROM ea WHERE a = '{1.5}'");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("empty-arrays-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void emptyArraysAnswerAsPostgres() {
        List<String> mismatches = StatementOutcome.mismatches(
                pair.pg, pair.tributary.connection, STATEMENTS, StatementOutcome::withTypeNames);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void anUntypedEmptyArrayIsPostgresError() {
        List<String> mismatches = StatementOutcome.mismatches(
                pair.pg, pair.tributary.connection, UNTYPED, EmptyArraysDifferentialTest::error);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** The error {@code sql} fails with: SQLSTATE, message, hint and position; or that it did not fail. */
    private static String error(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
            return "no error";
        } catch (PSQLException e) {
            ServerErrorMessage m = e.getServerErrorMessage();
            return m == null
                    ? e.getSQLState()
                    : m.getSQLState() + " " + m.getMessage() + " HINT " + m.getHint() + " at " + m.getPosition();
        } catch (SQLException e) {
            return e.getSQLState() + " " + e.getMessage();
        }
    }
}
