package io.tributary.plan;

/**
 * How a {@link HashJoinNode} over watermarked tables forgets rows that can never match again: the
 * rows of both sides whose join key {@code keyIndex} has value {@code v} with {@code v +
 * leftLagMicros <= watermark} of table {@code leftRelationId} and {@code v + rightLagMicros <=
 * watermark} of table {@code rightRelationId}. Neither side can then receive another row (an
 * insert or a retraction) with that key value, so no later change can match, unmatch or re-pad
 * them; the joined rows already emitted stay in the view. The planner proves the bounds as for
 * {@link WindowCleaning}, on both sides of one equality: a window bound of a TUMBLE or HOP, or
 * an aggregate's group key that is one.
 *
 * @param keyIndex position in the node's join keys of the window bound pair (TIMESTAMP or
 *     TIMESTAMPTZ on both sides)
 * @param leftRelationId the watermarked table whose rows reach the left side's key column
 * @param leftLagMicros how far the left key column may trail that table's time
 * @param rightRelationId as {@code leftRelationId}, for the right side
 * @param rightLagMicros as {@code leftLagMicros}, for the right side
 */
public record JoinCleaning(
        int keyIndex, int leftRelationId, long leftLagMicros, int rightRelationId, long rightLagMicros) {}
