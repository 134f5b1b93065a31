package io.tributary.stream;

/**
 * Where operators that clean state by a watermark read it: the committed watermark of a table
 * declared with {@code WATERMARK FOR}. Called on actor threads while they handle a barrier; during
 * the barrier of an epoch it returns the watermark as of that epoch's start (watermarks move only
 * when an epoch commits), which every row of the epoch was judged by. Thread-safe.
 */
@FunctionalInterface
public interface WatermarkReader {
    /** No watermarks at all: nothing is ever cleaned. */
    WatermarkReader NONE = relationId -> Long.MIN_VALUE;

    /** The watermark of table {@code relationId} in microseconds, {@code Long.MIN_VALUE} when it has none yet. */
    long watermark(int relationId);
}
