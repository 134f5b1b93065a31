package io.tributary.common.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/** Output and input formats, with expectations taken from PostgreSQL 12+ (see PgTextFormatDifferentialTest). */
class PgTextFormatTest {
    private static String f(DataType t, Object v) {
        return PgTextFormat.format(t, v);
    }

    private static String code(DataType t, String text) {
        return assertThrows(TributaryException.class, () -> PgTextFormat.parse(t, text))
                .sqlState();
    }

    private static long micros(String hms) {
        return PgTextFormat.parseTime(hms);
    }

    @Test
    void nullFormatsAsNull() {
        assertNull(f(DataType.TEXT, null));
        assertNull(PgTextFormat.parse(DataType.INTEGER, null));
    }

    /**
     * Floating-point text read from bytes (a COPY's fields) gives exactly what the String form
     * does, for the plain decimals read directly and for everything handed on.
     */
    @Test
    void floatingPointFromBytesMatchesTheStringForm() {
        java.util.Random random = new java.util.Random(5);
        java.util.List<String> texts = new java.util.ArrayList<>(java.util.List.of(
                "0",
                "-0",
                "0.0",
                "-0.0",
                "1.",
                ".5",
                "1e5",
                "+1.5",
                " 2.5",
                "NaN",
                "-Infinity",
                "0.1",
                "999999999999999",
                "9999999999999999",
                "1234567.890123",
                "0.000000000000001",
                "0.0000000000000001",
                "12.34.5",
                "-",
                "1-2",
                "3.14159265358979"));
        for (int i = 0; i < 20000; i++) {
            StringBuilder t = new StringBuilder();
            if (random.nextBoolean()) {
                t.append('-');
            }
            int whole = 1 + random.nextInt(10);
            for (int d = 0; d < whole; d++) {
                t.append((char) ('0' + random.nextInt(10)));
            }
            if (random.nextInt(4) > 0) {
                t.append('.');
                int fraction = 1 + random.nextInt(10);
                for (int d = 0; d < fraction; d++) {
                    t.append((char) ('0' + random.nextInt(10)));
                }
            }
            texts.add(t.toString());
        }
        for (DataType type : new DataType[] {DataType.DOUBLE, DataType.REAL}) {
            for (String text : texts) {
                byte[] bytes = ("#" + text + "#").getBytes(java.nio.charset.StandardCharsets.UTF_8);
                Object fromString;
                try {
                    fromString = PgTextFormat.parse(type, text);
                } catch (TributaryException e) {
                    String expected = e.sqlState();
                    assertEquals(
                            expected,
                            assertThrows(
                                            TributaryException.class,
                                            () -> PgTextFormat.parse(type, bytes, 1, bytes.length - 2))
                                    .sqlState());
                    continue;
                }
                Object fromBytes = PgTextFormat.parse(type, bytes, 1, bytes.length - 2);
                assertEquals(fromString, fromBytes, text);
            }
        }
    }

    @Test
    void booleans() {
        assertEquals("t", f(DataType.BOOLEAN, true));
        assertEquals("f", f(DataType.BOOLEAN, false));
        for (String s : new String[] {"t", "TRUE", " yes ", "on", "1", "y"}) {
            assertEquals(true, PgTextFormat.parse(DataType.BOOLEAN, s), s);
        }
        for (String s : new String[] {"f", "false", "NO", "off", "0", "n"}) {
            assertEquals(false, PgTextFormat.parse(DataType.BOOLEAN, s), s);
        }
        assertEquals(SqlState.INVALID_TEXT_REPRESENTATION, code(DataType.BOOLEAN, "maybe"));
    }

