package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;

/**
 * Timestamps and timestamptz keep their microseconds as in PostgreSQL (issue 12): constants,
 * casts from text, values stored by INSERT, parameters and COPY, read back, compared, sorted,
 * grouped, moved by intervals, subtracted ({@code timestamp - timestamp}, {@code age}), truncated,
 * formatted and kept by materialized views; the binary
 * wire format carries them to pgjdbc's {@code getTimestamp}.
 */
class MicrosecondTimestampsDifferentialTest {
    private static final String SETUP = "CREATE TABLE tsx (id INT PRIMARY KEY, t TIMESTAMP, tz TIMESTAMPTZ)";

    private static final List<String> STATEMENTS = List.of(
            "SET TimeZone = 'UTC'",
            // constants and casts from text
            "SELECT '2024-01-01 12:00:00.123456'::timestamp AS a, '2024-01-01 12:00:00.123456+02'::timestamptz AS b",
            "SELECT TIMESTAMP '2024-01-01 12:00:00.000001' AS a, CAST('1999-12-31 23:59:59.999999' AS timestamp) AS b",
            "SELECT TIMESTAMPTZ '2024-01-01 12:00:00.654321-03' AS a",
            "SELECT ('2024-01-01 12:00:00.' || '123456')::timestamp AS a",
            "SELECT '2024-01-01 12:00:00.123456'::timestamp::text AS a",
            "SELECT '2024-01-01 12:00:00.1234567'::timestamp AS rounded",
            // stored by INSERT ... VALUES, read back
            "INSERT INTO tsx VALUES (1, '2024-01-01 12:00:00.123456', '2024-01-01 12:00:00.123456'),"
                    + " (2, '2024-01-01 12:00:00.123455', '2024-01-01 12:00:00.123457+00'),"
                    + " (3, '2024-01-01 12:00:00.1234', '2024-01-01 12:00:00.1234+01'),"
                    + " (4, NULL, NULL)",
            "SELECT id, t, tz FROM tsx ORDER BY id",
            "SELECT id, t::text AS t, tz::text AS tz FROM tsx ORDER BY id",
            // comparisons, ORDER BY, GROUP BY, DISTINCT of values that differ only in microseconds
            "SELECT id FROM tsx WHERE t = '2024-01-01 12:00:00.123456' ORDER BY id",
            "SELECT id FROM tsx WHERE t > TIMESTAMP '2024-01-01 12:00:00.123455' ORDER BY id",
            "SELECT id FROM tsx WHERE t IN ('2024-01-01 12:00:00.123455', '2024-01-01 12:00:00.1234') ORDER BY id",
            "SELECT id FROM tsx WHERE tz BETWEEN '2024-01-01 12:00:00.123456+00' AND '2024-01-01 12:00:00.123457+00'"
                    + " ORDER BY id",
            "SELECT id FROM tsx ORDER BY t DESC NULLS LAST, id",
            "SELECT id FROM tsx ORDER BY tz, id",
            "SELECT count(DISTINCT t) AS n, min(t) AS lo, max(t) AS hi, max(tz) AS hz FROM tsx",
            "SELECT t, count(*) AS n FROM tsx GROUP BY t ORDER BY t",
            "SELECT DISTINCT date_trunc('second', t) AS s FROM tsx ORDER BY 1",
            "SELECT a.id, b.id AS other FROM tsx a JOIN tsx b ON a.t < b.t ORDER BY 1, 2",
            // written from a query
            "CREATE TABLE tsy (id INT PRIMARY KEY, t TIMESTAMP, tz TIMESTAMPTZ)",
            "INSERT INTO tsy SELECT id + 10, t, tz FROM tsx",
            "UPDATE tsy SET t = t + INTERVAL '1 hour' WHERE id = 11",
            "SELECT id, t, tz FROM tsy ORDER BY id",
            // arithmetic with Calcite's intervals
            "SELECT t + INTERVAL '1 day' AS a, t - INTERVAL '2 hours' AS b, t + INTERVAL '1 month' AS c"
                    + " FROM tsx WHERE id = 1",
            "SELECT '2024-01-31 10:00:00.500001'::timestamp + INTERVAL '1 month' AS a",
            // PostgreSQL's intervals finer than a millisecond
            "SELECT t + INTERVAL '1 microsecond' AS a, t - INTERVAL '0.000002 seconds' AS b,"
                    + " t + '1 day 00:00:00.000999'::interval AS c FROM tsx ORDER BY id",
            // the fields and formats of the fraction
            "SELECT extract(microseconds FROM t) AS us, extract(milliseconds FROM t) AS ms, extract(epoch FROM t) AS e,"
                    + " date_part('microseconds', tz) AS dp, extract(second FROM tz) AS s FROM tsx ORDER BY id",
            "SELECT to_char(t, 'YYYY-MM-DD HH24:MI:SS.US MS') AS a, to_char(tz, 'HH24:MI:SS.US') AS b FROM tsx ORDER BY id",
            "SELECT date_trunc('microseconds', t) AS a, date_trunc('milliseconds', tz) AS b FROM tsx ORDER BY id",
            // far from 1970
            "SELECT extract(microseconds FROM TIMESTAMP '0044-03-15 10:00:00.123456') AS a,"
                    + " date_part('epoch', TIMESTAMP '1969-12-31 23:59:58.5') AS b,"
                    + " to_char(TIMESTAMP '1900-01-01 00:00:00.000001', 'YYYY US') AS d,"
                    + " extract(milliseconds FROM TIMESTAMPTZ '1960-01-01 00:00:00.25+00') AS e",
            "SELECT TIMESTAMP '1582-10-04 10:00:00.999999' + INTERVAL '1 microsecond' AS c,"
                    + " TIMESTAMP '0001-01-01 00:00:00.000001' - INTERVAL '1 microsecond' AS d",
            "SELECT to_timestamp(1704110400.123456) AS a, to_timestamp('2024-05-06 12:00:00.654321', 'YYYY-MM-DD HH24:MI:SS.US') AS b",
            "SELECT date_trunc('milliseconds', t) AS ms, date_trunc('second', t) AS s, date_trunc('hour', tz) AS h"
                    + " FROM tsx ORDER BY id",
            "SELECT t::date AS d, tz::timestamp AS l, t::timestamptz AS z FROM tsx ORDER BY id",
            "SELECT coalesce(t, '2000-01-01 00:00:00.000001') AS c, greatest(t, '2024-01-01 12:00:00.1234565') AS g"
                    + " FROM tsx ORDER BY id",
            "SELECT CASE WHEN id = 1 THEN t ELSE '2001-02-03 04:05:06.070809' END AS c FROM tsx ORDER BY id",
            "SELECT * FROM (VALUES (TIMESTAMP '2024-01-01 00:00:00.000007'), (TIMESTAMP '2024-01-01 00:00:00.000003'))"
                    + " AS v(x) ORDER BY x",
            "SELECT x FROM generate_series(TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 00:00:02',"
                    + " INTERVAL '1 second') AS x ORDER BY 1",
            // AT TIME ZONE
            "SELECT t AT TIME ZONE 'America/New_York' AS a, tz AT TIME ZONE 'Asia/Kolkata' AS b,"
                    + " tz AT TIME ZONE INTERVAL '-02:00' AS c FROM tsx ORDER BY id",
            // current_timestamp(p) is now() rounded to p digits
            "SELECT extract(microseconds FROM current_timestamp(3)) % 1000 = 0 AS rounded,"
                    + " extract(microseconds FROM current_timestamp(5)) % 10 = 0 AS rounded5",
            // window frames by a timestamp's range, row values
            "CREATE TABLE tsw (id INT PRIMARY KEY, t TIMESTAMP)",
            "INSERT INTO tsw VALUES (1, '2024-01-01 10:00:00'), (2, '2024-01-01 10:30:00.000001'),"
                    + " (3, '2024-01-01 11:00:00.000001')",
            "SELECT id, count(*) OVER (ORDER BY t RANGE BETWEEN INTERVAL '30 minutes' PRECEDING AND CURRENT ROW) AS n"
                    + " FROM tsw ORDER BY id",
            "SELECT ROW(id, t) AS r, ARRAY[t] AS a FROM tsx WHERE id = 1",
            // typmods round as PostgreSQL
            "SELECT '2024-01-01 12:00:00.123456'::timestamp(3) AS a, '2024-01-01 12:00:00.5'::timestamp(0) AS b,"
                    + " '2024-01-01 12:00:00.125'::timestamp(2) AS c, '1960-01-01 12:00:00.125'::timestamp(2) AS d",
            "SELECT t::timestamp(4) AS t4, CAST(t AS timestamp(1)) AS t1 FROM tsx ORDER BY id",
            // extract beside date arithmetic, which is rewritten after a failed validation (the epoch lost its
            // fraction and became an integer)
            "SELECT id, t::date - DATE '2000-01-01' AS days, extract(epoch FROM t) AS e, date_part('second', t) AS s"
                    + " FROM tsx ORDER BY id",
            "SELECT id, t::date + 30 AS later, extract(microseconds FROM t) AS us FROM tsx ORDER BY id");

