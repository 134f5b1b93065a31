package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * Columns declared {@code timestamp(p)}, {@code timestamptz(p)} and {@code time(p)} keep p fraction
 * digits as in PostgreSQL (issue 12): every INSERT, UPDATE and COPY value is rounded (halves away
 * from 1970, before 1970 too), and the catalogs show the precision ({@code format_type},
 * {@code pg_attribute.atttypmod}, {@code information_schema.columns.datetime_precision}).
 */
class TimePrecisionDifferentialTest {
    private static final String SETUP = "SET TimeZone = 'UTC';"
            + "CREATE TABLE tp (id INT PRIMARY KEY, t0 TIMESTAMP(0), t3 TIMESTAMP(3) WITHOUT TIME ZONE,"
            + " z0 TIMESTAMP(0) WITH TIME ZONE, z2 TIMESTAMPTZ(2), c1 TIME(1), c0 TIME(0) WITHOUT TIME ZONE,"
            + " t6 TIMESTAMP(6), t9 TIMESTAMP(9), plain TIMESTAMP)";

    private static final List<String> STATEMENTS = List.of(
            "INSERT INTO tp VALUES (1, '2024-01-01 12:00:00.5', '2024-01-01 12:00:00.1235',"
                    + " '2024-01-01 12:00:00.5+00', '2024-01-01 12:00:00.125+00', '10:00:00.05', '10:00:00.5',"
                    + " '2024-01-01 00:00:00.1234565', '2024-01-01 00:00:00.123456', '2024-01-01 12:00:00.5')",
            "INSERT INTO tp VALUES (2, '1960-01-01 00:00:00.5', '1960-01-01 00:00:00.0005',"
                    + " '1969-12-31 23:59:59.5+00', '1950-06-01 10:00:00.115+00', '23:59:59.94', '00:00:00.499999',"
                    + " NULL, NULL, '1960-01-01 00:00:00.5')",
            "INSERT INTO tp VALUES (3, '0044-03-15 10:00:00.5', '1999-12-31 23:59:59.9995',"
                    + " '2024-01-01 12:00:00.49+02', 'infinity', '23:59:59.96', '12:00:00.4', NULL, NULL, '-infinity')",
            "INSERT INTO tp (id, t0, t3, z0) SELECT 4, TIMESTAMP '2024-05-05 05:05:05.5',"
                    + " TIMESTAMP '2024-05-05 05:05:05.55555', TIMESTAMPTZ '2024-05-05 05:05:05.5+00'",
            "INSERT INTO tp (id, t0, z0) SELECT 5, plain, plain FROM tp WHERE id = 1",
            "INSERT INTO tp (id, t0, z2) VALUES (6, CAST('2024-06-06 06:06:06.7' AS timestamp), now())",
            "SELECT id, t0, t3, z0, z2, c1, c0, t6, t9, plain FROM tp WHERE id < 6 ORDER BY id",
            "SELECT id, t0::text AS t0, t3::text AS t3, c1::text AS c1 FROM tp WHERE id < 6 ORDER BY id",
            // now() (microseconds) stored in a timestamptz(2) keeps two digits
            "SELECT count(*) AS n FROM tp WHERE id = 6 AND extract(microseconds FROM z2) % 10000 = 0",
            "UPDATE tp SET t0 = t3, t3 = '2024-02-02 02:02:02.0004999', c0 = '08:00:00.5' WHERE id = 1",
            "UPDATE tp SET z2 = z0 + interval '0.005 seconds' WHERE id = 2",
            "SELECT id, t0, t3, z0, z2, c0 FROM tp WHERE id < 3 ORDER BY id",
            "SELECT id FROM tp WHERE t0 = '2024-01-01 12:00:01' ORDER BY id",
            // casts round halves away from PostgreSQL's epoch, 2000-01-01, not from 1970
            "SELECT '1990-01-01 00:00:00.5'::timestamp(0) AS a, '2010-01-01 00:00:00.5'::timestamp(0) AS b,"
                    + " '1999-12-31 23:59:59.5'::timestamp(0) AS c, '1969-12-31 23:59:59.5'::timestamp(0) AS d,"
                    + " '1985-06-01 12:00:00.125'::timestamp(2) AS e",
            // the precision in the catalogs
            "SELECT attname, atttypmod, format_type(atttypid, atttypmod) AS t FROM pg_attribute"
                    + " WHERE attrelid = 'tp'::regclass AND attnum > 0 ORDER BY attnum",
            "SELECT column_name, data_type, datetime_precision FROM information_schema.columns"
                    + " WHERE table_name = 'tp' ORDER BY ordinal_position",
            "SELECT format_type(1114, 0) AS a, format_type(1184, 3) AS b, format_type(1083, 6) AS c,"
                    + " format_type(1114, -1) AS d, format_type(1115, 2) AS e",
            // errors: a negative precision is a syntax error
            "CREATE TABLE tp_bad (t TIMESTAMP(-1))",
            "CREATE TABLE tp_bad (t TIME(-2))");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("tprec-diff-", 20, "postgres", "", 60);
        InProcessTributary.execScript(pg, SETUP);
        InProcessTributary.execScript(tributary.connection, SETUP);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void columnsWithAPrecisionRoundAndShowItAsPostgres() {
        assertEquals(List.of(), mismatches(STATEMENTS));
    }

