package io.tributary.plan;

/**
 * How an {@link OverWindowNode} of a SESSION window's expansion over a watermarked table forgets
 * finished sessions. Within a partition, rows ordered by their time column {@code timeColumn}
 * (milliseconds) form sessions: runs whose consecutive times are at most {@code gapMillis} apart. A
 * session whose last time {@code last} has {@code last + gapMillis < floor(watermark / 1000)} is
 * closed: every later row (at or above the watermark of table {@code relationId}) is more than the
 * gap after it, so it starts or joins a later session, and no row of the closed session is ever
 * retracted (the table is append-only and the session's rows' values depend only on earlier rows).
 * The node's operator then deletes the closed sessions' rows from its state; their rows stay in
 * the view.
 *
 * <p>What each of the expansion's three functions still needs: the per-session {@code max} of the
 * time reads only its own session (its partition). The running {@code max} of session starts never
 * reads an earlier session, as the first open session's first row is itself a start. The {@code
 * lag} of the time reads the row just before each row, so while a partition has an open session the
 * operator keeps the last closed row before it, and the open session's first row keeps its emitted
 * lag (the kept row's own value is never emitted again: no row can come before it any more). Once a
 * partition holds no open session it is forgotten whole, and a later row's lag is NULL where it
 * would have been a time more than the gap earlier: the only use of the lag, the test {@code t -
 * lag <= gap}, fails alike, so the row starts a session either way. Only the planner's session
 * expansion gets a cleaning, on each of its three nodes, as it relies on that use.
 *
 * @param timeColumn the input column holding the session time in milliseconds (a BIGINT)
 * @param gapMillis the session gap
 * @param relationId the watermarked table whose rows reach the node
 */
public record SessionCleaning(int timeColumn, long gapMillis, int relationId) {
    /** Whether a session whose last time is {@code lastMillis} is closed at {@code watermarkMicros}. */
    public boolean closed(long lastMillis, long watermarkMicros) {
        return lastMillis + gapMillis < Math.floorDiv(watermarkMicros, 1000L);
    }
}
