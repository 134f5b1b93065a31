package io.tributary.crash;

import java.util.function.Consumer;

/**
 * One DML statement of a writer together with the effect it must have on the writer's rows.
 *
 * @param sql the statement
 * @param expectedCount the update count it must report when acknowledged
 * @param effect applies the statement to a predicted state
 */
record WriterOp(String sql, long expectedCount, Consumer<WriterState> effect) {
    WriterState applyTo(WriterState before) {
        WriterState after = before.copy();
        effect.accept(after);
        return after;
    }
}
