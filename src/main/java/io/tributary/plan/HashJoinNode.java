package io.tributary.plan;

import java.util.List;

/**
 * An equi-join: output rows are the left columns then the right columns; unmatched rows of a
 * padded side appear with NULLs for the other side. Rows match when {@code leftKeys[i]} equals
 * {@code rightKeys[i]} for every i (NULL matches NULL only where {@code nullSafe[i]}) and the
 * optional {@code condition} (over the concatenated row) is true. Inputs must be distributed by
 * their join keys.
 *
 * <p>State tables: 0 holds the left rows keyed by (left keys, left stream key), 1 the right rows
 * likewise; outer sides also keep each row's number of matches.
 */
public record HashJoinNode(StreamNode left, StreamNode right, JoinKind kind, int[] leftKeys, int[] rightKeys,
        boolean[] nullSafe, ScalarExpr condition, List<Field> fields, int[] streamKey) implements StreamNode {
    @Override
    public Distribution distribution() {
        return Distribution.hash(leftKeys);
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
