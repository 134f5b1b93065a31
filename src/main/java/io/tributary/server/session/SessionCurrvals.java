package io.tributary.server.session;

import java.util.HashMap;
import java.util.Map;

/**
 * What {@code currval} answers in one session: the last value each sequence gave this session,
 * whether through {@code nextval}, {@code setval(..., true)} or a SERIAL/identity column an INSERT
 * filled, as in PostgreSQL. Session thread only.
 */
final class SessionCurrvals {
    private final Map<Long, Long> last = new HashMap<>();

    void record(int tableId, int column, long value) {
        last.put(key(tableId, column), value);
    }

    /** The last value of the sequence of {@code column} of table {@code tableId}, or null when none. */
    Long last(int tableId, int column) {
        return last.get(key(tableId, column));
    }

    private static long key(int tableId, int column) {
        return ((long) tableId << 32) | column;
    }
}
