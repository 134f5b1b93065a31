package io.tributary.plan;

import java.util.List;

/**
 * Writes its input into the view {@code relationId}, whose columns are the input's fields (the
 * visible ones first, then hidden stream-key columns) and whose primary key is the input's stream
 * key; passes the changes on to views built on this one. Input must be distributed by that key.
 */
public record MaterializeNode(StreamNode input, int relationId, String relationName) implements StreamNode {
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
        return Distribution.hash(input.streamKey());
    }

    @Override
    public List<StreamNode> inputs() {
        return List.of(input);
    }
}
