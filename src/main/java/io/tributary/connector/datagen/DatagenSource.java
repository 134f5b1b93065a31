package io.tributary.connector.datagen;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.Source;
import io.tributary.connector.SplitReader;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A datagen table's source: splits {@code "0"} to {@code "n-1"}, split {@code i} making rows
 * {@code i, i+n, i+2n, ...}, so together they make every row exactly once. Nothing outside
 * Tributary: the identity is empty and destroying does nothing. Thread-safe (immutable).
 */
final class DatagenSource implements Source {
    private final DatagenSpec spec;
    private final List<String> splits;

    DatagenSource(DatagenSpec spec) {
        this.spec = spec;
        this.splits = IntStream.range(0, spec.splitCount())
                .mapToObj(Integer::toString)
                .toList();
    }

    @Override
    public List<String> splits() {
        return splits;
    }

    /** The position is the split's next sequence number, 8 bytes big-endian. */
    @Override
    public SplitReader reader(String split, byte[] position) {
        int index = splits.indexOf(split);
        if (index < 0) {
            throw new ConnectorException(SqlState.INTERNAL_ERROR, "datagen has no split " + split);
        }
        long next = index;
        if (position != null) {
            if (position.length != Long.BYTES) {
                throw new ConnectorException(SqlState.INTERNAL_ERROR, "corrupt datagen position for split " + split);
            }
            next = ByteBuffer.wrap(position).getLong();
            if (next < 0 || next % spec.splitCount() != index) {
                throw new ConnectorException(
                        SqlState.INTERNAL_ERROR,
                        "datagen position " + next + " does not belong to split " + split + " of " + spec.splitCount());
            }
        }
        return new DatagenReader(spec, next);
    }
}
