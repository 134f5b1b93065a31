package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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

    @RegisterExtension
    static final PostgresPairFixture PAIR = new PostgresPairFixture("tprec-diff-", SETUP);

    @Test
    void columnsWithAPrecisionRoundAndShowItAsPostgres() {
        assertEquals(List.of(), mismatches(STATEMENTS));
    }

    /** COPY FROM rounds to the column's precision too, and COPY TO prints the rounded value. */
    @Test
    void copyRoundsToTheColumnsPrecision() throws Exception {
        String table = "CREATE TABLE tpc (id INT PRIMARY KEY, t1 TIMESTAMP(1), z0 TIMESTAMPTZ(0), c2 TIME(2))";
        for (Connection c : List.of(PAIR.pg(), PAIR.tributary())) {
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
     * columns keep them in the catalogs. Compared as RowDescription's type and typmod (pgjdbc's scale of a time type is
     * its typmod, 6 for none).
     */
    @Test
    void queryResultsDescribeTheColumnsPrecision() throws Exception {
        String view =
                "CREATE VIEW tpv AS SELECT id, t3, z2, c1, t0::timestamp(1) AS t1, t3 + interval '1 hour' AS later"
                        + " FROM tp";
        PAIR.runOnBoth(view);
        List<String> queries = List.of(
                "SELECT t0, t3, z0, z2, c1, c0, t6, t9, plain FROM tp WHERE id < 6 ORDER BY id",
                "SELECT t3::timestamp(2) AS a, t3::timestamp(0) AS b, plain::timestamp AS d, c0::time AS e FROM tp"
                        + " ORDER BY id",
                "SELECT t3 + interval '1 second' AS a, max(t3) AS b FROM tp");
        List<String> out = new ArrayList<>(StatementOutcome.mismatches(
                PAIR.pg(), PAIR.tributary(), queries, TimePrecisionDifferentialTest::described));
        // the view's columns as the catalogs show them (reading the view is still plain timestamp)
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
        return StatementOutcome.mismatches(PAIR.pg(), PAIR.tributary(), statements);
    }
}
