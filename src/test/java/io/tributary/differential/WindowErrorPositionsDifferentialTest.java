package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * Every time-window and window-function error points at its argument in the statement as the client
 * sent it (the {@code P} field pgjdbc reads as {@link ServerErrorMessage#getPosition()}). Where
 * PostgreSQL has the same error for the same text, its position is the expected one; for TUMBLE, HOP
 * and SESSION, which PostgreSQL lacks, the expected position is the argument's offset in the text.
 */
class WindowErrorPositionsDifferentialTest {
    private static final String TABLE =
            "CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, date_time TIMESTAMP)";

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("errpos-diff-", 20, "postgres", "", 60);
        for (Connection c : List.of(pg, tributary.connection)) {
            try (Statement s = c.createStatement()) {
                s.execute(TABLE);
            }
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    /** SQLSTATE and position of the error {@code sql} gives on {@code c}; fails when it succeeds. */
    private static String error(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (PSQLException e) {
            ServerErrorMessage m = e.getServerErrorMessage();
            return m.getSQLState() + " at " + m.getPosition() + " (" + m.getMessage() + ")";
        } catch (SQLException e) {
            return e.getSQLState() + " without a server message";
        }
        return "no error";
    }

    /** The SQLSTATE and position alone, which the two servers must agree on (their messages may differ). */
    private static String stateAndPosition(String error) {
        int message = error.indexOf(" (");
        return message < 0 ? error : error.substring(0, message);
    }

    @Test
    void windowFunctionErrorsPointWherePostgresPoints() {
        List<String> statements = List.of(
                "SELECT auction, row_number() OVER (PARTITION BY nosuch ORDER BY date_time) FROM bid",
                "SELECT auction, sum(price) OVER (ORDER BY nosuch) FROM bid",
                // a PostgreSQL interval constant before the error: Tributary rewrites it for Calcite
                "SELECT INTERVAL '2 hours' AS h, auction, lag(price) OVER (PARTITION BY nosuch) FROM bid",
                "SELECT auction,\n  rank() OVER (PARTITION BY\n     nosuch) FROM bid",
                "EXPLAIN SELECT auction, rank() OVER (PARTITION BY nosuch) FROM bid",
                "CREATE VIEW dv AS SELECT auction, rank() OVER (ORDER BY nosuch) FROM bid",
                "CREATE MATERIALIZED VIEW d1 AS SELECT auction, row_number() OVER (PARTITION BY nosuch ORDER BY date_time)"
                        + " FROM bid",
                "CREATE MATERIALIZED VIEW d2 AS SELECT auction, '1 day'::interval AS d,"
                        + " count(DISTINCT price) OVER (PARTITION BY auction) FROM bid",
                "CREATE MATERIALIZED VIEW d3 AS SELECT auction, count(DISTINCT price) OVER (PARTITION BY auction) FROM bid");
        List<String> mismatches = new ArrayList<>();
        for (String sql : statements) {
            String expected = error(pg, sql);
            String actual = error(tributary.connection, sql);
            assertTrue(expected.contains(" at ") && !expected.contains(" at 0 "), "PostgreSQL: " + expected);
            if (!stateAndPosition(expected).equals(stateAndPosition(actual))) {
                mismatches.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), mismatches);
    }

    /** A statement, the SQLSTATE it must fail with, and the text its error must point at. */
    private record Case(String sql, String state, String at) {}

    private static List<Case> windowCases(String prefix) {
        return List.of(
                new Case(prefix + "SELECT * FROM TUMBLE(bid, price, INTERVAL '10' SECOND)", "42804", "price"),
                new Case(prefix + "SELECT * FROM TUMBLE(bid, nosuch, INTERVAL '10' SECOND)", "42703", "nosuch"),
                new Case(prefix + "SELECT * FROM TUMBLE(bid, date_time, INTERVAL '-10' SECOND)", "22023", "INTERVAL"),
                new Case(
                        prefix + "SELECT * FROM TUMBLE(bid, date_time, INTERVAL '10 seconds', price)",
                        "22023",
                        "price)"),
                new Case(
                        prefix + "SELECT * FROM HOP(bid, date_time, INTERVAL '3 seconds', INTERVAL '10' SECOND)",
                        "22023",
                        "INTERVAL '10'"),
                new Case(
                        prefix + "SELECT * FROM HOP(bid, date_time, INTERVAL '0' SECOND, INTERVAL '10' SECOND)",
                        "22023",
                        "INTERVAL '0'"),
                new Case(
                        prefix + "SELECT * FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(price), INTERVAL '1' SECOND))",
                        "42804",
                        "price"),
                new Case(
                        prefix + "SELECT * FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(nosuch), INTERVAL '1' SECOND))",
                        "42703",
                        "nosuch"),
                new Case(
                        prefix + "SELECT * FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(date_time), INTERVAL '0' SECOND))",
                        "22023",
                        "INTERVAL '0'"),
                new Case(
                        prefix + "SELECT * FROM SESSION(bid PARTITION BY bidder, price, INTERVAL '1' SECOND)",
                        "42804",
                        "price"),
                new Case(
                        prefix + "SELECT * FROM SESSION(bid PARTITION BY nosuch, date_time, INTERVAL '1' SECOND)",
                        "42703",
                        "nosuch"),
                new Case(prefix + "SELECT * FROM SESSION(bid, date_time, INTERVAL '0' SECOND)", "22023", "INTERVAL"),
                new Case(
                        prefix
                                + "SELECT bidder, count(*) FROM bid GROUP BY bidder, SESSION(price, INTERVAL '1' SECOND)",
                        "42804",
                        "price, INTERVAL"),
                new Case(
                        prefix
                                + "SELECT bidder, count(*) FROM bid GROUP BY bidder, SESSION(nosuch, INTERVAL '1' SECOND)",
                        "42703",
                        "nosuch"),
                new Case(
                        prefix
                                + "SELECT bidder, count(*) FROM bid GROUP BY bidder, SESSION(date_time, INTERVAL '0' SECOND)",
                        "22023",
                        "INTERVAL"),
                new Case(
                        prefix
                                + "SELECT bidder, count(*) FROM bid GROUP BY bidder, TUMBLE(date_time, INTERVAL '1' SECOND)",
                        "0A000",
                        "TUMBLE(date_time"));
    }

    @Test
    void timeWindowErrorsPointAtTheirArgumentInEveryStatementKind() {
        List<String> mismatches = new ArrayList<>();
        int n = 0;
        for (String prefix : List.of(
                "",
                "EXPLAIN ",
                "CREATE VIEW pv AS ",
                "CREATE MATERIALIZED VIEW mv AS ",
                "EXPLAIN CREATE MATERIALIZED VIEW mv AS ")) {
            for (Case c : windowCases(prefix)) {
                String expected = c.state() + " at " + (c.sql().indexOf(c.at()) + 1);
                String actual = error(tributary.connection, c.sql());
                n++;
                if (!stateAndPosition(actual).equals(expected)) {
                    mismatches.add(c.sql() + "\n  expected:  " + expected + "\n  tributary: " + actual);
                }
            }
        }
        assertEquals(80, n);
        assertEquals(List.of(), mismatches);
    }

    @Test
    void temporalFilterErrorsPointAtTheCurrentTime() {
        List<Case> cases = List.of(
                new Case("CREATE MATERIALIZED VIEW tf AS SELECT auction, now() AS t FROM bid", "0A000", "now()"),
                new Case(
                        "CREATE MATERIALIZED VIEW tf AS SELECT auction FROM bid WHERE date_time > now() OR price = 1",
                        "0A000",
                        "now()"),
                new Case(
                        "CREATE MATERIALIZED VIEW tf AS SELECT auction FROM bid WHERE date_time > now() - INTERVAL '1 month'",
                        "0A000",
                        "INTERVAL"));
        for (Case c : cases) {
            assertEquals(
                    c.state() + " at " + (c.sql().indexOf(c.at()) + 1),
                    stateAndPosition(error(tributary.connection, c.sql())),
                    c.sql());
        }
    }

    /** psql draws its caret under the argument, as it does for PostgreSQL's own errors. */
    @Test
    void psqlDrawsTheCaretUnderTheTimeColumn() throws IOException, InterruptedException {
        // short enough for psql to echo whole
        String sql = "SELECT * FROM TUMBLE(bid, price, INTERVAL '1' SECOND)";
        Process psql = new ProcessBuilder(
                        "psql",
                        "-X",
                        "-h",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(tributary.port()),
                        "-U",
                        "postgres",
                        "-d",
                        "dev",
                        "-c",
                        sql)
                .redirectErrorStream(true)
                .start();
        if (!psql.waitFor(60, TimeUnit.SECONDS)) {
            psql.destroyForcibly();
            fail("psql did not end");
        }
        String out = new String(psql.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String echo = "LINE 1: " + sql;
        String caret = " ".repeat("LINE 1: ".length() + sql.indexOf("price")) + "^";
        assertTrue(
                out.contains("ERROR:  the time column of tumble must be a timestamp\n" + echo + "\n" + caret + "\n"),
                out);
    }
}
