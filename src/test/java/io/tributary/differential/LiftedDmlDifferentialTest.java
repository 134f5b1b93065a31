package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * UPDATE and DELETE with numeric constants (and string SET values into text columns), which
 * Tributary plans once per shape with the constants lifted into parameters: statements that share a shape, constants of every size and sign, constants
 * that fail only as literals, and comparisons a lifted constant must not change; and INSERTs of
 * constants, which Tributary reads without Calcite's parser, with constants that the target
 * column's type converts, rounds or refuses. They run in order on Tributary and on an embedded
 * PostgreSQL. Each statement's row count or SQLSTATE, and the table
 * after each, must be the same.
 */
class LiftedDmlDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE ld (id INT PRIMARY KEY, v INT, d NUMERIC(10,2), s TEXT)",
            "INSERT INTO ld VALUES (1, 10, 1.50, 'a'), (2, 20, 2.25, 'b'), (3, 30, NULL, '5'), "
                    + "(4, 40, 4.00, 'd'), (5, 50, 5.75, 'e'), (6, -60, 6.10, NULL)");
    private static final List<String> STATEMENTS = List.of(
            "UPDATE ld SET v = v + 5 WHERE id = 3",
            "UPDATE ld SET v = v + 6 WHERE id = 4",
            "UPDATE ld SET v = v + 7 WHERE id = 99",
            "UPDATE ld SET v = -7 WHERE id = 1",
            "UPDATE ld SET v = 8, d = d * 1.5 WHERE id BETWEEN 2 AND 4",
            "UPDATE ld SET v = 9, d = d * 2.25 WHERE id BETWEEN 5 AND 5",
            "UPDATE ld SET d = d - 0.01 WHERE id <> 2 AND v > 8",
            "UPDATE ld SET v = v * 2 WHERE id >= 5 AND id < 7",
            "UPDATE ld SET v = 1 WHERE id = 1.5",
            "UPDATE ld SET v = 2 WHERE id = 2.0",
            "UPDATE ld SET v = 3 WHERE id = 3000000000",
            "UPDATE ld SET v = 4 WHERE id = -3",
            "UPDATE ld SET v = 5 WHERE s = '5' AND id = 3",
            "UPDATE ld SET v = v + 2147483647 WHERE id = 2",
            "UPDATE ld SET v = 2147483647 + 1 WHERE id = 2",
            "UPDATE ld SET v = 1 / 0 WHERE id = 2",
            "UPDATE ld SET v = v / 0 WHERE id = 2",
            "UPDATE ld SET v = 3000000000 WHERE id = 2",
            "UPDATE ld SET d = 123456789.123 WHERE id = 2",
            "UPDATE ld SET d = 12345678901.5 WHERE id = 2",
            "UPDATE ld SET v = 11 WHERE id = 1 OR id = 6",
            // string SET values into a text column are lifted too; into others, and elsewhere, they stay
            "UPDATE ld SET s = 'paid' WHERE id = 1",
            "UPDATE ld SET s = 'shipped' WHERE id = 2",
            "UPDATE ld SET s = 'it''s  ', v = v + 1 WHERE id = 3",
            "UPDATE ld SET s = '' WHERE id BETWEEN 4 AND 5",
            "UPDATE ld SET s = E'tab\\there', d = 0.5 WHERE id = 6",
            "UPDATE ld SET s = 'caf\u00e9' WHERE id = 4",
            "UPDATE ld SET s = 'a' || 'b' WHERE id = 5",
            "UPDATE ld SET v = '12' WHERE id = 1",
            "UPDATE ld SET v = 'x' WHERE id = 1",
            "UPDATE ld SET d = '1.255' WHERE id = 2",
            "UPDATE ld SET s = 'z' WHERE s = 'paid'",
            "UPDATE ld SET s = NULL WHERE id = 999",
            "DELETE FROM ld WHERE id = 4",
            "DELETE FROM ld WHERE id = 5",
            "DELETE FROM ld WHERE id > 100",
            "DELETE FROM ld WHERE v < -1000 OR id = 6",
            // INSERTs of constants, which Tributary reads without Calcite's parser: the column decides the type
            "INSERT INTO ld VALUES (7, '5', '3.456', 'x')",
            "INSERT INTO ld VALUES (8, 2147483648, 1, 'y')",
            "INSERT INTO ld VALUES (9, 1, 123456789012.5, 'z')",
            "INSERT INTO ld VALUES (10, '-', 1, 'z')",
            "INSERT INTO ld VALUES (11, -5, -0.005, 'it''s'), (12, 1.5, 0.015, '')",
            "INSERT INTO ld VALUES (13, 2.5, -1, 2)",
            "INSERT INTO ld VALUES (14, '  7  ', 1, 'a\\b')",
            "insert into LD (S, id) values ('only', 15), (DEFAULT, 16)",
            "INSERT INTO ld VALUES (17, 1, 1)",
            "INSERT INTO ld VALUES (1, 1, 1, 'dup')",
            "INSERT INTO ld VALUES (18, 1, 1, 'a'), (18, 2, 2, 'b')",
            "INSERT INTO ld VALUES (NULL, 1, 1, 'n')",
            "INSERT INTO ld VALUES (19, 1, 1, 'a', 5)",
            "INSERT INTO ld (id, nope) VALUES (20, 1)",
            "INSERT INTO nosuch VALUES (1)",
            "INSERT INTO ld VALUES (21, TRUE, 1, 'b')",
            "INSERT INTO ld VALUES (22, -2147483648, -99999999.99, NULL)",
            "INSERT INTO ld VALUES (23, -2147483649, 1, NULL)");

    private static Connection pg;
    private static InProcessTributary tributary;
    private static Connection trib;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        // simple query protocol, as psql sends statements: the constants arrive in the text
        tributary = InProcessTributary.temporary("lifted-diff-", 20, "postgres", "?preferQueryMode=simple", 60);
        trib = tributary.connection;
        for (Connection c : List.of(pg, trib)) {
            try (Statement s = c.createStatement()) {
                for (String sql : SETUP) {
                    s.execute(sql);
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void changesLikePostgres() throws SQLException {
        List<String> mismatches = new ArrayList<>();
        for (String sql : STATEMENTS) {
            String expected = outcome(pg, sql) + " " + rows(pg);
            String actual = outcome(trib, sql) + " " + rows(trib);
            if (!expected.equals(actual)) {
                mismatches.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        assertEquals(List.of(), mismatches);
    }

    /** The statement's row count, or {@code ERROR <sqlstate>}. */
    private static String outcome(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            return String.valueOf(s.executeUpdate(sql));
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState();
        }
    }

    private static String rows(Connection c) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, v, d, s FROM ld ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4));
            }
        }
        return rows.toString();
    }
}
