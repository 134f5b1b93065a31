package io.tributary.plan;

import java.util.List;

/** Computes {@code exprs} for every input row. */
public record ProjectNode(
        StreamNode input, List<ScalarExpr> exprs, List<Field> fields, int[] streamKey, Distribution distribution)
        implements StreamNode {
    @Override
    public List<StreamNode> inputs() {
        return List.of(input);
    }
}
