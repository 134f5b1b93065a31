package io.tributary.stream;

/**
 * Closes epoch {@code epoch} on a stream: every change before it belongs to that epoch or an
 * earlier one. Passing it, a stateful operator hands that epoch's state changes over for the
 * epoch's single atomic commit.
 */
public record Barrier(long epoch) {
}
