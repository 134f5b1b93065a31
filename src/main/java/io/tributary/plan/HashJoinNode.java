package io.tributary.plan;

import java.util.List;

/**
 * An equi-join: output rows are the left columns then the right columns; unmatched rows of a
 * padded side appear with NULLs for the other side. Rows match when {@code leftKeys[i]} equals
 * {@code rightKeys[i]} for every i (NULL matches NULL only where {@code nullSafe[i]}) and the
 * optional {@code condition} (over the concatenated row) is true. Inputs must be distributed by
 * their join keys. The output is where the rows were joined: by the left keys, except that a right
 * join's rows are placed by their right keys (its NULL-padded rows have no left key) and a full
 * join's by either.
 *
 * <p>State tables: 0 holds the left rows keyed by (left keys, left stream key), 1 the right rows
 * likewise; outer sides also keep each row's number of matches. {@code cleaning}, when not null,
 * says which rows may be dropped from them as watermarks pass (see {@link JoinCleaning}), and so
 * does {@code intervalCleaning} for a condition that bounds two time columns' distance (see {@link
 * IntervalJoinCleaning}); at most one of the two is set.
 */
public record HashJoinNode(
        StreamNode left,
        StreamNode right,
        JoinKind kind,
        int[] leftKeys,
        int[] rightKeys,
        boolean[] nullSafe,
        ScalarExpr condition,
        List<Field> fields,
        int[] streamKey,
        @StateLifetime JoinCleaning cleaning,
        @StateLifetime IntervalJoinCleaning intervalCleaning)
        implements StreamNode {
    /** A join that keeps every row while it is present. */
    public HashJoinNode(
            StreamNode left,
            StreamNode right,
            JoinKind kind,
            int[] leftKeys,
            int[] rightKeys,
            boolean[] nullSafe,
            ScalarExpr condition,
            List<Field> fields,
            int[] streamKey) {
        this(left, right, kind, leftKeys, rightKeys, nullSafe, condition, fields, streamKey, null, null);
    }

    @Override
    public Distribution distribution() {
        return switch (kind) {
            case INNER, LEFT -> Distribution.hash(leftKeys);
            case RIGHT -> {
                int offset = left.fields().size();
                yield Distribution.hash(
                        java.util.Arrays.stream(rightKeys).map(k -> k + offset).toArray());
            }
            case FULL -> Distribution.SOME;
        };
    }

    @Override
    public List<StreamNode> inputs() {
        return List.of(left, right);
    }

    @Override
    public int stateTableCount() {
        return 2;
    }
}
