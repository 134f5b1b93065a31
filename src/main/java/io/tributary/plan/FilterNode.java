package io.tributary.plan;

import java.util.List;

/** Keeps the rows for which {@code condition} is true (not false, not NULL). */
public record FilterNode(StreamNode input, ScalarExpr condition) implements StreamNode {
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
        return input.distribution();
    }

    @Override
    public List<StreamNode> inputs() {
        return List.of(input);
    }
}
