package io.tributary.connector;

import java.util.List;

/**
 * Changes read from a split, in order, and the input that was skipped while reading them.
 *
 * @param changes rows to apply to the table
 * @param skipped malformed input left out (with {@code on_error = 'skip'}), for the user to see
 */
public record SourceBatch(List<SourceChange> changes, List<SkippedInput> skipped) {
    public static final SourceBatch EMPTY = new SourceBatch(List.of(), List.of());

    public boolean isEmpty() {
        return changes.isEmpty() && skipped.isEmpty();
    }
}
