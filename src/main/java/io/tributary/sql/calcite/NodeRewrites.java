package io.tributary.sql.calcite;

import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.tools.Program;

/**
 * The shape of the planning steps that rewrite a plan node by node before the planner runs
 * ({@link ArrayOrderPlans}, {@link ArrayTextOperands}, {@link UuidPlans}): run by the frontend's
 * program on the planning thread; stateless.
 */
final class NodeRewrites {
    private NodeRewrites() {}

    /**
     * Rewrites every node of the plan with {@code node} (inputs first, each node after its inputs
     * were rewritten), then runs {@code planning} on it. A required output order on a column whose
     * type {@code sortedByRewrite} accepts (the query's ORDER BY) is dropped from the traits: the
     * rewritten sort already gives it, and the planner would otherwise sort again in Calcite's
     * order.
     */
    static Program before(Program planning, UnaryOperator<RelNode> node, Predicate<RelDataType> sortedByRewrite) {
        return (planner, rel, traits, materializations, lattices) -> {
            RelNode rewritten = rel.accept(new RelHomogeneousShuttle() {
                @Override
                public RelNode visit(RelNode other) {
                    return node.apply(super.visit(other));
                }
            });
            RelCollation order = traits.getTrait(RelCollationTraitDef.INSTANCE);
            boolean rewrittenOrder = order != null
                    && order.getFieldCollations().stream()
                            .anyMatch(k -> sortedByRewrite.test(rel.getRowType()
                                    .getFieldList()
                                    .get(k.getFieldIndex())
                                    .getType()));
            RelTraitSet required = rewrittenOrder ? traits.replace(RelCollations.EMPTY) : traits;
            return planning.run(planner, rewritten, required, materializations, lattices);
        };
    }
}
