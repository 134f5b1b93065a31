package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A string constant (type unknown) beside a typed operand, against embedded PostgreSQL: it is read
 * as the other operand's type ({@code bo = 't'}, {@code nu + '2.25'}, {@code ts - '2020-01-01'}),
 * as an interval where no operator of two such values exists ({@code ts + '1 day'}, {@code iv >
 * '1 hour'}), as a double precision factor ({@code iv * '2'}) or function argument ({@code
 * abs('-3')}), and {@code date + '1'} is ambiguous (42725). Each statement's outcome is compared
 * exactly: rows with labels and JDBC types, or SQLSTATE, message and HINT. Queries, and a
 * materialized view kept through writes.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class UnknownConstantsDifferentialTest {
    private static final String SETUP =
            "CREATE TABLE u (id INT PRIMARY KEY, bo BOOLEAN, nu NUMERIC(10, 2), iv INTERVAL, dt DATE, ts TIMESTAMP,"
                    + " tm TIME, d DOUBLE PRECISION);"
                    + "INSERT INTO u VALUES (1, true, 1.5, INTERVAL '1 day', DATE '2024-01-01',"
                    + " TIMESTAMP '2024-01-01 10:00:00', TIME '10:00', 2.5),"
                    + " (2, false, -4.25, INTERVAL '2 hours', DATE '2024-03-01', TIMESTAMP '2024-03-01 23:30:00',"
                    + " TIME '23:30', -1.5), (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL)";

    private static final List<String> QUERIES = List.of(
            "SELECT true = 't', false = 'off', 'yes' = true, true <> 'n', 'on' = false",
            "SELECT id FROM u WHERE bo = 't' ORDER BY id",
            "SELECT id FROM u WHERE bo = ' FALSE ' ORDER BY id",
            "SELECT id, bo <> '1' AS x FROM u ORDER BY id",
            "SELECT id FROM u WHERE bo = 'maybe'",
            "SELECT 1.5 + '2', '2' + 1.5, 1.5 * '2', 2.5 - '0.25', 10.0 / '4'",
            "SELECT id, nu + '1' AS a, nu * '2.5' AS b, '0.125' - nu AS c FROM u ORDER BY id",
            "SELECT nu + 'abc' FROM u",
            "SELECT 2 - '0.5'",
            "SELECT abs('-3'), round('2.5'), round('3.5'), ceil('2.1'), floor('-1.5'), sign('-2'), sqrt('4'),"
                    + " exp('0'), ln('1'), log10('100'), log('1000')",
            "SELECT round('2.345', 2), trunc('2.345', 1)",
            "SELECT pg_typeof(abs('-3'))::text, pg_typeof(round('1'))::text, pg_typeof(round('1', 1))::text",
            "SELECT interval '1 day' = '24 hours', interval '1 day' < '2 days', '1 day' < interval '2 days',"
                    + " interval '1 mon' > '29 days'",
            "SELECT interval '1 day' + '1 hour', interval '1 day' - '1 hour', '1 hour' + interval '1 day'",
            "SELECT interval '1 day' * '2', interval '1 day' / '4', '3' * interval '1 hour'",
            "SELECT id FROM u WHERE iv > '1 hour' ORDER BY id",
            "SELECT id, iv + '1 hour' AS a, iv * '1.5' AS b, iv / '2' AS c FROM u ORDER BY id",
            "SELECT id FROM u WHERE ts - TIMESTAMP '2024-01-01' > '1 day' ORDER BY id",
            "SELECT interval '1 day' > 'x'",
            "SELECT timestamp '2024-01-01' + '1 day', '1 mon' + timestamp '2024-01-31', time '10:00' + '1 hour'",
            "SELECT timestamp '2024-01-01 10:00' - '2024-01-01', time '10:00' - '09:15', date '2024-01-01' - '2023-12-01'",
            "SELECT id, ts + '1 day 2 hours' AS a, ts - '2024-01-01' AS b, dt - '2024-01-01' AS c,"
                    + " tm + '30 minutes' AS d FROM u ORDER BY id",
            "SELECT timestamp '2024-01-01' - '1 hour'",
            "SELECT date '2024-01-01' + '1'",
            "SELECT '1 day' + date '2024-01-01'",
            "SELECT date '2024-01-01' - '1'",
            "SELECT timestamptz '2024-01-01 00:00+00' + '1 day', '2 hours' + timestamptz '2024-01-01 00:00+00'",
            "SELECT timestamp '2024-01-31' + '1 mon', timestamp '2024-01-31' + '1 year 1 mon 1 day', date '2024-01-31' - '2024-01-01'");

    /**
     * A timestamptz plus a constant with months: PostgreSQL adds calendar months; Tributary does
     * not yet and must refuse (42883), never add Calcite's month interval (which came out as a
     * millisecond).
     */
    private static final List<String> REFUSED = List.of(
            "SELECT timestamptz '2024-01-31 00:00+00' + '1 mon'",
            "SELECT '2 years' + timestamptz '2024-01-31 00:00+00'");

    private static final List<String> VIEWS = List.of(
            "CREATE MATERIALIZED VIEW uv AS SELECT id, nu + '1' AS a, iv + '1 hour' AS b, ts + '1 day' AS c,"
                    + " ts - '2024-01-01' AS e, abs('-3') + id AS f FROM u WHERE bo = 't' OR iv > '1 hour'",
            "SELECT * FROM uv ORDER BY id");

    /** PostgreSQL and Tributary, outcomes compared with types by JDBC number, errors with their hint. */
    @RegisterExtension
    static final ComparedPair BOTH = new ComparedPair("unknown-diff-", SETUP, new ComparedOutcomes(true, true));

    @Test
    void stringConstantsBesideTypedOperandsAnswerLikePostgres() {
        assertEquals(List.of(), BOTH.mismatches(QUERIES));
        for (String sql : REFUSED) {
            assertEquals("ERROR 42883", BOTH.onTributary(sql).substring(0, 11), sql);
        }
    }

    @Test
    void aMaterializedViewKeepsTheSameReadingsThroughWrites() throws SQLException {
        assertEquals(List.of(), BOTH.mismatches(VIEWS));
        String writes = "INSERT INTO u VALUES (4, true, 9.75, INTERVAL '3 hours', DATE '2024-05-01',"
                + " TIMESTAMP '2024-05-01 00:00:00', TIME '00:00', 0);"
                + "UPDATE u SET bo = false, iv = INTERVAL '30 minutes' WHERE id = 1;"
                + "UPDATE u SET iv = INTERVAL '5 hours' WHERE id = 3";
        BOTH.runOnBoth(writes);
        String query = VIEWS.get(0).substring("CREATE MATERIALIZED VIEW uv AS ".length());
        assertEquals(BOTH.onPostgres(query + " ORDER BY id"), BOTH.onTributary("SELECT * FROM uv ORDER BY id"));
    }
}
