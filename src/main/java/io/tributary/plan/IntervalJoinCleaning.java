package io.tributary.plan;

/**
 * How a {@link HashJoinNode} whose condition bounds the distance between two time columns (Nexmark
 * q7's {@code b.date_time BETWEEN w.date_time - INTERVAL '10' SECOND AND w.date_time}) forgets rows
 * that can never match again. The condition implies {@code minDifferenceMicros <= l - r <=
 * maxDifferenceMicros}, with {@code l} the left row's column {@code leftColumn} and {@code r} the
 * right row's column {@code rightColumn}; a row of either side with value {@code v} in its column
 * gets no further change once {@code v + lag <= watermark} of its table (the bound the planner
 * proved, as for {@link WindowCleaning}).
 *
 * <p>So a left row with value {@code l} is deleted once it cannot change ({@code l + leftLagMicros
 * <= W(left)}) and every right value it could match, up to {@code l - minDifferenceMicros}, cannot
 * change either ({@code l - minDifferenceMicros + rightLagMicros <= W(right)}): no later insert or
 * retraction on either side can then match, unmatch or re-pad it, and its joined rows stay in the
 * view. Likewise a right row with value {@code r} once {@code r + rightLagMicros <= W(right)} and
 * {@code r + maxDifferenceMicros + leftLagMicros <= W(left)}. A side whose matches are unbounded
 * ({@code Long.MIN_VALUE} minimum for the left, {@code Long.MAX_VALUE} maximum for the right)
 * keeps its rows.
 *
 * @param leftColumn the left input's time column (TIMESTAMP or TIMESTAMPTZ, as the right one)
 * @param rightColumn the right input's time column, in the right input's own columns
 * @param leftRelationId the watermarked table whose rows reach the left column
 * @param leftLagMicros how far the left column may trail that table's time
 * @param rightRelationId as {@code leftRelationId}, for the right column
 * @param rightLagMicros as {@code leftLagMicros}, for the right column
 * @param minDifferenceMicros least {@code l - r} the condition lets match, or {@code Long.MIN_VALUE}
 * @param maxDifferenceMicros greatest {@code l - r} the condition lets match, or {@code Long.MAX_VALUE}
 */
public record IntervalJoinCleaning(
        int leftColumn,
        int rightColumn,
        int leftRelationId,
        long leftLagMicros,
        int rightRelationId,
        long rightLagMicros,
        long minDifferenceMicros,
        long maxDifferenceMicros) {

    /** Whether left rows are ever forgotten: the condition bounds the difference from below. */
    public boolean cleansLeft() {
        return minDifferenceMicros != Long.MIN_VALUE;
    }

    /** Whether right rows are ever forgotten: the condition bounds the difference from above. */
    public boolean cleansRight() {
        return maxDifferenceMicros != Long.MAX_VALUE;
    }

    /**
     * The greatest left value whose rows may go under watermarks {@code leftWatermark} and {@code
     * rightWatermark} (neither {@code Long.MIN_VALUE}); only when {@link #cleansLeft()}.
     */
    public long leftUpTo(long leftWatermark, long rightWatermark) {
        return Math.min(leftWatermark - leftLagMicros, rightWatermark - rightLagMicros + minDifferenceMicros);
    }

    /** As {@link #leftUpTo}, for right values; only when {@link #cleansRight()}. */
    public long rightUpTo(long leftWatermark, long rightWatermark) {
        return Math.min(rightWatermark - rightLagMicros, leftWatermark - leftLagMicros - maxDifferenceMicros);
    }
}
