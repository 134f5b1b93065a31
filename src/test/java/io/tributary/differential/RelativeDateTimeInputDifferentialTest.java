package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PostgreSQL's special date/time input {@code now}, {@code today}, {@code tomorrow} and {@code
 * yesterday} for date, timestamp and timestamptz, against embedded PostgreSQL: in typed
 * constants, casts, comparisons with columns and INSERT, compared through results that do not
 * depend on the moment they run (a difference of days, a comparison with {@code current_date}).
 * A statement naming {@code 'now'} is not answered from the session's plan cache.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RelativeDateTimeInputDifferentialTest {
    private static final String SETUP = "CREATE TABLE t (id INT PRIMARY KEY, d DATE, ts TIMESTAMP, tz TIMESTAMPTZ);"
            + "INSERT INTO t VALUES (1, DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00', TIMESTAMPTZ '2024-01-01 10:00+00'),"
            + " (2, NULL, NULL, NULL)";

    private static final List<String> STATEMENTS = List.of(
            "SELECT DATE 'today' = current_date AS a, 'tomorrow'::date - 'yesterday'::date AS b,"
                    + " 'Today'::date - DATE ' yesterday ' AS c, CAST('now' AS date) = current_date AS e",
            "SELECT TIMESTAMP 'today' = current_date::timestamp AS a, 'tomorrow'::timestamp - 'today'::timestamp AS b",
            "SELECT TIMESTAMPTZ 'today' = date_trunc('day', now()) AS a, 'yesterday'::timestamptz < now() AS b",
            "SELECT 'now'::timestamptz - now() < INTERVAL '1 minute' AS a, TIMESTAMP 'now' > TIMESTAMP '2024-01-01' AS b",
            "SELECT id FROM t WHERE d < 'today' ORDER BY id",
            "SELECT id FROM t WHERE ts < 'now' OR tz > 'tomorrow' ORDER BY id",
            "SELECT id FROM t WHERE d IN ('yesterday', '2024-01-01') ORDER BY id",
            "INSERT INTO t VALUES (3, 'today', 'yesterday', 'tomorrow'), (4, 'tomorrow', 'now', 'now')",
            "SELECT id, d - current_date AS dd, ts::date - current_date AS td, tz > now() AS tn FROM t WHERE id > 2 ORDER BY id",
            "SELECT DATE 'tomorow'");

    @RegisterExtension
    static final ComparedPair BOTH =
            new ComparedPair("relative-input-diff-", SETUP, new ComparedOutcomes(true, true, true));

    @Test
    void relativeInputAnswersLikePostgres() {
        assertEquals(List.of(), BOTH.mismatches(STATEMENTS));
    }

    @Test
    void aStatementNamingNowReadsTheClockEachTime() throws InterruptedException {
        String sql = "SELECT 'now'::timestamp AS n";
        String first = BOTH.onTributary(sql);
        Thread.sleep(20);
        assertNotEquals(first, BOTH.onTributary(sql));
    }
}
