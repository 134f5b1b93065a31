package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * A constraint violation names its schema, table, column and constraint in the ErrorResponse's own
 * fields, which pgjdbc exposes ({@link ServerErrorMessage#getConstraint()}) and ORMs map violations
 * by. Each failing statement's SQLSTATE, message, detail and those fields must match an embedded
 * PostgreSQL's.
 */
class ConstraintErrorFieldsDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE acct (id INT PRIMARY KEY, email TEXT NOT NULL UNIQUE, bal INT CHECK (bal >= 0))",
            "INSERT INTO acct VALUES (1, 'a@x', 10)",
            "CREATE SCHEMA shop",
            "CREATE TABLE shop.item (sku TEXT PRIMARY KEY, qty INT NOT NULL, CONSTRAINT qty_positive CHECK (qty > 0))",
            "INSERT INTO shop.item VALUES ('s1', 1)",
            "CREATE TABLE shop.dup (a INT, b INT)",
            "INSERT INTO shop.dup VALUES (1, NULL), (1, NULL)");

    private static final List<String> FAILING = List.of(
            "INSERT INTO acct VALUES (1, 'b@x', 1)",
            "INSERT INTO acct VALUES (2, NULL, 1)",
            "INSERT INTO acct VALUES (3, 'a@x', 1)",
            "INSERT INTO acct VALUES (4, 'c@x', -5)",
            "UPDATE acct SET bal = -1 WHERE id = 1",
            "UPDATE acct SET email = NULL WHERE id = 1",
            "INSERT INTO shop.item VALUES ('s1', 2)",
            "INSERT INTO shop.item VALUES ('s2', NULL)",
            "INSERT INTO shop.item VALUES ('s3', 0)",
            "CREATE UNIQUE INDEX dup_a ON shop.dup (a)",
            "ALTER TABLE shop.dup ADD PRIMARY KEY (a)",
            "ALTER TABLE shop.dup ADD UNIQUE (a)",
            "ALTER TABLE shop.dup ADD CONSTRAINT dup_one_a UNIQUE (a)",
            "ALTER TABLE shop.dup ADD PRIMARY KEY (b)");

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("errfields-diff-", 20, "postgres", "", 60);
        for (String sql : SETUP) {
            assertEquals(outcome(pg, sql), outcome(tributary.connection, sql), sql);
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void violationsNameTheirObjectsAsPostgres() {
        List<String> mismatches = StatementOutcome.mismatches(
                pg, tributary.connection, FAILING, ConstraintErrorFieldsDifferentialTest::outcome);
        assertEquals(List.of(), mismatches);
    }

    private static String outcome(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
            return "ok";
        } catch (PSQLException e) {
            ServerErrorMessage m = e.getServerErrorMessage();
            if (m == null) {
                return "ERROR " + e.getSQLState();
            }
            return "ERROR " + m.getSQLState() + " " + m.getMessage() + " | detail=" + m.getDetail() + " | schema="
                    + m.getSchema() + " table=" + m.getTable() + " column=" + m.getColumn() + " constraint="
                    + m.getConstraint();
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState();
        }
    }
}
