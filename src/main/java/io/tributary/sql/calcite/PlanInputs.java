package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.RelNode;

/**
 * The inputs-first step of the plan passes that rewrite a plan bottom up after planning ({@link
 * MicrosecondPlans}, {@link ArrayNullabilityCasts}); planning thread, stateless.
 */
final class PlanInputs {
    private PlanInputs() {}

    /**
     * {@code rel} over its inputs as {@code rewrite} gives them (a copy when any of them changed,
     * else {@code rel} itself), for the caller to rewrite the node itself next.
     */
    static RelNode rewritten(RelNode rel, UnaryOperator<RelNode> rewrite) {
        List<RelNode> inputs = rel.getInputs();
        List<RelNode> rewritten = new ArrayList<>(inputs.size());
        boolean changed = false;
        for (RelNode input : inputs) {
            RelNode next = rewrite.apply(input);
            changed |= next != input;
            rewritten.add(next);
        }
        return changed ? rel.copy(rel.getTraitSet(), rewritten) : rel;
    }
}
