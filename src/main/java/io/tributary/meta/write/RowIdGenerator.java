package io.tributary.meta.write;

import io.tributary.common.Epoch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Generates the hidden row ids of tables without a primary key: {@code millis << 22 | sequence}.
 * Ids grow strictly within a process and, because the start is past the last committed epoch's
 * wall time, across restarts too, so no id is ever handed out twice. Thread-safe.
 */
public final class RowIdGenerator {
    private static final int SEQ_BITS = 22;
    private final AtomicLong last;

    public RowIdGenerator(long committedEpoch) {
        long floor = Math.max(Epoch.millis(committedEpoch) + 1, System.currentTimeMillis()) << SEQ_BITS;
        this.last = new AtomicLong(floor);
    }

    /** A row id greater than every one handed out before, in this process or an earlier one. */
    public long next() {
        long now = System.currentTimeMillis() << SEQ_BITS;
        return last.updateAndGet(prev -> Math.max(prev + 1, now));
    }
}
