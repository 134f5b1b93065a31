package io.tributary.plan;

import java.util.List;

/**
 * A node of a stream plan: an operator over change streams. Plans are immutable trees built by
 * the SQL planner and turned into actors by the stream engine; {@link ExchangeNode}s cut them into
 * fragments, each run by one or more parallel actors.
 */
public sealed interface StreamNode
        permits SourceNode,
                ProjectNode,
                FilterNode,
                TemporalFilterNode,
                HashAggNode,
                HashJoinNode,
                TemporalJoinNode,
                UnionNode,
                TopNNode,
                OverWindowNode,
                UnnestNode,
                ExchangeNode,
                MaterializeNode {

    /** Output columns. */
    List<Field> fields();

    /**
     * Columns that identify a row of the output: no two rows present at once share them. Views
     * keep them as their primary key.
     */
    int[] streamKey();

    /** How the output is split among this node's parallel actors. */
    Distribution distribution();

    List<StreamNode> inputs();

    /** Number of state tables the operator keeps (and the plan allocates ids for). */
    default int stateTableCount() {
        return 0;
    }
}
