package io.tributary.plan;

/**
 * How a {@link HashAggNode} over a watermarked table forgets finished windows: a group whose value
 * {@code v} of group key {@code keyIndex} satisfies {@code v + lagMicros <= watermark} of table
 * {@code relationId} can never receive another row (rows below the watermark are dropped as they
 * arrive, and the watermark never goes back), so its state is removed; its output row stays in
 * the view. The planner proves the bound: {@code window_end} of a TUMBLE or HOP is greater than
 * the row's time (lag 0), {@code window_start} greater than the time minus the size (lag = size).
 *
 * @param keyIndex position in the node's group keys of the window bound column (a TIMESTAMP or
 *     TIMESTAMPTZ)
 * @param relationId the watermarked table whose rows reach the aggregate
 * @param lagMicros how far the column may trail the row's time
 * @param emitOnClose EMIT ON WINDOW CLOSE: the aggregate emits a group's row once, as an insert,
 *     when the watermark finishes its window, and never before (so never an update or a retraction)
 */
public record WindowCleaning(int keyIndex, int relationId, long lagMicros, boolean emitOnClose) {}
