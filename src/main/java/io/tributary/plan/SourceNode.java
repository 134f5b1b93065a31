package io.tributary.plan;

import java.util.List;

/**
 * The changes of an upstream table or materialized view, all columns (hidden ones included), its
 * primary key as stream key. A new job first reads the upstream's committed rows here (backfill),
 * then follows its changes.
 */
public record SourceNode(int relationId, String relationName, List<Field> fields, int[] streamKey)
        implements StreamNode {
    @Override
    public Distribution distribution() {
        return Distribution.hash(streamKey);
    }

    @Override
    public List<StreamNode> inputs() {
        return List.of();
    }
}