    /**
     * Casts to {@code timestamptz(p)} (also spelled {@code timestamp(p) with time zone}), {@code
     * time(p)} and {@code interval(p)} round to p digits as PostgreSQL's do, constants and columns.
     */
    @Test
    void castsToAPrecisionRoundAsPostgres() {
        assertEquals(
                List.of(),
                mismatches(List.of(
                        "SELECT '2024-01-01 10:00:00.5+00'::timestamptz(0) AS a,"
                                + " CAST('2024-01-01 10:00:00.5+00' AS timestamp(0) with time zone) AS b,"
                                + " CAST('2024-01-01 10:00:00.125+02' AS timestamptz(2)) AS c,"
                                + " '1990-01-01 00:00:00.5+00'::timestamptz(0) AS d",
                        "SELECT '2024-01-01 10:00:00.5+00'::timestamptz(0)",
                        "SELECT CAST('2024-01-01 10:00:00.5+00' AS timestamp(0) with time zone)",
                        "SELECT '10:20:30.5'::time(0) AS a, CAST('10:20:30.125' AS time(2)) AS b,"
                                + " '23:59:59.5'::time(0) AS c, '10:20:30.44'::time(1) AS d",
                        "SELECT '10:20:30.5'::time(0)",
                        "SELECT '1.2345 seconds'::interval(2) AS a, '-1.5 seconds'::interval(0) AS b,"
                                + " '1 day 2 hours 0.125 seconds'::interval(2) AS c, '1 year 2.5 seconds'::interval(0) AS d",
                        "SELECT '1.2345 seconds'::interval(2)",
                        "SELECT id, z0::timestamptz(0) AS a, CAST(z2 AS timestamp(1) with time zone) AS b,"
                                + " t3::timestamp(1)::timestamptz(0) AS c FROM tp WHERE id < 6 ORDER BY id",
                        "SELECT z2::timestamptz(1) FROM tp WHERE id = 1",
                        "SELECT CAST(z2 AS timestamptz(1)) FROM tp WHERE id = 1")));
    }

    /**
     * An interval constant with a field qualifier, {@code INTERVAL '...' HOUR TO MINUTE} or {@code
     * '...'::interval day}, drops the fields below the qualifier's last (whole years for {@code
     * year}) and rounds {@code second(p)}, as PostgreSQL's typmod does.
     */
    @Test
    void intervalFieldQualifiersDropTheFieldsBelowAsPostgres() {
        assertEquals(
                List.of(),
                mismatches(List.of(
                        "SELECT INTERVAL '1 day 2 hours 3 minutes 4.5 seconds' HOUR TO MINUTE AS a,"
                                + " '1 year 2 months 3 days'::interval year AS b,"
                                + " '1 year 2 months 3 days 4 hours'::interval month AS c,"
                                + " '1 day 2 hours 3 minutes 4.5678 seconds'::interval day to second(1) AS d",
                        "SELECT '1 day 2 hours 3 minutes 4.5678 seconds'::interval second(2) AS a,"
                                + " '-1 day -2 hours -3 minutes'::interval hour AS b, INTERVAL '3 days 4 hours' DAY AS c,"
                                + " '1 day 2 hours 3 minutes 4.5678 seconds'::interval minute to second AS d",
                        "SELECT INTERVAL '1 day 2 hours 3 minutes 4.5 seconds' HOUR TO MINUTE",
                        "SELECT '2 hours 30 minutes ago'::interval hour AS a, '1.5 years'::interval year to month AS b,"
                                + " INTERVAL '3' HOUR AS c, INTERVAL '3:04' HOUR TO MINUTE AS d")));
    }