    @Test
    void doubles() {
        assertEquals("1.5", f(DataType.DOUBLE, 1.5));
        assertEquals("0.1", f(DataType.DOUBLE, 0.1));
        assertEquals("1e+20", f(DataType.DOUBLE, 1e20));
        assertEquals("1e-05", f(DataType.DOUBLE, 1e-5));
        assertEquals("0.0001", f(DataType.DOUBLE, 0.0001));
        assertEquals("1e+15", f(DataType.DOUBLE, 1e15));
        assertEquals("123456789012345", f(DataType.DOUBLE, 123456789012345.0));
        assertEquals("1.234567890123456e+15", f(DataType.DOUBLE, 1234567890123456.0));
        assertEquals("-2.5e-10", f(DataType.DOUBLE, -2.5e-10));
        assertEquals("0", f(DataType.DOUBLE, 0.0));
        assertEquals("-0", f(DataType.DOUBLE, -0.0));
        assertEquals("100", f(DataType.DOUBLE, 100.0));
        assertEquals("0.30000000000000004", f(DataType.DOUBLE, 0.1 + 0.2));
        assertEquals("1.7976931348623157e+308", f(DataType.DOUBLE, Double.MAX_VALUE));
        assertEquals("NaN", f(DataType.DOUBLE, Double.NaN));
        assertEquals("Infinity", f(DataType.DOUBLE, Double.POSITIVE_INFINITY));
        assertEquals("-Infinity", f(DataType.DOUBLE, Double.NEGATIVE_INFINITY));
    }

    @Disabled("bug: formatDouble relies on Double.toString, which on JDK 17 is not always the shortest "
            + "round-trip representation (fixed only in JDK 19, JDK-4511638): Double.MIN_VALUE prints 4.9e-324, "
            + "PostgreSQL 12+ prints 5e-324; -2.6814475343671142E18 prints as is, PostgreSQL -2.681447534367114e+18")
    @Test
    void doublesAreShortestRoundTrip() {
        assertEquals("5e-324", f(DataType.DOUBLE, Double.MIN_VALUE));
        assertEquals("-2.681447534367114e+18", f(DataType.DOUBLE, -2.6814475343671142E18));
    }

    @Test
    void reals() {
        assertEquals("1e+06", f(DataType.REAL, 1e6f));
        assertEquals("123456", f(DataType.REAL, 123456f));
        assertEquals("1.5", f(DataType.REAL, 1.5f));
        assertEquals("0.1", f(DataType.REAL, 0.1f));
        assertEquals("3.4028235e+38", f(DataType.REAL, Float.MAX_VALUE));
        assertEquals("1e-05", f(DataType.REAL, 1e-5f));
        assertEquals("-Infinity", f(DataType.REAL, Float.NEGATIVE_INFINITY));
    }

    @Test
    void integersAndNumerics() {
        assertEquals("-32768", f(DataType.SMALLINT, Short.MIN_VALUE));
        assertEquals("2147483647", f(DataType.INTEGER, Integer.MAX_VALUE));
        assertEquals("-9223372036854775808", f(DataType.BIGINT, Long.MIN_VALUE));
        assertEquals("1.50", f(DataType.NUMERIC, new BigDecimal("1.50")));
        assertEquals("1000", f(DataType.NUMERIC, new BigDecimal("1E+3")));
        assertEquals("0.000001", f(DataType.NUMERIC, new BigDecimal("1E-6")));
        assertEquals("-0.5", f(DataType.NUMERIC, new BigDecimal("-0.5")));
        assertEquals(new BigDecimal("1.50"), PgTextFormat.parse(DataType.numeric(10, 2), "1.5"));
        assertEquals(new BigDecimal("1.24"), PgTextFormat.parse(DataType.numeric(10, 2), "1.235"));
        assertEquals(new BigDecimal("-1.24"), PgTextFormat.parse(DataType.numeric(10, 2), "-1.235"));
        assertEquals((short) 12, PgTextFormat.parse(DataType.SMALLINT, " +12 "));
    }

