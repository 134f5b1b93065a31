package io.tributary.sql.calcite;

import io.tributary.plan.Distribution;
import io.tributary.plan.JoinKind;
import io.tributary.plan.StreamNode;
import java.util.Arrays;

/**
 * Decides when a view's equi-join is planned as a dimension join ({@link
 * io.tributary.plan.HashJoinNode#broadcastsRight()}): the right side broadcast to every actor, the
 * left side left where it is and the output keyed by the left stream key alone. The planner has no
 * row counts, so "small" is read from the keys, as in a star schema: the right join keys cover the
 * right side's stream key (each left row matches at most one right row, a lookup by the dimension's
 * primary key) and the left join keys do not cover the left side's (the left side is the many side;
 * a one-to-one join keeps the hash join, having no reason to prefer either side). Stateless.
 *
 * <p>What it buys: the big side is neither exchanged nor re-keyed, so a backfill's snapshot rows
 * reach the view in the view's key order, on the actor that read them. What it costs: every actor
 * holds and writes the whole right side, so a right side as large as the left is slower this way
 * (its writes are multiplied by the parallelism), though never wrong.
 */
final class DimensionJoins {
    private DimensionJoins() {}

    /**
     * @param left the left input before any exchange
     * @param right the right input before any exchange
     * @param cleaned whether the join forgets state by watermarks (kept as a hash join: cleaning
     *     indexes each actor's own vnodes of both tables)
     */
    static boolean broadcastsRight(
            JoinKind kind, StreamNode left, int[] leftKeys, StreamNode right, int[] rightKeys, boolean cleaned) {
        if (kind != JoinKind.INNER && kind != JoinKind.LEFT || cleaned) {
            return false;
        }
        Distribution placed = left.distribution();
        // each left row's changes must all reach one actor, in order: the output is keyed by it
        return placed.kind() == Distribution.Kind.HASH
                && covers(left.streamKey(), placed.keys())
                && covers(rightKeys, right.streamKey())
                && !covers(leftKeys, left.streamKey());
    }

    /** Whether every column of {@code needed} is among {@code columns}. */
    private static boolean covers(int[] columns, int[] needed) {
        for (int c : needed) {
            if (Arrays.stream(columns).noneMatch(k -> k == c)) {
                return false;
            }
        }
        return true;
    }
}
