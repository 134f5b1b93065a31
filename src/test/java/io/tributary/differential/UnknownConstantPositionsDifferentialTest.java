package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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

    private static final ComparedOutcomes OUTCOMES = new ComparedOutcomes(true, true, true);

    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("unknown-positions-diff-", 20, "postgres", "", 60);
        InProcessTributary.execScript(pg, SETUP);
        InProcessTributary.execScript(tributary.connection, SETUP);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void constantErrorsPointWherePostgresPoints() {
        assertEquals(List.of(), OUTCOMES.mismatches(pg, tributary.connection, STATEMENTS));
    }
}
