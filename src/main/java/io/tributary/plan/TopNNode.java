package io.tributary.plan;

import java.util.List;

/**
 * {@code ORDER BY order LIMIT limit OFFSET offset}: keeps exactly the rows ranked
 * {@code offset + 1 .. offset + limit} by {@code order}, ties broken by the stream key. Input must
 * be single.
 *
 * <p>State table 0 holds every input row ordered by (order, stream key).
 */
public record TopNNode(StreamNode input, List<SortKey> order, long offset, long limit) implements StreamNode {
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
        return 1;
    }
}
