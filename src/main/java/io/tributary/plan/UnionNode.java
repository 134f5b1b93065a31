package io.tributary.plan;

import java.util.List;

/**
 * UNION ALL: the changes of every input, which all have this node's fields (the planner makes the
 * stream key unique across inputs, e.g. with a branch column). Inputs must be distributed as this
 * node's {@code distribution}.
 */
public record UnionNode(List<StreamNode> inputs, List<Field> fields, int[] streamKey, Distribution distribution)
        implements StreamNode {}
