package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PostgreSQL's {@code infinity} and {@code -infinity} of date, timestamp and timestamptz (issue 12):
 * input and output, comparisons, ORDER BY, MIN/MAX, a primary key holding them, casts between the
 * three types (in queries, views and assignments), arithmetic with intervals and days, the
 * functions over them, and the errors of finite values past the types' ranges; the binary wire
 * format carries them to pgjdbc.
 */
class InfiniteDateTimesDifferentialTest {
    private static final String SETUP =
            "CREATE TABLE infd (k TIMESTAMP PRIMARY KEY, d DATE, tz TIMESTAMPTZ, n INT," + " iv INTERVAL)";

    private static final List<String> STATEMENTS = List.of(
            "SET TimeZone = 'UTC'",
            // constants: input, output and labels
            "SELECT 'infinity'::timestamp AS a, '-infinity'::timestamp AS b, 'infinity'::date AS c,"
                    + " 'INFINITY'::timestamptz AS d, '-infinity'::date AS e",
            "SELECT TIMESTAMP 'infinity', DATE '-infinity', TIMESTAMPTZ 'infinity'",
            "SELECT 'infinity'::timestamp::text AS a, DATE '-infinity'::text AS b, ('-inf' || 'inity')::date AS c",
            "SELECT 'infinity'::timestamp > '294000-01-01'::timestamp AS gt, '-infinity'::date < '0001-01-01'::date AS lt,"
                    + " 'infinity'::timestamptz = 'infinity'::timestamptz AS eq, 'infinity'::date > '-infinity'::date AS o",
            "SELECT isfinite('infinity'::date) AS a, isfinite('-infinity'::timestamp) AS b, isfinite(DATE '2024-01-01') AS c,"
                    + " isfinite('infinity'::timestamptz) AS d, isfinite(TIMESTAMP '2024-01-01 10:00') AS e",
            // casts between the three types keep infinity
            "SELECT 'infinity'::date::timestamp AS a, '-infinity'::timestamp::date AS b,"
                    + " 'infinity'::timestamp::timestamptz AS c, '-infinity'::timestamptz::timestamp AS d,"
                    + " 'infinity'::timestamptz::date AS e, '-infinity'::date::timestamptz AS f",
            // arithmetic keeps infinity
            "SELECT 'infinity'::timestamp + INTERVAL '1 day' AS a, '-infinity'::timestamptz - INTERVAL '1 month' AS b,"
                    + " 'infinity'::date + 1 AS c, '-infinity'::date - 7 AS d",
            // finite values past the ranges
            "SELECT '+infinity'::date",
            "SELECT '294277-01-01'::timestamp",
            "SELECT '294277-01-01 00:00:00+00'::timestamptz",
            "SELECT '5874898-01-01'::date",
            "SELECT '5874897-12-31'::date AS last",
            "SELECT '5874897-12-31'::date::timestamp",
            // stored, a primary key holding them
            "INSERT INTO infd VALUES ('infinity', '-infinity', 'infinity', 1, '1 day'),"
                    + " ('-infinity', 'infinity', '-infinity', 2, '-1 month'),"
                    + " ('2024-01-01 10:00:00.5', '2024-01-01', '2024-01-01 00:00:00+00', 3, '1 hour'),"
                    + " ('2024-06-01', NULL, NULL, NULL, NULL)",
            "INSERT INTO infd VALUES ('infinity', NULL, NULL, NULL, NULL)",
            "SELECT * FROM infd ORDER BY k",
            "SELECT k, d FROM infd ORDER BY d DESC NULLS LAST, k",
            "SELECT k FROM infd ORDER BY tz NULLS FIRST, k DESC",
            "SELECT min(k) AS a, max(k) AS b, min(d) AS c, max(d) AS e, min(tz) AS f, max(tz) AS g FROM infd",
            "SELECT n FROM infd WHERE k = 'infinity' OR d = '-infinity'::date ORDER BY n",
            "SELECT n FROM infd WHERE k > '2024-03-01' ORDER BY n",
            "SELECT k::text AS k, d::text AS d, tz::text AS tz FROM infd ORDER BY k",
            "SELECT k::date AS kd, d::timestamp AS dt, tz::timestamp AS tt, k::timestamptz AS kz, tz::date AS td,"
                    + " d::timestamptz AS dz FROM infd ORDER BY k",
            "SELECT isfinite(k) AS a, isfinite(d) AS b, isfinite(tz) AS c FROM infd ORDER BY k",
            // arithmetic with columns
            "SELECT k + iv AS a, k - iv AS b FROM infd ORDER BY k",
            "SELECT d + n AS e, d - n AS f FROM infd ORDER BY k",
            // functions of them
            "SELECT date_trunc('day', k) AS a, date_trunc('month', tz) AS b, date_trunc('year', d) AS c FROM infd ORDER BY k",
            "SELECT date_part('epoch', k) AS a, date_part('julian', d) AS b, date_part('second', k) AS c,"
                    + " date_part('microseconds', tz) AS e FROM infd ORDER BY k",
            "SELECT extract(second FROM k) AS a, extract(milliseconds FROM tz) AS b FROM infd ORDER BY k",
            "SELECT age(k, TIMESTAMP '2024-01-01') AS a FROM infd ORDER BY k",
            "SELECT to_char(k, 'YYYY-MM-DD') AS a, to_char(tz, 'HH24') AS b FROM infd ORDER BY k",
            "SELECT k - TIMESTAMP '2024-01-01' AS a FROM infd ORDER BY k",
            "SELECT k + INTERVAL '1 hour' AS a, tz - INTERVAL '1 day' AS b FROM infd ORDER BY k",
            "UPDATE infd SET n = n + 10 WHERE k = '-infinity'",
            "DELETE FROM infd WHERE k = '2024-06-01'",
            "SELECT k, n FROM infd ORDER BY k",
            // assignments across date, timestamp and timestamptz columns
            "CREATE TABLE infe (k DATE PRIMARY KEY, t TIMESTAMP, z TIMESTAMPTZ)",
            "INSERT INTO infe (k, t, z) SELECT k, d, k FROM infd WHERE d IS NOT NULL",
            "UPDATE infe SET t = z, z = k",
            "SELECT * FROM infe ORDER BY k",
            // a view
            "CREATE VIEW infview AS SELECT k, d::timestamp AS dt, k::date AS kd, tz::timestamp AS tt FROM infd",
            "SELECT * FROM infview ORDER BY k",
            // in another zone
            "SET TimeZone = 'America/New_York'",
            "SELECT tz, tz::timestamp AS l, k::timestamptz AS z, tz::text AS t, d::timestamptz AS dz FROM infd ORDER BY k",
            "SET TimeZone = 'UTC'");

