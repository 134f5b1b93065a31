package io.tributary.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a plan's stateful nodes receive their state table ids: pre-order (a node,
 * then its inputs in order), each node taking its next {@link StreamNode#stateTableCount()} ids.
 * The stream engine and EXPLAIN use the same order, and because plans of one query are equal, a
 * restarted job finds its state under the same ids. Stateless.
 */
public final class StatePlan {
    private StatePlan() {
    }

    public static List<StreamNode> preOrder(StreamNode root) {
        List<StreamNode> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(StreamNode node, List<StreamNode> out) {
        out.add(node);
        for (StreamNode input : node.inputs()) {
            collect(input, out);
        }
    }

    /** Total number of state tables the plan needs. */
    public static int stateTableCount(StreamNode root) {
        return preOrder(root).stream().mapToInt(StreamNode::stateTableCount).sum();
    }
}
