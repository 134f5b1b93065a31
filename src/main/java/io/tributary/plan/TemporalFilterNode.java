package io.tributary.plan;

import java.util.List;

/**
 * A temporal filter: keeps the rows whose {@code time} (a TIMESTAMP or TIMESTAMPTZ expression over
 * the input row) passes every one of {@code bounds} at the current time, where the current time is
 * the commit time of the epoch the view's rows belong to. Rows enter and leave the output as
 * epochs pass, without any input change. Runs on one actor, since it scans its rows in time order.
 *
 * <p>State table 0 holds the input rows whose visibility may still change, keyed by (time, stream
 * key); state table 1 holds one row, the current time the output reflects.
 */
public record TemporalFilterNode(StreamNode input, ScalarExpr time, List<TimeBound> bounds) implements StreamNode {
    @Override
    public List<Field> fields() {
        return input.fields();
    }

    @Override
    public int[] streamKey() {
        return input.streamKey();
    }

    @Override
    public Distribution distribution() {
        return Distribution.SINGLE;
    }

    @Override
    public List<StreamNode> inputs() {
        return List.of(input);
    }

    @Override
    public int stateTableCount() {
        return 2;
    }
}
