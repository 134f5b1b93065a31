package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's formatting functions against embedded PostgreSQL: {@code to_char} of timestamps,
 * timestamptz (in several session zones), dates, intervals, numeric, int, bigint, real and double
 * precision under every template pattern (FM, TH, fill mode, 12/24 hours, AM/PM, ISO week fields,
 * signs, rounding, {@code #} overflow, EEEE, V, RN), {@code to_number}, {@code to_date} and
 * {@code to_timestamp} reading text (with the SQLSTATEs and messages of bad input and bad
 * templates), each answer compared as text with its type's name; and a materialized view using
 * {@code to_char} kept through changes, compared with PostgreSQL running its query.
 */
class FormattingFunctionsDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE fdt (id INT PRIMARY KEY, ts TIMESTAMP, d DATE, tz TIMESTAMPTZ)",
            "INSERT INTO fdt VALUES"
                    + " (1, '2024-02-29 13:45:59.123', '2024-02-29', '2024-02-29 13:45:59.123+00'),"
                    + " (2, '2000-01-01 00:00:00', '2000-01-01', '2000-01-01 00:00:00+00'),"
                    + " (3, '1999-12-31 23:59:59.999', '1999-12-31', '1999-12-31 23:59:59.999+00'),"
                    + " (4, '2024-01-01 12:00:00', '2024-01-01', '2024-07-01 12:00:00+00'),"
                    + " (5, '2021-01-03 00:00:01', '2021-01-03', '2021-01-03 00:00:01+00'),"
                    + " (6, '1970-01-01 00:00:00', '1970-01-01', '1970-01-01 00:00:00+00'),"
                    + " (7, '2008-12-29 07:08:09.5', '2008-12-29', '2008-12-29 07:08:09.5+00'),"
                    + " (8, '0001-01-01 00:00:00', '0001-01-01', '2024-03-31 01:30:00+00'),"
                    + " (9, '9999-12-31 23:59:59', '9999-12-31', '2024-10-27 00:59:59+00'),"
                    + " (10, '2010-01-03 23:00:00.01', '2010-01-03', '2010-01-03 23:00:00.01+00'),"
                    + " (11, '2023-07-11 11:59:59', '2023-07-11', '2023-11-05 06:30:00+00'),"
                    + " (12, NULL, NULL, NULL)",
            "CREATE TABLE fnum (id INT PRIMARY KEY, n NUMERIC, i INT, b BIGINT, f DOUBLE PRECISION, r REAL)",
            "INSERT INTO fnum VALUES (1, 1234.5, 1234, 1234, 1234.5, 1234.5),"
                    + " (2, -1234.567, -1234, -1234, -1234.567, -1234.567), (3, 0, 0, 0, 0, 0),"
                    + " (4, 0.5, 5, 5, 0.5, 0.5), (5, -0.5, -5, -5, -0.5, -0.5),"
                    + " (6, 99999.999, 99999, 99999, 99999.999, 99999.999),"
                    + " (7, 123456789.125, 123456789, 123456789012, 123456789.125, 12345.125),"
                    + " (8, 0.005, 12, -12, 0.005, 0.005), (9, -0.0049, -1, -1, -0.0049, -0.0049),"
                    + " (10, 1e10, 2147483647, -9223372036854775808, 1e10, 1e10),"
                    + " (11, 2.5, 3, 21, 2.5, 2.5), (12, 1.005, 11, 111, 1.005, 1.005),"
                    + " (13, NULL, NULL, NULL, NULL, NULL)",
            "CREATE TABLE fiv (id INT PRIMARY KEY, iv INTERVAL)",
            "INSERT INTO fiv VALUES (1, '1 day 02:03:04'), (2, '1 year 2 months 3 days'), (3, '25 hours'),"
                    + " (4, '-1 day -02:03:04.5'), (5, '14 months'), (6, '-3 years -1 month'), (7, '00:00:00'),"
                    + " (8, '100 days 12:00:00.25'), (9, NULL)");

    private static final List<String> DATE_TEMPLATES = List.of(
            "YYYY-MM-DD HH24:MI:SS",
            "YYYY-MM-DD HH12:MI:SS AM",
            "YYY YY Y",
            "IYYY-IW-ID",
            "IYY IY I IDDD",
            "Month DD, YYYY",
            "FMMonth FMDD, YYYY",
            "MONTH month Mon MON mon",
            "Day DAY day Dy DY dy",
            "FMDay, FMDDth FMMonth",
            "DDD D WW W Q",
            "J",
            "CC",
            "HH HH12 HH24 am pm A.M. p.m.",
            "MI:SS.MS US",
            "SSSS SSSSS",
            "FF1 FF2 FF3 FF4 FF5 FF6",
            "DDth DDTH MMth HH24th",
            "Y,YYY",
            "RM rm FMRM",
            "\"Quarter\" Q \"of\" YYYY",
            "YYYY\\\"MM\\\"DD",
            "HH24\\MI",
            "AD BC ad bc A.D. b.c.",
            "FXYYYY-MM-DD",
            "yyyy-mm-dd hh24:mi:ss",
            "Yyyy Mm Dd",
            "TMMonth TMDay",
            "FMHH12:FMMI FMAM",
            "YYYYMMDDHH24MISS",
            "ISO: IYYY \"W\"IW-ID",
            "DD/MM/YY",
            "\"literal \\\"quoted\\\" text\"",
            "FMDD FMMM FMYYYY FMHH24 FMMI FMSS FMMS FMUS",
            "WWth Qth Jth CCth",
            "IWth IDth SSSSth",
            "FMDDDth FMIDDDth FMWth",
            "");

    /** Templates of the zone fields, which read the session's TimeZone for a timestamptz or date. */
    private static final List<String> ZONE_TEMPLATES =
            List.of("YYYY-MM-DD HH24:MI:SS TZ OF", "TZH:TZM tz", "FMOF", "Day HH12 AM IYYY-IW-ID");

    private static final List<String> ZONES =
            List.of("'UTC'", "'America/New_York'", "'Asia/Kolkata'", "'Europe/Berlin'");

    private static final List<String> INTERVAL_TEMPLATES = List.of(
            "DD HH24:MI:SS",
            "YYYY MM DD",
            "HH HH12 HH24 MI SS MS US",
            "FMHH24 FMMI FMSS",
            "YYYY-MM",
            "DDD",
            "SSSS",
            "Mon",
            "Q CC",
            "Day",
            "TZ",
            "AM");

    private static final List<String> NUMBER_TEMPLATES = List.of(
            "9999.99",
            "99999",
            "999",
            "0000.00",
            "9990.99",
            "FM9999.99",
            "FM990.99",
            "FM9990",
            "S9999.99",
            "9999.99S",
            "9999MI",
            "9999.99PR",
            "FM9999.99PR",
            "SG9999",
            "PL9999",
            "9,999.99",
            "99G999D99",
            "FM9,999,999.99",
            "9.99EEEE",
            "9.9999EEEE",
            "99V99",
            "9999V9",
            "L9999.99",
            "\"n=\"9999.99",
            "99th",
            "FM99TH",
            "9.99",
            ".99",
            "FM0.00",
            "0099",
            "RN",
            "FMrn",
            "000",
            "9 9 9",
            "FMS9999",
            "FMMI9999",
            "999.999",
            "S0.9",
            "FM999MI");

    private static final List<String> SCALARS = List.of(
            "SELECT to_char(TIMESTAMP '2024-02-29 00:00:00', 'HH HH12 HH24 AM'),"
                    + " to_char(TIMESTAMP '2024-02-29 12:00:00', 'HH HH12 HH24 AM')",
            "SELECT to_char(TIMESTAMP '2024-02-29 13:45:59', 'YYYY-MM-DD TZ OF')",
            "SELECT to_char(DATE '2024-03-03', 'YYYY-MM-DD D ID Day')",
            "SELECT to_char(TIMESTAMP '2024-02-29 13:45:59', NULL), to_char(NULL::timestamp, 'YYYY')",
            "SELECT to_char(INTERVAL '1 day 02:03:04', 'DD HH24:MI:SS'), to_char(INTERVAL '14 months', 'YYYY-MM')",
            "SELECT to_char(INTERVAL '90 minutes', 'SSSS HH24 MI')",
            "SELECT to_char(1234.5, '9999.99'), to_number('12,345', '99,999')",
            "SELECT to_char(12.34::real, '99.999'), to_char(1e20::float8, '9999'),"
                    + " to_char(123456789012345678::float8, '999999999999999999.99')",
            "SELECT to_char(0.1::float8, '0.99999999999999999999'), to_char(2.5::float8, '9'),"
                    + " to_char(3.5::float8, '9')",
            "SELECT to_char('NaN'::float8, '9.99EEEE'), to_char('-1e-300'::float8, '9.99EEEE'),"
                    + " to_char(0::float8, '9.9EEEE')",
            "SELECT to_char('Infinity'::float8, '9999.99'), to_char('-Infinity'::float8, 'FM9999'),"
                    + " to_char('NaN'::float8, '999.9')",
            "SELECT to_char(123::smallint, '999th'), to_char(3999, 'RN'), to_char(4000, 'RN'), to_char(0, 'RN')",
            "SELECT to_char(-0.0::float8, '9.99'), to_char(999.995, '999.99'), to_char(-999.995::float8, '999.99')",
            "SELECT to_char(0::numeric, 'FM999,999,999.00'), to_char(0.000, 'FM999.00'), to_char(0, 'FM999.00'),"
                    + " to_char(0::float8, 'FM999.00'), to_char(0.5, 'FM999.00'), to_char(0.001, '999.00')",
            "SELECT to_char(1234, '9.9.9')",
            "SELECT to_char(1234, '9PR9')",
            "SELECT to_char(1234, 'S9S')",
            "SELECT to_char(1234, 'MIS9999')",
            "SELECT to_char(1234, '9V9.9')",
            "SELECT to_char(1234, '9EEEEPR')",
            "SELECT to_char(1234.5, 'FM9.99EEEE')",
            "SELECT to_char('x'::text, '999')",
            "SELECT to_char(true, '999')",
            "SELECT to_char(NULL, 'YYYY')",
            "SELECT to_char(1234, ''), to_char(INTERVAL '1 day', ''), to_timestamp(NULL), to_char(NULL::numeric, NULL)",
            "SELECT to_char(INTERVAL '1 day', 'Day')",
            "SELECT to_char(ts, 'YYYY') AS y, count(*) AS n FROM fdt GROUP BY to_char(ts, 'YYYY') ORDER BY 1",
            "SELECT to_char(d, 'Mon') AS m FROM fdt WHERE to_char(d, 'YYYY') > '2005' ORDER BY id");

    /** {@code to_number(text, template)}: readings, and input or templates PostgreSQL refuses. */
    private static final List<String[]> NUMBER_INPUTS = List.of(
            new String[] {"12,345", "99,999"},
            new String[] {"-12,345.67", "S99,999.99"},
            new String[] {"12.3456", "99.99"},
            new String[] {"12345", "99"},
            new String[] {" 123", "9999"},
            new String[] {"<123>", "999PR"},
            new String[] {"123-", "999MI"},
            new String[] {"1,234.5", "9G999D9"},
            new String[] {"$1,234", "L9,999"},
            new String[] {"0012", "0000"},
            new String[] {"12.5", "FM99.9"},
            new String[] {"12.5", "99.999"},
            new String[] {"-5", "S9"},
            new String[] {"abc", "999"},
            new String[] {"1.5e3", "9.9EEEE"},
            new String[] {"12", "RN"},
            new String[] {"", "999"},
            new String[] {"1 2 3", "9 9 9"},
            new String[] {"12.345", "99.999"},
            new String[] {"1234", "99V99"},
            new String[] {"+77", "S99"},
            new String[] {"-0", "9"},
            new String[] {"1.2.3", "9.9.9"});

    /** {@code to_date(text, template)}. */
    private static final List<String[]> DATE_INPUTS = List.of(
            new String[] {"2024-02-29", "YYYY-MM-DD"},
            new String[] {"29/02/2024", "DD/MM/YYYY"},
            new String[] {"20240229", "YYYYMMDD"},
            new String[] {"2023-02-29", "YYYY-MM-DD"},
            new String[] {"2024-13-01", "YYYY-MM-DD"},
            new String[] {"05 Dec 2000", "DD Mon YYYY"},
            new String[] {"December 5, 2000", "Month DD, YYYY"},
            new String[] {"2000 340", "YYYY DDD"},
            new String[] {"2451545", "J"},
            new String[] {"24-1-2", "YY-MM-DD"},
            new String[] {"99-1-2", "YY-MM-DD"},
            new String[] {"2024/2/9", "YYYY/MM/DD"},
            new String[] {"  2024  03 04", "YYYY MM DD"},
            new String[] {"2024-03-04 junk", "YYYY-MM-DD"},
            new String[] {"2024x03x04", "YYYY-MM-DD"},
            new String[] {"abcd-01-01", "YYYY-MM-DD"},
            new String[] {"2024-01", "YYYY-MM-DD"},
            new String[] {"2024", "YYYYMMDD"},
            new String[] {"Mon 2024-03-04", "Dy YYYY-MM-DD"},
            new String[] {"2024-03-04", "FXYYYY-MM-DD"},
            new String[] {"1,999 12 31", "Y,YYY MM DD"},
            new String[] {"2024 XII 25", "YYYY RM DD"},
            new String[] {"2024-Foo-01", "YYYY-Mon-DD"},
            new String[] {"2024-02-30", "YYYY-MM-DD"},
            new String[] {"2024-00-10", "YYYY-MM-DD"},
            new String[] {"21 1", "CC YY"},
            new String[] {"2024-03-04", "YYYY-MM-DD HH24"},
            new String[] {"2024 10 3", "IYYY IW ID"},
            new String[] {"2024-03-04 2024-03-05", "YYYY-MM-DD YYYY-MM-DD"},
            new String[] {"2024-03-04", "YYYY-MM-DD TZ"});

    /** {@code to_timestamp(text, template)}, read in the session's zone (UTC) unless it gives an offset. */
    private static final List<String[]> TIMESTAMP_INPUTS = List.of(
            new String[] {"2024-02-29 13:45:59", "YYYY-MM-DD HH24:MI:SS"},
            new String[] {"2024-02-29 01:45:59 PM", "YYYY-MM-DD HH12:MI:SS AM"},
            new String[] {"2024-02-29 12:00:00 am", "YYYY-MM-DD HH:MI:SS am"},
            new String[] {"2024-02-29 13:45", "YYYY-MM-DD HH12:MI"},
            new String[] {"2024-02-29 24:00:00", "YYYY-MM-DD HH24:MI:SS"},
            new String[] {"2024-02-29 10:61:00", "YYYY-MM-DD HH24:MI:SS"},
            new String[] {"2024-02-29 13:45:59.123", "YYYY-MM-DD HH24:MI:SS.MS"},
            new String[] {"2024-02-29 13:45:59.5", "YYYY-MM-DD HH24:MI:SS.MS"},
            new String[] {"2024-02-29 13:45:59.12", "YYYY-MM-DD HH24:MI:SS.US"},
            new String[] {"2024-02-29 13:45:59 +05:30", "YYYY-MM-DD HH24:MI:SS TZH:TZM"},
            new String[] {"2024-02-29 13:45:59 -03", "YYYY-MM-DD HH24:MI:SS TZH"},
            new String[] {"2024-02-29 50000", "YYYY-MM-DD SSSS"},
            new String[] {"20240229134559", "YYYYMMDDHH24MISS"},
            new String[] {"2024-02-29T13:45:59", "YYYY-MM-DD\"T\"HH24:MI:SS"},
            new String[] {"13:45 2024-02-29", "HH24:MI YYYY-MM-DD"},
            new String[] {"2024-02-29 13:45:59 UTC", "YYYY-MM-DD HH24:MI:SS TZ"},
            new String[] {"2024-02-29 1 2 3", "YYYY-MM-DD HH24 MI SS"},
            new String[] {"2024-02-29 99", "YYYY-MM-DD HH24"},
            new String[] {"2024-02-29 13", "YYYY-MM-DD HH12"},
            new String[] {"2024-02-29 0 PM", "YYYY-MM-DD HH12 PM"},
            new String[] {"2024-02-29 11:30 p.m.", "YYYY-MM-DD HH:MI a.m."},
            new String[] {"2024-02-29 13:45:59.123456", "YYYY-MM-DD HH24:MI:SS.FF3"});

    private static final List<String> EPOCHS =
            List.of("0", "1709214359.5", "-1", "1e9", "'NaN'::float8", "86400", "1709214359", "1709214359.25::numeric");

    private static final List<String> ROUND_TRIPS = List.of(
            "SELECT to_date(NULL, 'YYYY'), to_timestamp('2024', NULL), to_number(NULL, '9')",
            "SELECT to_date(to_char(d, 'YYYY-MM-DD'), 'YYYY-MM-DD') = d AS same FROM fdt ORDER BY id",
            "SELECT id, to_date(to_char(ts, 'DD Mon YYYY'), 'DD Mon YYYY') AS d,"
                    + " to_timestamp(to_char(ts, 'YYYY-MM-DD HH24:MI:SS'), 'YYYY-MM-DD HH24:MI:SS') AS t"
                    + " FROM fdt ORDER BY id",
            "SELECT id, to_number(to_char(n, 'FM999999999999.999'), '999999999999.999') AS n FROM fnum ORDER BY id",
            "SELECT to_date(42, 'YYYY')",
            "SELECT to_timestamp('2024-01-01', 7)");

    /** How outcomes are compared: types by name, errors with their messages. */
    private static final ComparedOutcomes OUTCOMES = new ComparedOutcomes(false, false);

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("formatting-diff-");
        assertEquals(List.of(), OUTCOMES.mismatches(pair.pg, pair.tributary.connection, SETUP));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void toCharOfDatesAndTimesAnswersAsPostgres() {
        List<String> statements = new ArrayList<>();
        for (String template : DATE_TEMPLATES) {
            statements.add("SELECT id, to_char(ts, " + literal(template) + ") AS c FROM fdt ORDER BY id");
        }
        for (String template : List.of("YYYY-MM-DD Day", "IYYY-IW-ID J", "FMMonth DDth, YYYY", "HH24:MI:SS.US AM")) {
            statements.add("SELECT id, to_char(d, " + literal(template) + ") AS c FROM fdt ORDER BY id");
        }
        for (String template : INTERVAL_TEMPLATES) {
            statements.add("SELECT id, to_char(iv, " + literal(template) + ") AS c FROM fiv ORDER BY id");
        }
        assertNoMismatches(statements);
    }

    @Test
    void toCharOfTimestamptzAndDatesFollowsTheSessionZone() {
        List<String> mismatches = new ArrayList<>();
        for (String zone : ZONES) {
            List<String> statements = new ArrayList<>();
            statements.add("SET TIME ZONE " + zone);
            for (String template : ZONE_TEMPLATES) {
                statements.add("SELECT id, to_char(tz, " + literal(template) + ") AS c, to_char(d, " + literal(template)
                        + ") AS e FROM fdt ORDER BY id");
            }
            for (String[] input : TIMESTAMP_INPUTS.subList(0, 3)) {
                statements.add("SELECT to_timestamp(" + literal(input[0]) + ", " + literal(input[1]) + ")");
            }
            for (String sql : OUTCOMES.mismatches(pair.pg, pair.tributary.connection, statements)) {
                mismatches.add(zone + ": " + sql);
            }
        }
        pair.both("SET TIME ZONE 'UTC'");
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void toCharOfNumbersAnswersAsPostgres() {
        List<String> statements = new ArrayList<>();
        for (String template : NUMBER_TEMPLATES) {
            String t = literal(template);
            statements.add("SELECT id, to_char(n, " + t + ") AS n, to_char(i, " + t + ") AS i, to_char(b, " + t
                    + ") AS b FROM fnum ORDER BY id");
            statements.add("SELECT id, to_char(f, " + t + ") AS f, to_char(r, " + t + ") AS r FROM fnum ORDER BY id");
        }
        statements.addAll(SCALARS);
        assertNoMismatches(statements);
    }

    @Test
    void parsingFunctionsAnswerAsPostgres() {
        List<String> statements = new ArrayList<>();
        for (String[] input : NUMBER_INPUTS) {
            statements.add("SELECT to_number(" + literal(input[0]) + ", " + literal(input[1]) + ")");
        }
        for (String[] input : DATE_INPUTS) {
            statements.add("SELECT to_date(" + literal(input[0]) + ", " + literal(input[1]) + ")");
        }
        for (String[] input : TIMESTAMP_INPUTS) {
            statements.add("SELECT to_timestamp(" + literal(input[0]) + ", " + literal(input[1]) + ")");
        }
        for (String seconds : EPOCHS) {
            statements.add("SELECT to_timestamp(" + seconds + ")");
        }
        statements.addAll(ROUND_TRIPS);
        assertNoMismatches(statements);
    }

    /**
     * A materialized view formatting timestamps, dates and numbers (grouping by one of them) is
     * maintained as rows come, change and go: after each write it holds what PostgreSQL's query
     * answers over the same rows.
     */
    @Test
    void materializedViewUsingToCharIsMaintained() {
        String query = "SELECT to_char(d, 'YYYY-\"Q\"Q') AS quarter, count(*) AS n,"
                + " to_char(sum(n), 'FM999,999,999.00') AS total, max(to_char(ts, 'FMDay HH12:MI AM')) AS latest"
                + " FROM fdt JOIN fnum USING (id) GROUP BY to_char(d, 'YYYY-\"Q\"Q')";
        List<String> changes = List.of(
                "INSERT INTO fdt VALUES (20, '2024-05-05 17:00:00', '2024-05-05', NULL)",
                "INSERT INTO fnum VALUES (20, 4321.125, 1, 1, 1, 1)",
                "UPDATE fnum SET n = -17.5 WHERE id = 1",
                "UPDATE fdt SET d = '2024-12-24', ts = '2024-12-24 08:15:00' WHERE id = 4",
                "DELETE FROM fdt WHERE id = 2",
                "DELETE FROM fnum WHERE id = 20");
        String created = OUTCOMES.of(pair.tributary.connection, "CREATE MATERIALIZED VIEW fmt_mv AS " + query);
        assertFalse(created.startsWith("ERROR"), created);
        List<String> mismatches = new ArrayList<>();
        for (String change : changes) {
            pair.both(change);
            String expected = OUTCOMES.of(pair.pg, "SELECT * FROM (" + query + ") q ORDER BY quarter");
            String actual = OUTCOMES.of(pair.tributary.connection, "SELECT * FROM fmt_mv ORDER BY quarter");
            if (!expected.equals(actual)) {
                mismatches.add(change + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    private static void assertNoMismatches(List<String> statements) {
        List<String> mismatches = OUTCOMES.mismatches(pair.pg, pair.tributary.connection, statements);
        assertEquals(
                List.of(),
                mismatches,
                mismatches.size() + " of " + statements.size() + " differ:\n" + String.join("\n", mismatches));
    }

    /** {@code s} as an SQL string literal. */
    private static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
