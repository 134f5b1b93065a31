package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * Syntax errors at a statement's end and input errors of cast constants, against embedded
 * PostgreSQL: SQLSTATE, message and the position field (what psql draws its caret from), through
 * pgjdbc's extended protocol (it sends each statement without its semicolon) and its simple-query
 * mode (the text as written, semicolons and several statements included, as psql sends it).
 */
class SyntaxAndInputErrorsDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "SELECT 1 +",
            "SELECT 1 +  ",
            "SELECT 1 +;",
            "SELECT 1 +\n;",
            "SELECT 1 + FROM",
            // a BETWEEN's lower bound that does not reach its AND: PostgreSQL names the token it stops at
            "SELECT 1 WHERE 1 BETWEEN AND 3",
            "SELECT 1 WHERE 1 BETWEEN 1 + AND 3",
            "SELECT 1 WHERE 1 BETWEEN 1 3",
            "SELECT 1 WHERE 1 BETWEEN 1",
            "SELECT 1 WHERE 1 NOT BETWEEN SYMMETRIC AND 3 ORDER BY 1",
            "SELECT 1 WHERE 1 BETWEEN 2 OR 3",
            "SELECT 1 WHERE 1 BETWEEN (1 + 1)::int 3",
            "SELECT a FROM (VALUES (1)) v(a) WHERE a BETWEEN AND 3",
            // an error after a WHERE without FROM is placed in the client's text, not the one with FROM added
            "SELECT 1 WHERE 1 = 1 1",
            "SELECT 1; SELECT 1 +",
            "SELECT 1;  SELECT 1 +;",
            "SELECT (1",
            "SELECT 1 FROM t t2 t3",
            "SELECT 'abc'::int",
            "SELECT 1, 'abc'::int",
            "SELECT\n  'abc'::int;",
            "SELECT CAST('abc' AS int)",
            "SELECT 'abc'::int + 1",
            "SELECT 1 FROM (VALUES (1)) v(a) WHERE a = 'x'::int",
            "SELECT '2024-13-01'::date",
            "SELECT date 'x'",
            "SELECT 'x'::boolean",
            "SELECT '99999999999'::int",
            "SELECT 1; SELECT 'abc'::int",
            // a value from a row, not a constant: no position on either
            "SELECT v::int FROM (VALUES ('abc')) t(v)",
            "BEGIN; SAVEPOINT;",
            "ROLLBACK");

    private static Connection pg;
    private static Connection pgSimple;
    private static InProcessTributary tributary;
    private static Connection tributarySimple;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        pgSimple = DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + DifferentialPostgres.port() + "/dev?preferQueryMode=simple",
                "postgres",
                "");
        tributary = InProcessTributary.temporary("errtext-diff-", 20, "postgres", "", 60);
        tributarySimple = tributary.connect("postgres", "?preferQueryMode=simple", 60);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(tributarySimple, pgSimple, pg, tributary);
    }

    @Test
    void extendedProtocolLikePostgres() {
        assertEquals(List.of(), mismatches(pg, tributary.connection));
    }

    @Test
    void simpleQueriesLikePostgres() {
        assertEquals(List.of(), mismatches(pgSimple, tributarySimple));
    }

    private static List<String> mismatches(Connection expected, Connection actual) {
        List<String> out = new ArrayList<>();
        for (String sql : STATEMENTS) {
            String wanted = error(expected, sql);
            String got = error(actual, sql);
            if (!wanted.equals(got)) {
                out.add(sql + "\n  postgres:  " + wanted + "\n  tributary: " + got);
            }
        }
        return out;
    }

    /** SQLSTATE, message and position of the error {@code sql} gives on {@code c}, or "no error". */
    private static String error(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (PSQLException e) {
            ServerErrorMessage m = e.getServerErrorMessage();
            return m == null
                    ? e.getSQLState() + " " + e.getMessage()
                    : m.getSQLState() + " " + m.getMessage() + " at " + m.getPosition();
        } catch (SQLException e) {
            return e.getSQLState() + " without a server message";
        }
        return "no error";
    }
}
