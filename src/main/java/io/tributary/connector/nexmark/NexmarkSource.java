package io.tributary.connector.nexmark;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.Source;
import io.tributary.connector.SplitReader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A nexmark table's source. Its identity is the generator's base time (the wall clock, in
 * milliseconds, when the table was created), so event times are the same after every restart.
 * Split {@code i} of {@code n} generates the table's events whose index among the table's events
 * is {@code i} modulo {@code n}. Thread-safe (immutable).
 */
final class NexmarkSource implements Source {
    private final NexmarkOptions options;
    private final long baseMillis;
    private final List<String> splits = new ArrayList<>();

    /** @param identity what {@link #identity()} returned at the first open, or null at the first open */
    NexmarkSource(NexmarkOptions options, byte[] identity) {
        this.options = options;
        if (identity == null) {
            baseMillis = System.currentTimeMillis();
        } else if (identity.length == Long.BYTES) {
            baseMillis = ByteBuffer.wrap(identity).getLong();
        } else {
            throw new ConnectorException(SqlState.DATA_EXCEPTION, "unreadable nexmark source identity");
        }
        for (int i = 0; i < options.splitNum(); i++) {
            splits.add(Integer.toString(i));
        }
    }

    @Override
    public byte[] identity() {
        return ByteBuffer.allocate(Long.BYTES).putLong(baseMillis).array();
    }

    @Override
    public List<String> splits() {
        return List.copyOf(splits);
    }

    @Override
    public SplitReader reader(String split, byte[] position) {
        int index = splits.indexOf(split);
        if (index < 0) {
            throw new ConnectorException(SqlState.INTERNAL_ERROR, "nexmark source has no split " + split);
        }
        return new NexmarkSplitReader(options, new NexmarkGenerator(baseMillis * 1000), index, position);
    }
}