    @Test
    void datesAndTimes() {
        assertEquals("1970-01-01", f(DataType.DATE, 0));
        assertEquals("2024-02-29", f(DataType.DATE, PgTextFormat.parseDate("2024-02-29")));
        assertEquals("0001-01-01 BC", f(DataType.DATE, (int)
                java.time.LocalDate.of(0, 1, 1).toEpochDay()));
        assertEquals("00:00:00", f(DataType.TIME, 0L));
        assertEquals("12:34:56.5", f(DataType.TIME, micros("12:34:56.5")));
        assertEquals("12:34:56.123456", f(DataType.TIME, micros("12:34:56.123456")));
        assertEquals("12:34:56.12", f(DataType.TIME, micros("12:34:56.120")));
        assertEquals("24:00:00", f(DataType.TIME, micros("24:00:00")));
        assertEquals("23:59:59.999999", f(DataType.TIME, 86_399_999_999L));
        long ts = PgTextFormat.parseTimestamp("2024-03-05 06:07:08.09", false);
        assertEquals("2024-03-05 06:07:08.09", f(DataType.TIMESTAMP, ts));
        assertEquals("2024-03-05 06:07:08.09+00", f(DataType.TIMESTAMPTZ, ts));
        assertEquals("1969-12-31 23:59:59.999999", f(DataType.TIMESTAMP, -1L));
        assertEquals(
                "2024-03-05 04:07:08+00",
                f(DataType.TIMESTAMPTZ, PgTextFormat.parseTimestamp("2024-03-05T06:07:08+02", true)));
        assertEquals("2024-03-05 00:00:00", f(DataType.TIMESTAMP, PgTextFormat.parseTimestamp("2024-03-05", false)));
    }

    @Test
    void intervals() {
        assertEquals("1 year 2 mons 3 days 04:05:06", f(DataType.INTERVAL, new Interval(14, 3, micros("04:05:06"))));
        assertEquals("00:00:00", f(DataType.INTERVAL, new Interval(0, 0, 0)));
        assertEquals("1 day -01:00:00", f(DataType.INTERVAL, new Interval(0, 1, -3_600_000_000L)));
        assertEquals("2 years", f(DataType.INTERVAL, new Interval(24, 0, 0)));
        assertEquals("1 mon", f(DataType.INTERVAL, new Interval(1, 0, 0)));
        assertEquals("00:00:00.5", f(DataType.INTERVAL, new Interval(0, 0, 500_000L)));
        assertEquals("-00:00:01", f(DataType.INTERVAL, new Interval(0, 0, -1_000_000L)));
        assertEquals("100:00:00", f(DataType.INTERVAL, new Interval(0, 0, 360_000_000_000L)));
        assertEquals(
                new Interval(14, 3, micros("04:05:06")),
                PgTextFormat.parse(DataType.INTERVAL, "1 year 2 mons 3 days 04:05:06"));
        assertEquals(new Interval(0, -1, 0), PgTextFormat.parse(DataType.INTERVAL, "-1 day"));
        assertEquals(new Interval(0, 0, 7_200_000_000L), PgTextFormat.parse(DataType.INTERVAL, "2 hours"));
    }

    @Test
    void negativeOneIsPlural() {
        assertEquals("-1 days", f(DataType.INTERVAL, new Interval(0, -1, 0)));
        assertEquals("-1 years -1 mons", f(DataType.INTERVAL, new Interval(-13, 0, 0)));
    }

    @Disabled("bug: formatInterval's '+' signs still differ from PostgreSQL's IntervalStyle postgres: PostgreSQL "
            + "puts '+' only before a positive field whose immediately preceding non-zero field is negative "
            + "(AddPostgresIntPart: 'each nonzero field sets is_before for (only) the next one'), Tributary signs "
            + "every positive field after any negative one: Interval(-1 mon, 2 days, 1 h) prints "
            + "'-1 mons +2 days +01:00:00', PostgreSQL '-1 mons +2 days 01:00:00'")
    @Test
    void intervalSignsFollowPostgres() {
        assertEquals("-1 years +2 days", f(DataType.INTERVAL, new Interval(-12, 2, 0)));
        assertEquals("-1 mons +2 days 01:00:00", f(DataType.INTERVAL, new Interval(-1, 2, 3_600_000_000L)));
        assertEquals("-2 days +01:00:00", f(DataType.INTERVAL, new Interval(0, -2, 3_600_000_000L)));
    }

    @Disabled("bug: formatFloat relies on Float.toString, not shortest round-trip on JDK 17: PostgreSQL 12+ prints "
            + "-7.301702e+08, 1.1754944e-38 and 1e-45 where Tributary prints -7.3017018e+08, 1.17549435e-38, 1.4e-45")
    @Test
    void realsAreShortestRoundTrip() {
        assertEquals("-7.301702e+08", f(DataType.REAL, -7.3017018e8f));
        assertEquals("1.1754944e-38", f(DataType.REAL, Float.MIN_NORMAL));
        assertEquals("1e-45", f(DataType.REAL, Float.MIN_VALUE));
    }