    @RegisterExtension
    static final PostgresPairFixture PAIR = new PostgresPairFixture("micros-diff-", SETUP);

    @Test
    void timestampsKeepTheirMicrosecondsAsPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(PAIR.pg(), PAIR.tributary(), STATEMENTS));
    }

    /** Parameters, COPY and the binary result format carry the microseconds. */
    @Test
    void parametersCopyAndBinaryResultsKeepMicroseconds() throws Exception {
        String table = "CREATE TABLE tsp (id INT PRIMARY KEY, t TIMESTAMP, tz TIMESTAMPTZ)";
        List<String> mismatches = new ArrayList<>();
        for (Connection c : List.of(PAIR.pg(), PAIR.tributary())) {
            InProcessTributary.execScript(c, table);
            try (PreparedStatement insert =
                    c.prepareStatement("INSERT INTO tsp VALUES (?, ?::timestamp, ?::timestamptz)")) {
                insert.setInt(1, 1);
                insert.setString(2, "2024-01-01 12:00:00.123456");
                insert.setString(3, "2024-01-01 12:00:00.654321+00");
                insert.executeUpdate();
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO tsp VALUES (?, ?, ?)")) {
                java.sql.Timestamp ts = java.sql.Timestamp.valueOf("2024-02-02 01:02:03.000009");
                insert.setInt(1, 2);
                insert.setTimestamp(2, ts);
                insert.setObject(3, java.time.OffsetDateTime.parse("2024-02-02T01:02:03.000011Z"));
                insert.executeUpdate();
            }
            ((PGConnection) c)
                    .getCopyAPI()
                    .copyIn(
                            "COPY tsp FROM STDIN",
                            new java.io.StringReader("3\t2024-03-03 03:03:03.030303\t2024-03-03 03:03:03.303030+00\n"));
        }
        List<String> reads = List.of(
                "SELECT id, t, tz FROM tsp ORDER BY id",
                "SELECT id FROM tsp WHERE t = '2024-02-02 01:02:03.000009'",
                "SELECT id, extract(microseconds FROM t) AS us FROM tsp ORDER BY id");
        mismatches.addAll(StatementOutcome.mismatches(PAIR.pg(), PAIR.tributary(), reads));
        String query = "SELECT t, tz FROM tsp WHERE id > ? ORDER BY id";
        assertEquals(List.of(), mismatches);
        assertEquals(binaryNanos(PAIR.pg(), query), binaryNanos(PAIR.tributary(), query));
    }

    /** A materialized view maintained over such columns keeps the microseconds of its rows. */
    @Test
    void materializedViewsKeepMicroseconds() throws SQLException {
        String script = "CREATE TABLE tsv (id INT PRIMARY KEY, t TIMESTAMP);"
                + "INSERT INTO tsv VALUES (1, '2024-01-01 12:00:00.123456'), (2, '2024-01-01 12:00:00.123457');"
                + "CREATE MATERIALIZED VIEW tsv_m AS SELECT id, t, t + INTERVAL '1 day' AS tomorrow FROM tsv"
                + " WHERE t > '2024-01-01 12:00:00.123456';"
                + "CREATE MATERIALIZED VIEW tsv_g AS SELECT max(t) AS hi, count(*) AS n FROM tsv;"
                + "CREATE MATERIALIZED VIEW tsv_f AS SELECT id, extract(microseconds FROM t) AS us,"
                + " date_trunc('milliseconds', t) AS ms FROM tsv;"
                + "CREATE MATERIALIZED VIEW tsv_p AS SELECT id, t + INTERVAL '1 microsecond' AS later FROM tsv;"
                + "CREATE MATERIALIZED VIEW tsv_d AS SELECT id, t - TIMESTAMP '1999-12-31 23:59:59.999999' AS since,"
                + " age(TIMESTAMP '1960-01-01 00:00:00.5', t) AS ago FROM tsv;"
                + "INSERT INTO tsv VALUES (3, '2024-01-01 12:00:00.123458')";
        PAIR.runOnBoth(script);
        // PostgreSQL's views are computed when refreshed; Tributary's kept through the last INSERT
        InProcessTributary.execScript(
                PAIR.pg(),
                "REFRESH MATERIALIZED VIEW tsv_m; REFRESH MATERIALIZED VIEW tsv_g; REFRESH MATERIALIZED VIEW tsv_f;"
                        + " REFRESH MATERIALIZED VIEW tsv_p; REFRESH MATERIALIZED VIEW tsv_d");
        List<String> views = List.of(
                "SELECT * FROM tsv_m ORDER BY id",
                "SELECT * FROM tsv_g",
                "SELECT * FROM tsv_f ORDER BY id",
                "SELECT * FROM tsv_p ORDER BY id",
                "SELECT * FROM tsv_d ORDER BY id");
        List<String> mismatches = StatementOutcome.mismatches(PAIR.pg(), PAIR.tributary(), views);
        assertEquals(List.of(), mismatches);
    }

    /** {@code now()} has microseconds (PostgreSQL's clock does): not every reading is a whole millisecond. */
    @Test
    void nowHasMicroseconds() throws SQLException {
        boolean finer = false;
        try (Statement s = PAIR.tributary().createStatement()) {
            for (int i = 0; i < 20 && !finer; i++) {
                try (ResultSet rs = s.executeQuery("SELECT extract(microseconds FROM now()) % 1000 AS us")) {
                    rs.next();
                    finer = rs.getBigDecimal(1).signum() != 0;
                }
            }
        }
        assertTrue(finer, "now() is always a whole millisecond");
    }

    /** {@code getTimestamp} of each row's columns over the binary format: the nanoseconds. */
    private static List<String> binaryNanos(Connection c, String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(query)) {
            s.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(-1);
            s.setInt(1, 0);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getTimestamp(1).getNanos() + "/"
                            + rs.getTimestamp(2).getNanos());
                }
            }
        }
        return out;
    }
}
