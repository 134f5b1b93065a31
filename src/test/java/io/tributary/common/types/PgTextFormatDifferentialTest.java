package io.tributary.common.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.tributary.common.TributaryException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Differential test: for each literal, PostgreSQL's own text output of {@code literal::type} must
 * equal {@code PgTextFormat.format(type, PgTextFormat.parse(type, literal))}, and invalid literals
 * must fail with the SQLSTATE PostgreSQL reports. Known divergences (bugs, see the disabled tests in
 * PgTextFormatTest) are listed in {@link #KNOWN_BUGS} and skipped, so a new divergence fails here.
 */
class PgTextFormatDifferentialTest {
    private static EmbeddedPostgres pg;
    private static Connection conn;

    /** type name + "|" + literal of divergences already reported as bugs. */
    private static final List<String> KNOWN_BUGS = List.of(
            "interval|-1 day",
            "interval|-1 year",
            "interval|-1 mon",
            "interval|-1 year 2 days",
            "interval|-1 mon 2 days 01:00:00",
            "interval|-13 mons",
            "interval|1 day ago",
            "interval|100:00:00");

    @BeforeAll
    static void start() throws Exception {
        pg = EmbeddedPostgres.builder().start();
        conn = pg.getPostgresDatabase().getConnection();
        try (Statement s = conn.createStatement()) {
            s.execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, MDY'; SET IntervalStyle = 'postgres';"
                    + " SET extra_float_digits = 1; SET bytea_output = 'hex'");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (conn != null) {
            conn.close();
        }
        if (pg != null) {
            pg.close();
        }
    }

    /** PostgreSQL's text output of each literal cast to {@code type}, in one round trip. */
    private static List<String> pgOutput(DataType type, List<String> literals) throws SQLException {
        // concat() prints through the type's output function (a bool::text cast would say 'true')
        String sql = "SELECT concat(v::" + type.sqlName() + ") FROM unnest(?::text[]) WITH ORDINALITY AS u(v, i)"
                + " ORDER BY i";
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            Array arr = conn.createArrayOf("text", literals.toArray());
            ps.setArray(1, arr);
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        }
    }

    private static void compare(DataType type, List<String> literals) throws SQLException {
        List<String> expected = pgOutput(type, literals);
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < literals.size(); i++) {
            String lit = literals.get(i);
            if (KNOWN_BUGS.contains(type.sqlName() + "|" + lit)) {
                continue;
            }
            String actual;
            try {
                actual = PgTextFormat.format(type, PgTextFormat.parse(type, lit));
            } catch (RuntimeException e) {
                actual = "<" + e + ">";
            }
            if (!expected.get(i).equals(actual)) {
                mismatches.add("'" + lit + "'::" + type.sqlName() + ": PostgreSQL " + expected.get(i) + ", Tributary "
                        + actual);
            }
        }
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " mismatches:\n" + String.join("\n", mismatches));
        }
    }

    @Test
    void integersBooleansNumerics() throws SQLException {
        compare(DataType.BOOLEAN, List.of("t", "true", "YES", "off", "0", "1"));
        compare(DataType.SMALLINT, List.of("0", "-32768", "32767", " 12 ", "+5"));
        compare(DataType.INTEGER, List.of("-2147483648", "2147483647", "007"));
        compare(DataType.BIGINT, List.of("-9223372036854775808", "9223372036854775807"));
        compare(
                DataType.NUMERIC,
                List.of(
                        "0",
                        "1.50",
                        "-1.5",
                        "1e3",
                        "1.0e-3",
                        "123.456e10",
                        "-0.001",
                        "00012.3400",
                        "0.000000000000000000001",
                        "99999999999999999999999.9999"));
        compare(DataType.numeric(10, 2), List.of("1.5", "1.235", "-1.235", "0", "12345678.9"));
    }

    @Test
    void floats() throws SQLException {
        List<String> doubles = new ArrayList<>(List.of(
                "1.5",
                "0.1",
                "1e20",
                "1e-5",
                "0.0001",
                "1e15",
                "123456789012345",
                "1234567890123456",
                "100",
                "-0",
                "0",
                "1e-4",
                "9.99e14",
                "1e16",
                "0.3",
                "1.7976931348623157e308",
                "2.2250738585072014E-308",
                "2.0E23",
                "NaN",
                "Infinity",
                "-Infinity",
                "3.141592653589793",
                "1e22",
                "1e23",
                "123e-310"));
        compare(DataType.DOUBLE, doubles);
        compare(
                DataType.REAL,
                List.of(
                        "1e6",
                        "123456",
                        "1234567",
                        "1.5",
                        "0.1",
                        "1e-5",
                        "0.0001",
                        "3.4028235e38",
                        "16777217",
                        "0.3",
                        "NaN",
                        "-Infinity",
                        "-2.5",
                        "1e10"));
    }

    @Disabled("bug: PgTextFormat.formatDouble relies on Double.toString, which on JDK 17 is not always the "
            + "shortest round-trip representation (JDK-4511638, fixed in JDK 19): '-2.6814475343671142E18'::float8 "
            + "PostgreSQL -2.681447534367114e+18, Tributary -2.6814475343671142e+18; '4.9E-324' PostgreSQL 5e-324")
    @Test
    void randomDoubles() throws SQLException {
        List<String> doubles = new ArrayList<>(List.of("-2.6814475343671142E18", "4.9E-324"));
        Random r = new Random(42);
        for (int i = 0; i < 300; i++) {
            double d = Double.longBitsToDouble(r.nextLong());
            if (!Double.isNaN(d) && !Double.isInfinite(d)) {
                doubles.add(Double.toString(d));
            }
            doubles.add(Double.toString(Math.round(r.nextGaussian() * 1e6) / 1000.0));
        }
        compare(DataType.DOUBLE, doubles);
    }

    @Disabled("bug: PgTextFormat.formatFloat relies on Float.toString, which on JDK 17 is often not the shortest "
            + "round-trip representation (JDK-4511638, fixed in JDK 19): e.g. '-7.3017018E8'::real PostgreSQL "
            + "-7.301702e+08, Tributary -7.3017018e+08; '1.17549435e-38' PostgreSQL 1.1754944e-38; '1e-45' "
            + "PostgreSQL 1e-45, Tributary 1.4e-45. About 1 in 10 random floats differ")
    @Test
    void randomReals() throws SQLException {
        List<String> reals = new ArrayList<>(List.of("1.17549435e-38", "1e-45", "-7.3017018E8"));
        Random r = new Random(42);
        for (int i = 0; i < 300; i++) {
            float f = Float.intBitsToFloat(r.nextInt());
            if (!Float.isNaN(f) && !Float.isInfinite(f)) {
                reals.add(Float.toString(f));
            }
            reals.add(Float.toString(Math.round(r.nextGaussian() * 1e4) / 100f));
        }
        compare(DataType.REAL, reals);
    }

    @Test
    void datesTimesTimestamps() throws SQLException {
        compare(
                DataType.DATE,
                List.of(
                        "1970-01-01",
                        "2024-02-29",
                        "0001-01-01",
                        "9999-12-31",
                        "1899-12-31",
                        "20240315",
                        "2024-3-5",
                        "2024-03-15 10:20:30",
                        "2024-03-15T10:20",
                        "epoch",
                        "10000-01-01"));
        compare(
                DataType.TIME,
                List.of(
                        "00:00:00",
                        "12:34:56.5",
                        "12:34:56.123456",
                        "23:59:59.999999",
                        "24:00:00",
                        "1:2",
                        "12:34:56.1200",
                        "102030.5",
                        "10:20:60",
                        "2024-03-15 10:20:30",
                        "10:20:30+02",
                        "allballs"));
        compare(
                DataType.TIMESTAMP,
                List.of(
                        "2024-03-05 06:07:08.09",
                        "1969-12-31 23:59:59.999999",
                        "2000-01-01",
                        "2024-03-05T06:07:08",
                        "0001-01-01 00:00:00",
                        "20240315",
                        "20240315 102030",
                        "2024-03-15 24:00:00",
                        "2024-03-15 10:20:30+02",
                        "epoch"));
        compare(
                DataType.TIMESTAMPTZ,
                List.of(
                        "2024-03-05 06:07:08.09+00",
                        "2024-03-05 06:07:08+02",
                        "2024-03-05 06:07:08-05:30",
                        "2024-03-05 06:07:08Z",
                        "1970-01-01 00:00:00 UTC"));
    }

    @Test
    void intervals() throws SQLException {
        compare(
                DataType.INTERVAL,
                List.of(
                        "1 year 2 mons 3 days 04:05:06",
                        "0",
                        "00:00:00",
                        "1 day -01:00:00",
                        "-1 day",
                        "-1 year",
                        "-1 mon",
                        "-2 days",
                        "2 hours",
                        "90 minutes",
                        "1.5 seconds",
                        "-00:00:01",
                        "100:00:00",
                        "1 year -1 mon",
                        "-13 mons",
                        "-1 year 2 days",
                        "-1 mon 2 days 01:00:00",
                        "3 days 00:00:00.5",
                        "1 week",
                        "1 day ago"));
    }

    @Test
    void byteaAndText() throws SQLException {
        compare(DataType.BYTEA, List.of("\\x0a0b", "\\x", "\\x00FF80", "abc", "a\\\\b", "\\001\\002"));
        compare(DataType.TEXT, List.of("", " x ", "héllo", "\ud83d\ude00"));
        compare(DataType.varchar(3), List.of("abc", "ab", "abc  "));
    }

    /** SQLSTATE of PostgreSQL's {@code 'literal'::type}, or null when it succeeds. */
    private static String pgError(DataType type, String literal) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT ?::text::" + type.sqlName())) {
            ps.setString(1, literal);
            ps.executeQuery().close();
            return null;
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }

    @Test
    void errorCodes() throws SQLException {
        checkErrorCodes(new Object[][] {
            {DataType.INTEGER, "abc"}, {DataType.INTEGER, "1.5"}, {DataType.INTEGER, ""},
            {DataType.SMALLINT, "40000"}, {DataType.INTEGER, "2147483648"}, {DataType.BIGINT, "99999999999999999999"},
            // ('abcd'::varchar(3) truncates in PostgreSQL: an explicit cast, unlike assignment -> 22001)
            {DataType.DATE, "abc"}, {DataType.TIME, "25:00:00"}, {DataType.TIMESTAMP, "garbage"},
            {DataType.DOUBLE, "1.5x"}, {DataType.NUMERIC, "one"}, {DataType.numeric(3, 1), "100"},
            {DataType.BOOLEAN, "maybe"}, {DataType.INTERVAL, "1 fortnight"},
        });
    }

    @Test
    void errorCodesOfOutOfRangeAndBadHexInput() throws SQLException {
        checkErrorCodes(new Object[][] {
            {DataType.DATE, "2024-13-01"},
            {DataType.DATE, "2023-02-29"},
            {DataType.DATE, "0000-01-01"},
            {DataType.DATE, "2024-02-30 10:00"},
            {DataType.TIMESTAMP, "2024-13-01"},
            {DataType.TIMESTAMP, "2024-03-15 25:00"},
            {DataType.TIMESTAMP, "2024-03-15 24:00:01"},
            {DataType.TIME, "10:60:00"},
            {DataType.DATE, "2024-03-15 junk"},
            {DataType.TIME, "ab:cd"},
            {DataType.TIMESTAMP, "2024-03-15 10:20:30 +2x"},
            {DataType.DOUBLE, "1e400"},
            {DataType.REAL, "1e40"},
            {DataType.BYTEA, "\\x0"},
        });
    }

    private static void checkErrorCodes(Object[][] cases) throws SQLException {
        List<String> mismatches = new ArrayList<>();
        for (Object[] c : cases) {
            DataType type = (DataType) c[0];
            String lit = (String) c[1];
            String expected = pgError(type, lit);
            String actual;
            try {
                PgTextFormat.parse(type, lit);
                actual = null;
            } catch (TributaryException e) {
                actual = e.sqlState();
            }
            if (!java.util.Objects.equals(expected, actual)) {
                mismatches.add(
                        "'" + lit + "'::" + type.sqlName() + ": PostgreSQL " + expected + ", Tributary " + actual);
            }
        }
        assertEquals(List.of(), mismatches);
    }
}