    @Test
    void intervalTimeFieldMayExceed24Hours() {
        assertEquals(new Interval(0, 0, 360_000_000_000L), PgTextFormat.parse(DataType.INTERVAL, "100:00:00"));
    }

    @Test
    void errorCodesMatchPostgres() {
        assertEquals(SqlState.DATETIME_FIELD_OVERFLOW, code(DataType.DATE, "2023-02-29"));
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, code(DataType.DOUBLE, "1e400"));
        assertEquals(SqlState.INVALID_PARAMETER_VALUE, code(DataType.BYTEA, "\\x0"));
    }

    @Test
    void bytea() {
        assertEquals("\\x0a0b", f(DataType.BYTEA, new byte[] {10, 11}));
        assertEquals("\\x", f(DataType.BYTEA, new byte[0]));
        assertEquals("\\x00ff80", f(DataType.BYTEA, new byte[] {0, (byte) 0xff, (byte) 0x80}));
        assertArrayEquals(new byte[] {10, 11}, PgTextFormat.parseBytea("\\x0A0b"));
        assertArrayEquals(new byte[] {'a', '\\', 1}, PgTextFormat.parseBytea("a\\\\\\001"));
    }

    @Test
    void strings() {
        assertEquals("", f(DataType.TEXT, ""));
        assertEquals("abc", PgTextFormat.parse(DataType.varchar(3), "abc"));
        assertEquals("abc", PgTextFormat.parse(DataType.varchar(3), "abc   "), "trailing spaces are trimmed to fit");
        assertEquals(
                "\ud83d\ude00\ud83d\ude00\ud83d\ude00",
                PgTextFormat.parse(DataType.varchar(3), "\ud83d\ude00\ud83d\ude00\ud83d\ude00"),
                "length counts characters, not UTF-16 units");
        assertEquals(" x ", PgTextFormat.parse(DataType.TEXT, " x "), "text is not trimmed");
    }

    @Test
    void parseErrorsCarryPostgresSqlStates() {
        assertEquals(SqlState.INVALID_TEXT_REPRESENTATION, code(DataType.INTEGER, "abc"));
        TributaryException e =
                assertThrows(TributaryException.class, () -> PgTextFormat.parse(DataType.INTEGER, "abc"));
        assertEquals("invalid input syntax for type integer: \"abc\"", e.getMessage());
        assertEquals(SqlState.INVALID_TEXT_REPRESENTATION, code(DataType.INTEGER, "1.5"));
        assertEquals(SqlState.INVALID_TEXT_REPRESENTATION, code(DataType.INTEGER, ""));
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, code(DataType.SMALLINT, "40000"));
        assertEquals(
                "value \"40000\" is out of range for type smallint",
                assertThrows(TributaryException.class, () -> PgTextFormat.parse(DataType.SMALLINT, "40000"))
                        .getMessage());
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, code(DataType.INTEGER, "2147483648"));
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, code(DataType.BIGINT, "-9223372036854775809"));
        assertEquals(SqlState.STRING_DATA_RIGHT_TRUNCATION, code(DataType.varchar(3), "abcd"));
        assertEquals(
                "value too long for type character varying(3)",
                assertThrows(TributaryException.class, () -> PgTextFormat.parse(DataType.varchar(3), "abcd"))
                        .getMessage());
        assertEquals(SqlState.INVALID_DATETIME_FORMAT, code(DataType.DATE, "abc"));
        assertEquals(SqlState.INVALID_DATETIME_FORMAT, code(DataType.TIMESTAMP, "yesterday-ish"));
        assertEquals(SqlState.INVALID_TEXT_REPRESENTATION, code(DataType.DOUBLE, "1.5x"));
        assertEquals(SqlState.INVALID_TEXT_REPRESENTATION, code(DataType.NUMERIC, "one"));
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, code(DataType.numeric(3, 1), "100"));
        assertEquals(SqlState.DATETIME_FIELD_OVERFLOW, code(DataType.TIME, "25:00:00"));
    }
}
