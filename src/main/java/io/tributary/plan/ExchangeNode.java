package io.tributary.plan;

import java.util.List;

/** Redistributes its input among the next fragment's actors; fragments are cut here. */
public record ExchangeNode(StreamNode input, Distribution distribution) implements StreamNode {
    @Override
    public List<Field> fields() {
        return input.fields();
    }

    @Override
    public int[] streamKey() {
        return input.streamKey();
    }

    @Override
    public List<StreamNode> inputs() {
        return List.of(input);
    }
}
