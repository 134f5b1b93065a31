package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The errors of a string constant beside a date, timestamp or interval operand, which Tributary
 * answers by rewriting the operator ({@code ts - 'x'} no timestamp, {@code ts + 'x'} no interval,
 * {@code iv * 'x'} no double precision, {@code iv > 'x'} no interval), against embedded
 * PostgreSQL: SQLSTATE, message, HINT and cursor position, in queries and a materialized view.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class UnknownConstantPositionsDifferentialTest {
    private static final String SETUP =
            "CREATE TABLE t (id INT PRIMARY KEY, iv INTERVAL, d DATE, ts TIMESTAMP, tm TIME);"
                    + "INSERT INTO t VALUES (1, INTERVAL '2 hours', DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00',"
                    + " TIME '10:00')";

    private static final List<String> STATEMENTS = List.of(
            "SELECT id, ts - 'x' FROM t",
            "SELECT id, ts - '1 hour' FROM t",
            "SELECT tm - 'noon' FROM t",
            "SELECT ts + 'x' FROM t",
            "SELECT iv * 'x' FROM t",
            "SELECT 'x' * iv FROM t",
            "SELECT iv / 'x' FROM t",
            "SELECT iv + 'x' FROM t",
            "SELECT interval '1 day' > 'x'",
            "SELECT id FROM t WHERE iv BETWEEN '1 hour' AND 'x'",
            "CREATE MATERIALIZED VIEW pv AS SELECT id, ts - 'x' AS a FROM t",
            "CREATE MATERIALIZED VIEW pv AS SELECT id, iv * 'x' AS a FROM t");

    @RegisterExtension
    static final ComparedPair BOTH =
            new ComparedPair("unknown-positions-diff-", SETUP, new ComparedOutcomes(true, true, true));

    @Test
    void constantErrorsPointWherePostgresPoints() {
        assertEquals(List.of(), BOTH.mismatches(STATEMENTS));
    }
}
