package io.tributary.plan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The order in which a plan's state tables are numbered: nodes in pre-order (a node, then its
 * inputs in order), each taking its next {@link StreamNode#stateTableCount()} ids. The catalog
 * stores a view's state table ids in this order, so a plan rebuilt from the view's query finds its
 * state again. Stateless.
 */
public final class StatePlan {
    private StatePlan() {}

    /** The nodes of the tree under {@code root} in pre-order; a subtree reached twice appears twice. */
    public static List<StreamNode> preOrder(StreamNode root) {
        List<StreamNode> out = new ArrayList<>();
        Deque<StreamNode> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            StreamNode node = stack.pop();
            out.add(node);
            List<StreamNode> inputs = node.inputs();
            for (int i = inputs.size() - 1; i >= 0; i--) {
                stack.push(inputs.get(i));
            }
        }
        return out;
    }

    /** The number of state tables of every node under {@code root}: how many ids the plan needs. */
    public static int stateTableCount(StreamNode root) {
        return preOrder(root).stream().mapToInt(StreamNode::stateTableCount).sum();
    }
}