    @RegisterExtension
    static final PostgresPairFixture PAIR = new PostgresPairFixture("infinity-diff-", SETUP);

    @Test
    void infinitiesBehaveAsPostgres() {
        assertEquals(List.of(), StatementOutcome.mismatches(PAIR.pg(), PAIR.tributary(), STATEMENTS));
    }

    /** The binary result format and binary parameters carry the infinities (PostgreSQL's encoding). */
    @Test
    void binaryFormatCarriesInfinities() throws SQLException {
        String query = "SELECT ?::timestamp AS t, ?::date AS d, ?::timestamptz AS z";
        assertEquals(binaryTexts(PAIR.pg(), query), binaryTexts(PAIR.tributary(), query));
    }

    /** A materialized view maintained over infinite values casts and compares them as PostgreSQL. */
    @Test
    void materializedViewsKeepInfinities() throws SQLException {
        String script = "CREATE TABLE infm (id INT PRIMARY KEY, t TIMESTAMP, d DATE);"
                + "INSERT INTO infm VALUES (1, 'infinity', '-infinity'), (2, '2024-01-01', '2024-01-01');"
                + "CREATE MATERIALIZED VIEW infm_v AS SELECT id, t::date AS td, d::timestamp AS dt,"
                + " t + INTERVAL '1 day' AS later, isfinite(t) AS fin FROM infm WHERE t > '2000-01-01';"
                + "CREATE MATERIALIZED VIEW infm_g AS SELECT max(t) AS hi, min(d) AS lo, count(*) AS n FROM infm;"
                + "INSERT INTO infm VALUES (3, '-infinity', 'infinity')";
        PAIR.runOnBoth(script);
        InProcessTributary.execScript(PAIR.pg(), "REFRESH MATERIALIZED VIEW infm_v; REFRESH MATERIALIZED VIEW infm_g");
        assertEquals(
                List.of(),
                StatementOutcome.mismatches(
                        PAIR.pg(),
                        PAIR.tributary(),
                        List.of("SELECT * FROM infm_v ORDER BY id", "SELECT * FROM infm_g")));
    }

    /** Each row's columns read with {@code getString} over the binary format, parameters bound as text. */
    private static List<String> binaryTexts(Connection c, String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(query)) {
            s.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(-1);
            for (String v : List.of("infinity", "-infinity")) {
                s.setString(1, v);
                s.setString(2, v);
                s.setString(3, v);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1) + "/" + rs.getString(2) + "/" + rs.getString(3) + "/"
                                + rs.getTimestamp(1).getTime() + "/"
                                + rs.getDate(2).getTime());
                    }
                }
            }
        }
        return out;
    }
}