    /**
     * A precision above 6 gives PostgreSQL's WARNING (22023, one per type name) and behaves as 6:
     * compared as the statement's warnings, then its outcome. (PostgreSQL's CREATE TABLE sends each
     * column's warning twice, which Tributary does not.)
     */
    @Test
    void aPrecisionAboveSixWarnsAndIsSix() throws Exception {
        List<String> statements = List.of(
                "SELECT '2024-01-01 10:00:00.1234567'::timestamp(7) AS a, '10:20:30.5'::time(7) AS b",
                "SELECT '2024-01-01 10:00:00.5+00'::timestamptz(7) AS a,"
                        + " CAST('2024-01-01 10:00:00.5+00' AS timestamp(9) with time zone) AS b",
                "SELECT '1.2345 seconds'::interval(7) AS a, 'timestamp(9)' AS b /* time(8) */");
        List<String> out = new ArrayList<>();
        for (String sql : statements) {
            String expected = warnings(pg, sql);
            String actual = warnings(tributary.connection, sql);
            if (!expected.equals(actual)) {
                out.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        out.addAll(mismatches(statements));
        assertEquals(List.of(), out);
    }

    /** The warnings running {@code sql} gives, as SQLSTATE and message, then its outcome's SQLSTATE if it fails. */
    private static String warnings(Connection c, String sql) {
        StringBuilder out = new StringBuilder();
        try (java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
            for (java.sql.SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
                // the server's severity and message (pgjdbc's text adds the statement position PostgreSQL sends)
                org.postgresql.util.ServerErrorMessage m =
                        ((org.postgresql.util.PSQLWarning) w).getServerErrorMessage();
                out.append(w.getSQLState())
                        .append(' ')
                        .append(m.getSeverity())
                        .append(' ')
                        .append(m.getMessage())
                        .append("; ");
            }
        } catch (java.sql.SQLException e) {
            out.append(e.getSQLState());
        }
        return out.toString();
    }

    /** COPY FROM rounds to the column's precision too, and COPY TO prints the rounded value. */
    @Test
    void copyRoundsToTheColumnsPrecision() throws Exception {
        String table = "CREATE TABLE tpc (id INT PRIMARY KEY, t1 TIMESTAMP(1), z0 TIMESTAMPTZ(0), c2 TIME(2))";
        for (Connection c : List.of(pg, tributary.connection)) {
            InProcessTributary.execScript(c, "SET TimeZone = 'UTC';" + table);
            ((PGConnection) c)
                    .getCopyAPI()
                    .copyIn(
                            "COPY tpc FROM STDIN",
                            new java.io.StringReader(
                                    "1\t2024-03-03 03:03:03.05\t2024-03-03 03:03:03.5+00\t03:03:03.125\n"
                                            + "2\t1900-01-01 00:00:00.95\t1900-01-01 00:00:00.4999+00\t23:59:59.999\n"));
        }
        assertEquals(List.of(), mismatches(List.of("SELECT id, t1, z0, c2 FROM tpc ORDER BY id")));
    }

    /**
     * Query results keep a time precision where PostgreSQL's {@code exprTypmod} does: a column
     * read as it is and a cast to {@code timestamp(p)}; expressions are plain. A plain view's
     * columns keep them in the catalogs and when read. Compared as RowDescription's type and typmod (pgjdbc's scale of a time type is
     * its typmod, 6 for none).
     */
    @Test
    void queryResultsDescribeTheColumnsPrecision() throws Exception {
        String view =
                "CREATE VIEW tpv AS SELECT id, t3, z2, c1, t0::timestamp(1) AS t1, t3 + interval '1 hour' AS later"
                        + " FROM tp";
        InProcessTributary.execScript(pg, view);
        InProcessTributary.execScript(tributary.connection, view);
        List<String> queries = List.of(
                "SELECT t0, t3, z0, z2, c1, c0, t6, t9, plain FROM tp WHERE id < 6 ORDER BY id",
                "SELECT t3::timestamp(2) AS a, t3::timestamp(0) AS b, plain::timestamp AS d, c0::time AS e FROM tp"
                        + " ORDER BY id",
                "SELECT t3 + interval '1 second' AS a, max(t3) AS b FROM tp",
                "SELECT * FROM tpv WHERE id < 6 ORDER BY id");
        List<String> out = new ArrayList<>();
        for (String sql : queries) {
            String expected = described(pg, sql);
            String actual = described(tributary.connection, sql);
            if (!expected.equals(actual)) {
                out.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        // the view's columns as the catalogs show them
        out.addAll(mismatches(List.of(
                "SELECT attname, format_type(atttypid, atttypmod) AS t FROM pg_attribute"
                        + " WHERE attrelid = 'tpv'::regclass AND attnum > 0 ORDER BY attnum",
                "SELECT column_name, data_type, datetime_precision FROM information_schema.columns"
                        + " WHERE table_name = 'tpv' ORDER BY ordinal_position")));
        assertEquals(List.of(), out);
    }

    /** Each result column's label, type name and scale, then the rows as {@link StatementOutcome} shows them. */
    private static String described(Connection c, String sql) {
        StringBuilder out = new StringBuilder();
        try (java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery(sql)) {
            java.sql.ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.append(md.getColumnLabel(i))
                        .append(':')
                        .append(md.getColumnTypeName(i))
                        .append('(')
                        .append(md.getScale(i))
                        .append(") ");
            }
        } catch (java.sql.SQLException e) {
            out.append(e.getSQLState());
        }
        return out + StatementOutcome.of(c, sql, true);
    }

    private static List<String> mismatches(List<String> statements) {
        List<String> out = new ArrayList<>();
        for (String sql : statements) {
            String expected = StatementOutcome.of(pg, sql, true);
            String actual = StatementOutcome.of(tributary.connection, sql, true);
            if (!expected.equals(actual)) {
                out.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        return out;
    }
}
