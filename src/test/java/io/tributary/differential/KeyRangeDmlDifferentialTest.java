package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.differential.StepwiseComparison.Prepared;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * UPDATE and DELETE by a range of the key, which Tributary plans and runs without Calcite
 * ({@code KeyRangeDml}): with constants in the text and prepared with parameters, on a bigint key
 * and on the first column of a composite key, with assignments that overflow, break NOT NULL or a
 * length, or read as bad text, and neighbouring shapes that must leave the path (a key assigned, a
 * second key column, a fractional constant). They run in order on Tributary and on an embedded
 * PostgreSQL; each statement's count or SQLSTATE and both tables after it must be the same.
 */
class KeyRangeDmlDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE kr (id BIGINT PRIMARY KEY, n INT NOT NULL, amount NUMERIC(8,2), status VARCHAR(8),"
                    + " flag BOOLEAN)",
            "INSERT INTO kr VALUES (1, 10, 1.50, 'new', NULL), (2, 20, 2.25, 'paid', TRUE), (3, 30, NULL, NULL, FALSE),"
                    + " (4, -40, 4.00, 'x', NULL), (5, 50, 5.75, 'y', NULL), (6, 60, 6.10, 'z', NULL),"
                    + " (7, 70, 7, 'a', NULL), (8, 80, 8, 'b', NULL), (9, 90, 9, 'c', NULL), (10, 100, 10, 'd', NULL)",
            "CREATE TABLE kc (a INT, b INT, v INT, PRIMARY KEY (a, b))",
            "INSERT INTO kc VALUES (1, 1, 1), (1, 2, 2), (2, 1, 3), (3, 1, 4), (4, 1, 5)");

    /** Statements with their constants in the text. */
    private static final List<String> LITERAL = List.of(
            "UPDATE kr SET amount = amount + 1.25, status = 'paid' WHERE id BETWEEN 2 AND 4",
            "UPDATE kr SET n = n - 5 WHERE id = 1",
            "UPDATE kr SET n = n + 2147483647 WHERE id = 2",
            "UPDATE kr SET n = n + 9223372036854775807 WHERE id = 2",
            "UPDATE kr SET amount = amount + 999999.99 WHERE id = 2",
            "UPDATE kr SET amount = amount + 0.005 WHERE id = 2",
            "UPDATE kr SET n = NULL WHERE id = 1",
            "UPDATE kr SET status = 'toolongvalue' WHERE id = 1",
            "UPDATE kr SET status = 'q' WHERE id BETWEEN 4 AND 2",
            "UPDATE kr SET status = 'q' WHERE id BETWEEN NULL AND 2",
            "UPDATE kr SET n = 'abc' WHERE id = 1",
            "UPDATE kr SET n = '42' WHERE id = 1",
            "UPDATE kr SET flag = true, amount = 5 WHERE id = 5",
            "UPDATE kr SET amount = amount - -0.5 WHERE id BETWEEN -10 AND 3",
            "UPDATE kr SET n = n + 1.5 WHERE id = 1",
            "UPDATE kr SET id = 11 WHERE id = 10",
            "UPDATE kr SET status = 5 WHERE id = 1",
            "UPDATE \"kr\" SET n = 1 WHERE id = 9",
            "UPDATE kr SET n = 2 WHERE id = 99999999999999999999",
            "UPDATE kr SET n = 3 WHERE id = 2.5",
            "UPDATE kr SET nope = 3 WHERE id = 2",
            "DELETE FROM kr WHERE id = 6",
            "DELETE FROM kr WHERE id BETWEEN 7 AND 8",
            "DELETE FROM nosuch WHERE id = 1",
            "UPDATE kc SET v = v + 1 WHERE a = 1",
            "UPDATE kc SET v = v + 1 WHERE b = 1",
            "DELETE FROM kc WHERE a BETWEEN 2 AND 3");

    /** Statements prepared with parameters, as pgjdbc binds them. */
    private static final List<Prepared> PREPARED = List.of(
            new Prepared(
                    "UPDATE kr SET amount = amount + ?, status = ? WHERE id BETWEEN ? AND ?",
                    List.of(new BigDecimal("1.5"), "new", 1L, 3L)),
            new Prepared(
                    "UPDATE kr SET amount = amount + ?, status = ? WHERE id BETWEEN ? AND ?",
                    Arrays.asList(null, "a", 1L, 2L)),
            new Prepared(
                    "UPDATE kr SET amount = amount + ?, status = ? WHERE id BETWEEN ? AND ?",
                    List.of(new BigDecimal("999999"), "x", 1L, 1L)),
            new Prepared(
                    "UPDATE kr SET amount = amount + ?, status = ? WHERE id BETWEEN ? AND ?",
                    List.of(new BigDecimal("0.5"), "waytoolongstatus", 1L, 1L)),
            // the parameter is numeric without scale: it is added, then the sum rounds to the column's
            new Prepared("UPDATE kr SET amount = amount + ? WHERE id = ?", List.of(new BigDecimal("-1.995"), 4L)),
            new Prepared("UPDATE kr SET status = ? WHERE id = ?", List.of("waytoolongstatus", 999L)),
            new Prepared("UPDATE kr SET n = n + ? WHERE id = ?", List.of(Integer.MAX_VALUE, 2L)),
            new Prepared("UPDATE kr SET n = n + ? WHERE id = ?", List.of(1, 2L)),
            new Prepared("UPDATE kr SET n = ? WHERE id = ?", Arrays.asList(null, 1L)),
            new Prepared("UPDATE kr SET flag = ? WHERE id BETWEEN ? AND ?", List.of(true, 1L, 9L)),
            new Prepared("UPDATE kc SET v = v - ? WHERE a = ?", List.of(7, 1)),
            new Prepared("DELETE FROM kr WHERE id BETWEEN ? AND ?", List.of(9L, 10L)),
            new Prepared("DELETE FROM kr WHERE id = ?", List.of(1L)));

    private static StepwiseComparison servers;

    @BeforeAll
    static void start() throws Exception {
        servers = StepwiseComparison.start(
                "keyrange-diff-", SETUP, List.of("SELECT * FROM kr ORDER BY id", "SELECT * FROM kc ORDER BY a, b"));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(servers);
    }

    @Test
    void changesLikePostgres() {
        assertEquals(List.of(), servers.mismatches(LITERAL, PREPARED));
    }
}
