package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code pg_column_size} (issue 12; it was 42883) on Tributary and on an embedded PostgreSQL: the
 * widths of fixed-size types, and variable-size values with PostgreSQL's headers (1 byte for a
 * short value read from a table, 4 for a computed or longer one), numeric in its packed form.
 */
class ColumnSizeDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("column-size-diff-");
        List<String> mismatches = pair.mismatches(List.of(
                "CREATE TABLE cs (id INT PRIMARY KEY, t TEXT, v VARCHAR(10), c CHAR(4), n NUMERIC, n2 NUMERIC(10, 3),"
                        + " b BYTEA, i2 SMALLINT, i8 BIGINT, f4 REAL, f8 DOUBLE PRECISION, ok BOOLEAN, d DATE,"
                        + " ts TIMESTAMP, tz TIMESTAMPTZ, u UUID)",
                "INSERT INTO cs VALUES (1, 'abc', 'abc', 'ab', 1.5, 1.5, '\\x0102', 1, 2, 1.5, 2.5, true, '2024-01-02',"
                        + " '2024-01-02 03:04:05', '2024-01-02 03:04:05+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),"
                        + " (2, repeat('x', 200), '', '', 0, 0, '', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
                        + " (3, 'é', 'é', 'é', 123456789.000001, -12.345, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                        + " NULL, NULL),"
                        + " (4, repeat('y', 126), repeat('z', 10), NULL, 0.1e-30, 1e5, NULL, NULL, NULL, NULL, NULL, NULL,"
                        + " NULL, NULL, NULL, NULL)"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void fixedWidths() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT pg_column_size(1::int2) AS a, pg_column_size(1) AS b, pg_column_size(1::int8) AS c,"
                        + " pg_column_size(1.5::float4) AS d, pg_column_size(1.5::float8) AS e, pg_column_size(true) AS f",
                "SELECT pg_column_size(DATE '2024-01-02') AS a, pg_column_size(TIMESTAMP '2024-01-02 03:04') AS b,"
                        + " pg_column_size(now()) AS c, pg_column_size(TIME '01:00') AS d,"
                        + " pg_column_size(INTERVAL '1 day') AS e, pg_column_size(gen_random_uuid()) AS f",
                "SELECT id, pg_column_size(i2), pg_column_size(i8), pg_column_size(f4), pg_column_size(f8),"
                        + " pg_column_size(ok), pg_column_size(d), pg_column_size(ts), pg_column_size(tz), pg_column_size(u)"
                        + " FROM cs ORDER BY id",
                "SELECT pg_column_size(NULL) AS a, pg_column_size(NULL::int) AS b",
                "SELECT pg_typeof(pg_column_size(1))::text"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void variableWidths() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT pg_column_size('abc') AS a, pg_column_size('abc'::text) AS b, pg_column_size('é'::varchar) AS c,"
                        + " pg_column_size('abc'::char(5)) AS d, pg_column_size('\\x01'::bytea) AS e,"
                        + " pg_column_size(repeat('x', 200)) AS f, pg_column_size('a' || 'bc') AS g",
                "SELECT id, pg_column_size(t), pg_column_size(v), pg_column_size(c), pg_column_size(b),"
                        + " pg_column_size(t || ''), pg_column_size(upper(v)), pg_column_size(c || 'x') FROM cs ORDER BY id",
                "SELECT pg_column_size(t) FROM cs WHERE id = 2 UNION ALL SELECT pg_column_size(max(t)) FROM cs"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void numericPackedSizes() {
        List<String> mismatches = pair.mismatches(List.of(
                "SELECT pg_column_size(0::numeric) AS a, pg_column_size(1.5::numeric) AS b,"
                        + " pg_column_size(123456789.000001) AS c, pg_column_size(-0.0001) AS d,"
                        + " pg_column_size(10000::numeric) AS e, pg_column_size(1.000::numeric) AS f,"
                        + " pg_column_size(123.45678901234567890123) AS g, pg_column_size(1e-30) AS h,"
                        + " pg_column_size(1e30) AS i",
                "SELECT id, pg_column_size(n), pg_column_size(n2), pg_column_size(n + 1) FROM cs ORDER BY id"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void typesWithoutPostgresFigureAre0A000() throws SQLException {
        try (Statement s = pair.tributary.connection.createStatement()) {
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(
                    SQLException.class, () -> s.executeQuery("SELECT pg_column_size('{}'::jsonb)"));
            assertEquals("0A000", e.getSQLState(), e.getMessage());
        }
    }
}
