package io.tributary.meta;

import static io.tributary.meta.ServedDatabase.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Checks EMIT ON WINDOW CLOSE views over one watermarked table for the state-cleaning tests: such
 * a view only ever gains rows, and holds exactly PostgreSQL's rows of the windows (or sessions)
 * the table's watermark closed. Used from the test thread.
 */
final class ClosedWindowsCheck {
    private final PostgresOracle postgres;
    private final String table;
    private final String closedQuery;
    private final String noun;
    private List<String> emitted = List.of();

    /**
     * @param table the watermarked table the views read
     * @param closedQuery PostgreSQL's query of the closed windows' rows, {@code %s} standing for the
     *     watermark
     * @param noun what a row is, for the messages: {@code window} or {@code session}
     */
    ClosedWindowsCheck(PostgresOracle postgres, String table, String closedQuery, String noun) {
        this.postgres = postgres;
        this.table = table;
        this.closedQuery = closedQuery;
        this.noun = noun;
    }

    /** {@code view} holds every row it held at the previous call (the first call: nothing to keep). */
    void checkOnlyGains(Statement st, String view, String when) throws SQLException {
        List<String> now = rows(st, "SELECT * FROM " + view);
        assertTrue(now.containsAll(emitted), when + ": a closed " + noun + "'s row changed or went");
        emitted = now;
    }

    /**
     * {@code view} holds PostgreSQL's rows of the {@code noun}s the watermark closed, of which there
     * are more than ten: polled, as one closes at the first barrier after the watermark passed it.
     * PostgreSQL's table must hold Tributary's kept rows.
     */
    void checkHoldsClosed(Statement st, String view, String when) throws Exception {
        String watermark = ServedDatabase.watermark(st, table);
        List<String> expected = postgres.rows(closedQuery.formatted(watermark));
        assertTrue(expected.size() > 10, when + ": " + expected.size() + " closed " + noun + "s");
        List<String> actual = ServedDatabase.awaitRows(st, "SELECT * FROM " + view, expected, 10_000);
        assertEquals(expected, actual, when + ": " + view + " at watermark " + watermark);
    }
}
