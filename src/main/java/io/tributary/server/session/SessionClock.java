package io.tributary.server.session;

/**
 * When a session's current statement and transaction started, as PostgreSQL's {@code
 * statement_timestamp()} and {@code now()} answer them: the statement's time is taken when its
 * first piece of work (parse, or execution) starts after the previous one ended; the
 * transaction's is the statement's unless a transaction block is open, whose first statement
 * ({@code BEGIN}) set it; the transaction's id ({@code txid_current()}) lasts as long. Times are microseconds since 1970-01-01 UTC, as PostgreSQL's clock
 * reads them. Written and read on the session's thread.
 */
final class SessionClock {
    private long statementStart = now();
    private long transactionStart = statementStart;
    /** The transaction's id once {@link #transactionId} assigned one, 0 before. */
    private long transactionId;
    /** Whether a statement runs: its later pieces (bind, execute) keep its time. */
    private boolean running;

    /**
     * A piece of a statement's work starts.
     *
     * @param inBlock whether a transaction block is open (its start stays the transaction's)
     */
    void started(boolean inBlock) {
        if (running) {
            return;
        }
        running = true;
        statementStart = now();
        if (!inBlock) {
            transactionStart = statementStart;
            transactionId = 0;
        }
    }

    /** The statement is over; the next piece of work starts another. */
    void ended() {
        running = false;
    }

    long statementStartMicros() {
        return statementStart;
    }

    long transactionStartMicros() {
        return transactionStart;
    }

    /**
     * The current transaction's id, assigned from {@link TransactionIds} at the first call with
     * {@code assign} in the transaction; 0 when none is assigned and {@code assign} is false.
     */
    long transactionId(boolean assign) {
        if (transactionId == 0 && assign) {
            transactionId = TransactionIds.next();
        }
        return transactionId;
    }

    private static long now() {
        return java.time.temporal.ChronoUnit.MICROS.between(java.time.Instant.EPOCH, java.time.Instant.now());
    }
}
