package io.tributary.plan;

import java.util.List;
import java.util.stream.IntStream;

/**
 * GROUP BY {@code groupKeys} computing {@code calls}; output is the group keys then one column per
 * call. Without group keys it is a global aggregate: exactly one row at all times, as in SQL
 * (COUNT 0, other aggregates NULL over no rows). A group's row disappears with its last input row.
 * Input must be distributed by the group keys (or single for a global aggregate).
 *
 * <p>State tables: the first holds one row per group (its accumulators and row count); then one
 * per call that {@link AggCall#keepsValues() keeps values}, in call order, holding
 * (group, value) with the value's multiplicity.
 *
 * <p>{@code cleaning}, when not null, says which groups' state may be dropped as a watermark passes
 * them (see {@link WindowCleaning}).
 */
public record HashAggNode(
        StreamNode input,
        int[] groupKeys,
        List<AggCall> calls,
        List<Field> fields,
        @StateLifetime WindowCleaning cleaning)
        implements StreamNode {
    /** An aggregate that keeps every group's state as long as the group has rows. */
    public HashAggNode(StreamNode input, int[] groupKeys, List<AggCall> calls, List<Field> fields) {
        this(input, groupKeys, calls, fields, null);
    }

    @Override
    public int[] streamKey() {
        return IntStream.range(0, groupKeys.length).toArray();
    }

    @Override
    public Distribution distribution() {
        return groupKeys.length == 0 ? Distribution.SINGLE : Distribution.hash(streamKey());
    }

    @Override
    public List<StreamNode> inputs() {
        return List.of(input);
    }

    @Override
    public int stateTableCount() {
        return 1 + (int) calls.stream().filter(AggCall::keepsValues).count();
    }
}
