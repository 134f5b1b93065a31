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
 *
 * <p>A dimension join ({@link #broadcastsRight()}): an INNER or LEFT join whose right input is a
 * {@link Distribution#BROADCAST} exchange. The left input stays where it is (distributed by
 * columns of its stream key), every actor gets every right row, and the output is where its left
 * row is. The planner chooses it only when the right join keys cover the right stream key, so a
 * left row matches at most one right row at a time and the left stream key alone identifies an
 * output row. Every actor writes the whole right side into table 1 (the same writes, so they
 * commit to the same rows); each writes its own left rows into table 0, distributed by the join key
 * as usual, and a scan of table 0 keeps only the rows of the actor's own vnodes.
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

    /**
     * Whether the right input is broadcast to every actor and the left input is not exchanged (a
     * dimension join, see the class comment).
     */
    public boolean broadcastsRight() {
        return right instanceof ExchangeNode e && e.distribution().kind() == Distribution.Kind.BROADCAST;
    }

    @Override
    public Distribution distribution() {
        if (broadcastsRight()) {
            return left.distribution();
        }
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
