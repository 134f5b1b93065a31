package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 22003 of the integer types, against embedded PostgreSQL, compared with its message: casts to
 * smallint, integer and bigint of wider integers, numerics and floats (constants and columns) say
 * {@code smallint out of range}, {@code integer out of range} or {@code bigint out of range} (were
 * {@code value 40000 out of range} and {@code value out of range: Overflow}), a float NaN or
 * infinity cast to an integer is out of range (NaN was 0) and -2^63 as a float fits bigint, text too
 * long for smallint names smallint, and {@code abs} and {@code / -1} of the smallest smallint fail
 * as integer's and bigint's do (they wrapped around). Arithmetic overflow in each width, already
 * PostgreSQL's, is kept beside them.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IntegerOutOfRangeDifferentialTest {
    private static final String SETUP =
            "CREATE TABLE io (id INT PRIMARY KEY, b BIGINT, n NUMERIC, f FLOAT8, i INT, s SMALLINT, t TEXT);"
                    + "INSERT INTO io VALUES (1, 9223372036854775807, 1e20, 1e30, 2147483647, 32767, '40000'),"
                    + " (2, -5, -2.5, -2.5, -5, -32768, '-7'), (3, NULL, NULL, NULL, NULL, NULL, NULL);"
                    + "CREATE TABLE rio (id INT PRIMARY KEY, r REAL, d FLOAT8);"
                    + "INSERT INTO rio VALUES (1, 2.5, 2.5), (2, 3.5, 3.5), (3, -2.5, -2.5), (4, 0.5, -0.5),"
                    + " (5, -3.5, 32767.5), (6, NULL, NULL), (7, 'NaN', 'NaN'), (8, 'Infinity', '-Infinity'),"
                    + " (9, 1e10, 1e19)";

    private static final List<String> CASTS = List.of(
            "SELECT (9223372036854775807::numeric + 1)::bigint",
            "SELECT '99999999999'::int",
            "SELECT 40000::smallint",
            "SELECT 1e20::bigint",
            "SELECT 2147483648::bigint::int",
            "SELECT 2147483648::int",
            "SELECT (2^63)::bigint",
            "SELECT (2^31)::int",
            "SELECT 1e10::float8::int4",
            "SELECT 1e10::float8::int2",
            "SELECT 1e30::float8::int8",
            "SELECT 2147483647.5::float8::int4",
            "SELECT 9223372036854775807::float8::int8",
            "SELECT (-9223372036854775808)::float8::int8",
            "SELECT 'NaN'::float8::int4",
            "SELECT 'Infinity'::float8::int8",
            "SELECT '-Infinity'::float8::int2",
            "SELECT '9223372036854775808'::bigint",
            "SELECT '40000'::smallint",
            "SELECT 100000::numeric::int2",
            "SELECT 3000000000::numeric::int4",
            "SELECT 1e20::numeric::int8",
            "SELECT 32767.5::int2",
            "SELECT 32767.4::int2",
            "SELECT (-32768.5)::int2",
            "SELECT CAST(1e10 AS integer)",
            "SELECT 2.5::int, 3.5::int, (-2.5)::int, 2.5::float8::int, 3.5::float8::int, (-32768)::int4::int2",
            "SELECT id, b::int FROM io ORDER BY id",
            "SELECT id, b::smallint FROM io ORDER BY id",
            "SELECT id, i::smallint FROM io ORDER BY id",
            "SELECT id, n::bigint FROM io ORDER BY id",
            "SELECT id, n::int FROM io ORDER BY id",
            "SELECT id, n::smallint FROM io ORDER BY id",
            "SELECT id, f::bigint FROM io ORDER BY id",
            "SELECT id, f::int FROM io ORDER BY id",
            "SELECT id, f::smallint FROM io ORDER BY id",
            "SELECT id, t::smallint FROM io ORDER BY id",
            "SELECT id, (t || '0000000000')::int FROM io WHERE id = 1",
            "SELECT id, b::int FROM io WHERE id > 1 ORDER BY id",
            "SELECT id, n::int, f::int, s::int2, i::int8 FROM io WHERE id > 1 ORDER BY id");

    private static final List<String> ARITHMETIC = List.of(
            "SELECT 32767::int2 + 1::int2",
            "SELECT -(-2147483648)",
            "SELECT abs(-9223372036854775808)",
            "SELECT abs(-2147483648)",
            "SELECT abs((-32768)::int2)",
            "SELECT -((-32768)::int2)",
            "SELECT 2147483647 * 2",
            "SELECT 9223372036854775807 + 1",
            "SELECT (-32768)::int2 / (-1)::int2",
            "SELECT (-32768)::int2 * (-1)::int2",
            "SELECT (-2147483648) / (-1)",
            "SELECT (-9223372036854775808) / (-1)",
            "SELECT (-32768)::int2 % (-1)::int2",
            "SELECT 7::int2 / 2::int2, (-7)::int2 / 2::int2, abs((-7)::int2)",
            "SELECT 1::int2 / 0::int2",
            "SELECT id, s + s FROM io ORDER BY id",
            "SELECT id, abs(s) FROM io ORDER BY id",
            "SELECT id, s / (-1)::int2 FROM io ORDER BY id",
            "SELECT id, s / 2::int2, abs(s) FROM io WHERE id > 2 ORDER BY id");

    /**
     * {@code real} and {@code double precision} to smallint, integer and bigint: half to even (a
     * {@code real} rounded half away from zero, and failed with XX000 under {@code -ea}), NaN and
     * infinities 22003 (a {@code real} NaN was 22P02), in constants, columns and views.
     */
    private static final List<String> FLOAT_CASTS = List.of(
            "SELECT 2.5::real::int, 3.5::real::int, (-2.5)::real::int, 0.5::real::int, (-0.5)::real::int",
            "SELECT 2.5::real::int2, 3.5::real::int2, (-2.5)::real::int2, 2.5::real::int8, (-3.5)::real::int8",
            "SELECT 2.5::float8::int2, 3.5::float8::int8, (-2.5)::float8::int2, (-2.5)::float8::int8, 4.5::float8::int",
            "SELECT CAST(2.5 AS real) AS a, CAST(CAST(2.5 AS real) AS integer) AS b, CAST(CAST(-2.5 AS float4) AS bigint) AS c",
            "SELECT 'NaN'::real::int",
            "SELECT 'NaN'::real::int2",
            "SELECT 'NaN'::real::int8",
            "SELECT 'Infinity'::real::bigint",
            "SELECT '-Infinity'::real::int",
            "SELECT 'Infinity'::float8::bigint",
            "SELECT 'NaN'::float8::int2",
            "SELECT 1e10::real::int",
            "SELECT 1e10::real::int8, 32767.4::real::int2",
            "SELECT 32767.5::real::int2",
            "SELECT id, r::int, r::int2, r::int8 FROM rio WHERE id < 7 ORDER BY id",
            "SELECT id, d::int, d::int8 FROM rio WHERE id < 7 ORDER BY id",
            "SELECT id, d::int2 FROM rio WHERE id < 5 ORDER BY id",
            "SELECT id, d::int2 FROM rio WHERE id = 5",
            "SELECT id, r::int FROM rio WHERE id = 7",
            "SELECT id, r::int2 FROM rio WHERE id = 8",
            "SELECT id, r::int8 FROM rio WHERE id = 8",
            "SELECT id, d::int8 FROM rio WHERE id = 7",
            "SELECT id, d::int FROM rio WHERE id = 8",
            "SELECT id, r::int FROM rio WHERE id = 9",
            "SELECT id, r::int8, d::float4::int8 FROM rio WHERE id = 9",
            "SELECT id, d::int8 FROM rio WHERE id = 9",
            "SELECT id, CAST(r AS integer) + 1 AS a FROM rio WHERE r::int2 % 2 = 0 ORDER BY id",
            "CREATE VIEW riov AS SELECT id, r::int AS ri, r::int2 AS rs, r::int8 AS rb, d::int AS di FROM rio WHERE id < 5",
            "SELECT * FROM riov ORDER BY id",
            "CREATE VIEW rion AS SELECT id, r::int AS ri FROM rio",
            "SELECT * FROM rion WHERE id = 7",
            "CREATE MATERIALIZED VIEW riom AS SELECT id, r::int AS ri, r::int8 AS rb, d::int2 AS ds FROM rio WHERE id < 5",
            "SELECT * FROM riom ORDER BY id");

    /** PostgreSQL and Tributary, outcomes compared with type names, errors with their messages. */
    @RegisterExtension
    static final ComparedPair BOTH = new ComparedPair("int-range-diff-", SETUP, new ComparedOutcomes(false, false));

    @Test
    void castsToIntegerTypesFailWithPostgresMessages() {
        assertEquals(List.of(), BOTH.mismatches(CASTS));
    }

    @Test
    void floatCastsRoundHalfToEvenAndRefuseNanAndInfinity() {
        assertEquals(List.of(), BOTH.mismatches(FLOAT_CASTS));
    }

    @Test
    void smallintAbsAndDivisionOverflowLikeTheWiderTypes() {
        assertEquals(List.of(), BOTH.mismatches(ARITHMETIC));
    }
}
