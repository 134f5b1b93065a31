package io.tributary.stream.operators;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rows of one join side that share one join key, each with its degree, indexed by the
 * encoding of its stream key (unique among the rows present, so a delete finds its row). A copy
 * of part of a {@link JoinSide}'s state table, kept coherent by that side. One actor thread.
 */
final class JoinBucket {
    /**
     * A stored side row. {@code degree} is its number of current matches on the other side; kept
     * only for a padded side (it decides when the NULL-padded row must come and go), 0 otherwise.
     */
    static final class Row {
        final Object[] values;
        long degree;

        Row(Object[] values, long degree) {
            this.values = values;
            this.degree = degree;
        }
    }

    /**
     * No rows: what a held side answers for a join key it holds no bucket of. Never added to, as
     * only cached buckets are.
     */
    static final JoinBucket EMPTY = new JoinBucket();

    private final Map<JoinSide.Key, Row> rows = new LinkedHashMap<>();

    /** @return how many rows the bucket gained (1, or 0 when the stream key was present) */
    int add(JoinSide.Key streamKey, Row row) {
        return rows.put(streamKey, row) == null ? 1 : 0;
    }

    /** @return how many rows the bucket lost (1, or 0 when the stream key was absent) */
    int remove(JoinSide.Key streamKey) {
        return rows.remove(streamKey) == null ? 0 : 1;
    }

    int size() {
        return rows.size();
    }

    /** The rows, for iterating; callers may change degrees but must not add or remove while iterating. */
    Collection<Row> rows() {
        return rows.values();
    }
}
