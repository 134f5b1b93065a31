package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Brings a view's relational plan into the shape the stream planner translates: SESSION windows
 * become window functions ({@link SessionWindows}), subqueries become
 * joins, AVG becomes SUM / COUNT, UNION becomes a DISTINCT over UNION ALL, filters move into joins
 * and below projections, adjacent projections and filters merge, and the two columns of every
 * join key get one type (both sides of a hash join must hash and encode a key alike). Stateless.
 */
final class ViewRewrites {
    /** Guards against rules undoing each other forever; real queries need far fewer matches. */
    private static final int MATCH_LIMIT = 10_000;

    private ViewRewrites() {}

    static RelNode normalise(RelNode rel) {
        HepPlanner planner = new HepPlanner(program());
        // constants fold with timestamps in microseconds, as the view's compiled expressions hold them
        planner.setExecutor(new MicrosecondFolding(org.apache.calcite.rex.RexUtil.EXECUTOR));
        // SESSION becomes window functions, which the rules below turn into Window nodes
        planner.setRoot(SessionWindows.expandAll(rel));
        return planner.findBestExp().accept(new JoinKeyTypes());
    }

    /** Whether the plan still has subqueries, i.e. before {@link #normalise}: errors then name them. */
    static boolean hasSubQuery(RelNode rel) {
        boolean[] found = {false};
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                found[0] |= node instanceof Filter f && RexUtil.SubQueryFinder.containsSubQuery(f)
                        || node instanceof Project p && RexUtil.SubQueryFinder.containsSubQuery(p)
                        || node instanceof Join j && RexUtil.SubQueryFinder.containsSubQuery(j);
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
        return found[0];
    }

    /** A program per use: Hep programs keep matching state. */
    private static HepProgram program() {
        RelOptRule avgOnly = AggregateReduceFunctionsRule.Config.DEFAULT
                .withFunctionsToReduce(EnumSet.of(SqlKind.AVG))
                .toRule();
        return new HepProgramBuilder()
                .addMatchLimit(MATCH_LIMIT)
                .addRuleCollection(List.of(
                        CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
                        CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE,
                        CoreRules.JOIN_SUB_QUERY_TO_CORRELATE))
                // window functions leave projections for Window nodes the stream planner translates
                .addRuleInstance(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW)
                .addRuleInstance(avgOnly)
                .addRuleCollection(List.of(CoreRules.UNION_TO_DISTINCT, CoreRules.UNION_MERGE))
                .addRuleCollection(List.of(
                        CoreRules.FILTER_INTO_JOIN,
                        CoreRules.JOIN_CONDITION_PUSH,
                        CoreRules.JOIN_PUSH_EXPRESSIONS,
                        CoreRules.FILTER_PROJECT_TRANSPOSE,
                        CoreRules.FILTER_MERGE,
                        CoreRules.PROJECT_MERGE,
                        CoreRules.PROJECT_REMOVE,
                        CoreRules.AGGREGATE_PROJECT_MERGE))
                .build();
    }

    /**
     * Casts the columns of an equality between the two sides of a join to their common type where
     * their values would encode differently (an INTEGER against a BIGINT), and pushes the casts
     * into projections below the join.
     */
    private static final class JoinKeyTypes extends RelHomogeneousShuttle {
        @Override
        public RelNode visit(RelNode other) {
            RelNode node = super.visit(other);
            return node instanceof Join join ? align(join) : node;
        }

        private static RelNode align(Join join) {
            RexBuilder rexBuilder = join.getCluster().getRexBuilder();
            int leftCount = join.getLeft().getRowType().getFieldCount();
            boolean changed = false;
            List<RexNode> conjuncts = new ArrayList<>();
            for (RexNode c : RelOptUtil.conjunctions(join.getCondition())) {
                RexNode aligned = c;
                if ((c.getKind() == SqlKind.EQUALS || c.getKind() == SqlKind.IS_NOT_DISTINCT_FROM)
                        && c instanceof RexCall call
                        && call.getOperands().get(0) instanceof RexInputRef a
                        && call.getOperands().get(1) instanceof RexInputRef b
                        && (a.getIndex() < leftCount) != (b.getIndex() < leftCount)
                        && !sameKeyEncoding(a.getType(), b.getType())) {
                    RelDataType common =
                            rexBuilder.getTypeFactory().leastRestrictive(List.of(a.getType(), b.getType()));
                    if (common != null) {
                        aligned = rexBuilder.makeCall(
                                call.getOperator(), cast(rexBuilder, a, common), cast(rexBuilder, b, common));
                        changed = true;
                    }
                }
                conjuncts.add(aligned);
            }
            if (!changed) {
                return join;
            }
            Join rewritten = join.copy(
                    join.getTraitSet(),
                    RexUtil.composeConjunction(rexBuilder, conjuncts),
                    join.getLeft(),
                    join.getRight(),
                    join.getJoinType(),
                    join.isSemiJoinDone());
            return RelOptUtil.pushDownJoinConditions(
                    rewritten, RelFactories.LOGICAL_BUILDER.create(join.getCluster(), null));
        }

        private static RexNode cast(RexBuilder rexBuilder, RexInputRef ref, RelDataType common) {
            RelDataType type = rexBuilder
                    .getTypeFactory()
                    .createTypeWithNullability(common, ref.getType().isNullable());
            return type.equals(ref.getType()) ? ref : rexBuilder.makeCast(type, ref);
        }
    }

    /** Whether equal values of the two types have the same key encoding (and so the same vnode). */
    static boolean sameKeyEncoding(RelDataType a, RelDataType b) {
        DataType x = TypeMapping.fromRelType(a);
        DataType y = TypeMapping.fromRelType(b);
        return x.kind() == y.kind() || x.kind().isString() && y.kind().isString();
    }
}
