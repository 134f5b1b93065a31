package io.tributary.server.session;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's transaction ids, as {@code txid_current()} answers them: each one greater than every
 * one handed out before, in this process and (as they start from the clock's microseconds since
 * 2000-01-01) in the processes before it, unless they handed out ids faster than one per
 * microsecond. Tributary has no transaction ids of its own (its writes commit at epochs), so these
 * are assigned only when a session asks. Any thread.
 */
final class TransactionIds {
    /** Microseconds from 1970-01-01 to 2000-01-01, PostgreSQL's epoch. */
    private static final long POSTGRES_EPOCH_MICROS = 946_684_800_000_000L;

    private static final AtomicLong LAST = new AtomicLong(
            java.time.temporal.ChronoUnit.MICROS.between(java.time.Instant.EPOCH, java.time.Instant.now())
                    - POSTGRES_EPOCH_MICROS);

    private TransactionIds() {}

    /** A new id, greater than every one before. */
    static long next() {
        return LAST.incrementAndGet();
    }
}
