package io.tributary.server.session;

import io.tributary.meta.Database;

/**
 * The epochs of a session's DML that returned before they were durable (a batch's INSERTs of
 * literal rows, {@link Session#defersDurability}), until the session awaits them. Used by one
 * session on the thread running its statement; not thread-safe.
 */
final class DeferredDurability {
    private final Database db;

    /**
     * Epoch tickets of DML that returned before it was durable ({@link Session#executeInBatch}), in
     * order; the first {@code pendingCount} are live.
     */
    private long[] pendingTickets = new long[8];

    private int pendingCount;

    DeferredDurability(Database db) {
        this.db = db;
    }

    /** Whether a ticket is deferred and not yet awaited. */
    boolean pending() {
        return pendingCount > 0;
    }

    /** Leaves {@code ticket} for {@link #awaitAll}; tickets only grow, so the list stays ordered. */
    void defer(long ticket) {
        if (pendingCount > 0 && pendingTickets[pendingCount - 1] == ticket) {
            return;
        }
        if (pendingCount == pendingTickets.length) {
            pendingTickets = java.util.Arrays.copyOf(pendingTickets, pendingCount * 2);
        }
        pendingTickets[pendingCount++] = ticket;
    }

    /** Waits until every deferred ticket's epoch is durable; none is deferred afterwards, even when one failed. */
    void awaitAll() {
        try {
            for (int i = 0; i < pendingCount; i++) {
                // each distinct epoch: a failed earlier one is not covered by a later one's commit
                if (i == 0 || pendingTickets[i] != pendingTickets[i - 1]) {
                    DmlRunner.awaitDurable(db, pendingTickets[i]);
                }
            }
        } finally {
            pendingCount = 0;
        }
    }
}
