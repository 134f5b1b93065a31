package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code format()}, PostgreSQL's boolean input and the shortest text of floats, on Tributary and
 * on an embedded PostgreSQL: each statement's rows (labels and JDBC types) or SQLSTATE must match.
 * {@code format} is checked with each specifier, positions, widths (given and from an argument),
 * the {@code -} flag, NULLs, booleans, numbers and dates as arguments, over a table's columns, and
 * its errors; boolean input with every spelling PostgreSQL accepts and some it refuses; float4 and
 * float8 values whose Java 17 text is not the shortest, and float input's special values and errors.
 */
class FormatAndInputDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE fm (id INT PRIMARY KEY, s TEXT, n NUMERIC(10, 2), b BOOLEAN, d DATE, r REAL)",
            "INSERT INTO fm VALUES (1, 'Mixed Case', 12.50, true, DATE '2024-03-15', 2147483648),"
                    + " (2, 'plain', NULL, false, NULL, 0.1), (3, NULL, -3.00, NULL, DATE '1999-12-31', CAST('1.17549435e-38' AS real)),"
                    + " (4, 'it''s', 0, true, DATE '2000-02-29', CAST('3.4028235e38' AS real)), (5, 'back\\slash', 7.25, false, NULL, 16777217)",
            "SELECT format('%s-%s', 'a', 1), format('%I', 'Col'), format('%L', 'it''s')",
            "SELECT format('%2$s %1$s|%-5s|%5s|', 'a', 'b', true, NULL) AS a, format('%L %s', NULL, NULL) AS b,"
                    + " format('x') AS c, format('100%%') AS d, format(NULL, 1) AS e",
            "SELECT format('[%*s] [%-*s] [%*2$s]', 6, 'ab', 4, 'cd') AS a, format('%3$s %s', 'x', 'y', 'z') AS b",
            "SELECT format('[%*s] [%-*s] [%*s]', 6, 'ab', 4, 'cd', -3, 'e') AS a, format('%3$s %s', 'x', 'y', 'z', 'w') AS b",
            "SELECT format('%I.%I', 'public', 'select') AS a, format('%I', 'abc_1') AS b, format('%L', 1.5) AS c,"
                    + " format('%s', 12.50::numeric) AS d, format('%s', DATE '2024-01-02') AS e",
            "SELECT id, format('%s|%I|%L|%s|%s|%s', id, coalesce(s, 'x'), s, n, b, d) AS f FROM fm ORDER BY id",
            "SELECT format('%I', NULL)",
            "SELECT format('%s %s', 'a')",
            "SELECT format('%z', 1)",
            "SELECT format('%0$s', 1)",
            "SELECT format('%*s', 'x', 'y')",
            "SELECT format('abc%', 1)",
            "SELECT 't'::boolean AS a, 'TRUE'::boolean AS b, 'yes'::boolean AS c, 'y'::boolean AS d, 'on'::boolean AS e,"
                    + " '1'::boolean AS f, ' tr '::boolean AS g, 'ye'::boolean AS h",
            "SELECT 'f'::boolean AS a, 'False'::boolean AS b, 'no'::boolean AS c, 'n'::boolean AS d, 'off'::boolean AS e,"
                    + " 'of'::boolean AS f, '0'::boolean AS g, 'fal'::boolean AS h",
            "SELECT true::text, 't'::boolean AND 'yes'::boolean",
            "SELECT 'o'::boolean",
            "SELECT 'yess'::boolean",
            "SELECT '2'::boolean",
            "SELECT ''::boolean",
            "SELECT CAST('2147483648' AS real) AS a, CAST('16777217' AS real) AS b, 0.1::real AS c,"
                    + " CAST('3.4028235e38' AS real) AS d, CAST('1.17549435e-38' AS real) AS e",
            "SELECT id, r, r::text AS t FROM fm ORDER BY id",
            "SELECT 2.82879384806159e17::float8 AS a, 1.0e23::float8 AS b, CAST('2e23' AS float8) AS c, 0.3::float8 AS d",
            // the special values in any case, as constants and beside a column (Calcite read only 'Infinity' and 'NaN')
            "SELECT 'infinity'::float8 AS a, '-inf'::float8 AS b, 'nan'::float8 AS c, ' +Inf '::float8 AS d,"
                    + " 'INFINITY'::real AS e, '-infinity'::real AS f, 'NaN'::real AS g, ' 1.5 '::float8 AS h",
            "SELECT id FROM fm WHERE r < 'infinity' AND r > '-inf' ORDER BY id",
            "SELECT CAST(s AS float8) FROM fm WHERE id = 1",
            "SELECT 'infinit'::float8",
            "SELECT '1e400'::float8",
            "SELECT '1e39'::real",
            "SELECT ''::float8",
            // underflow to zero is out of range too; a real is rounded once, from the text
            "SELECT '1e-400'::float8",
            "SELECT '-1e-50'::real",
            "SELECT '0e-400'::float8 AS a, '0.000'::real AS b, '1e-310'::float8 AS c,"
                    + " '1.0000000596046447753906251'::real AS d, '-0'::float8 AS e");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("format-diff-");
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
