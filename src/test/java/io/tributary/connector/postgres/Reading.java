package io.tributary.connector.postgres;

import static org.junit.jupiter.api.Assertions.fail;

import io.tributary.connector.SourceBatch;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SplitReader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Polls a reader in the tests, the way the engine's source thread does. */
final class Reading {
    private static final long TIMEOUT_MILLIS = 30_000;

    private Reading() {}

    /** Polls until {@code done} holds for all changes read so far; fails after 30 s. */
    static List<SourceChange> until(SplitReader reader, Predicate<List<SourceChange>> done)
            throws InterruptedException {
        List<SourceChange> changes = new ArrayList<>();
        long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
        while (!done.test(changes)) {
            if (System.currentTimeMillis() > deadline) {
                fail("timed out; read " + changes.size() + " changes");
            }
            SourceBatch batch = reader.poll(50, 1000);
            changes.addAll(batch.changes());
        }
        return changes;
    }

    /** Polls until at least {@code n} changes arrived. */
    static List<SourceChange> atLeast(SplitReader reader, int n) throws InterruptedException {
        return until(reader, c -> c.size() >= n);
    }
}
