package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries that match values PostgreSQL holds equal but {@code equals}
 * tells apart ({@code -0} and {@code 0}, {@code 1.5} and {@code 1.50}), run by the frontend's
 * program ahead of the planner on the planning thread; immutable. The semi-joins and hash joins
 * that planning makes of {@code x IN (SELECT y ...)}, {@code = ANY}, {@code NOT IN}, a join's
 * equality and a sub-query's correlated equality key by {@code equals}; so in each of these both
 * sides go through the {@link Keys key call} when their types are {@link Keys#compared keyed},
 * as do window partition keys when asked; sub-queries' plans are rewritten alike, and each node
 * then goes through the caller's own rewrite (of aggregates, set operations). {@link
 * FloatKeyPlans} and {@link NumericKeyPlans} are its two uses.
 */
final class KeyPlans {
    /** Which values are keyed, and their key. */
    interface Keys {
        /** Whether values of types {@code a} and {@code b} are compared by their keys. */
        boolean compared(RelDataType a, RelDataType b);

        /** {@code value}'s key, typed as {@code value} is: equal for values PostgreSQL holds equal. */
        RexNode key(RexBuilder rex, RexNode value);
    }

    private final Keys keys;
    private final boolean partitions;
    private final UnaryOperator<RelNode> nodes;

    /**
     * @param partitions whether a window's partition key of a type compared with itself is keyed
     * @param nodes each node's further rewrite, after its operands' and sub-queries'
     */
    KeyPlans(Keys keys, boolean partitions, UnaryOperator<RelNode> nodes) {
        this.keys = keys;
        this.partitions = partitions;
        this.nodes = nodes;
    }

    /** Rewrites the plan's nodes, then runs {@code planning} on it. */
    Program before(Program planning) {
        return NodeRewrites.before(planning, this::rewritten, type -> false);
    }

    private RelNode rewritten(RelNode node) {
        node = nodes.apply(node.accept(new OperandKeys(node.getCluster().getRexBuilder())));
        if (node instanceof LogicalFilter filter && RexUtil.containsCorrelation(filter.getCondition())) {
            // a sub-query's equality with the outer row's value, which decorrelation makes a join key
            RexNode condition = filter.getCondition()
                    .accept(new EqualityKeys(filter.getCluster().getRexBuilder()));
            return condition == filter.getCondition()
                    ? filter
                    : filter.copy(filter.getTraitSet(), filter.getInput(), condition);
        }
        if (node instanceof LogicalJoin join) {
            return withCondition(
                    join,
                    join.getCondition()
                            .accept(new EqualityKeys(join.getCluster().getRexBuilder())));
        }
        return node;
    }

    /** {@code join} with {@code condition}, or itself when that is its condition. */
    static RelNode withCondition(Join join, RexNode condition) {
        return condition == join.getCondition()
                ? join
                : join.copy(
                        join.getTraitSet(),
                        condition,
                        join.getLeft(),
                        join.getRight(),
                        join.getJoinType(),
                        join.isSemiJoinDone());
    }

    /**
     * A window's keyed partition keys through their key (when asked); a sub-query's plan rewritten
     * as the query's, and in {@code x IN (SELECT ...)} (or {@code = ANY}) each keyed operand and
     * the column it is looked up in compared by their keys.
     */
    private final class OperandKeys extends RexShuttle {
        private final RexBuilder rex;

        OperandKeys(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitOver(RexOver over) {
            RexOver visited = (RexOver) super.visitOver(over);
            RexWindow window = visited.getWindow();
            if (!partitions || window.partitionKeys.stream().noneMatch(k -> compared(k))) {
                return visited;
            }
            List<RexNode> partition = window.partitionKeys.stream()
                    .map(k -> compared(k) ? keys.key(rex, k) : k)
                    .toList();
            return WindowCalls.withPartitionKeys(rex, visited, partition);
        }

        private boolean compared(RexNode k) {
            return keys.compared(k.getType(), k.getType());
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            RelNode plan = visited.rel.accept(new RelHomogeneousShuttle() {
                @Override
                public RelNode visit(RelNode other) {
                    return rewritten(super.visit(other));
                }
            });
            boolean membership = visited.getKind() == SqlKind.IN
                    || (visited.getOperator() instanceof SqlQuantifyOperator quantify
                            && quantify.comparisonKind == SqlKind.EQUALS);
            List<RelDataTypeField> fields = plan.getRowType().getFieldList();
            List<RexNode> operands = new ArrayList<>(visited.getOperands());
            List<RexNode> columns = new ArrayList<>(fields.size());
            boolean keyed = false;
            for (RelDataTypeField field : fields) {
                int i = field.getIndex();
                RexNode column = rex.makeInputRef(plan, i);
                if (membership
                        && i < operands.size()
                        && keys.compared(operands.get(i).getType(), field.getType())) {
                    operands.set(i, keys.key(rex, operands.get(i)));
                    column = keys.key(rex, column);
                    keyed = true;
                }
                columns.add(column);
            }
            if (keyed) {
                plan = LogicalProject.create(
                        plan, List.of(), columns, plan.getRowType().getFieldNames(), Set.of());
            }
            RexSubQuery replanned = plan == visited.rel ? visited : visited.clone(plan);
            return keyed ? replanned.clone(replanned.getType(), operands) : replanned;
        }
    }

    /** Each {@code =} or IS NOT DISTINCT FROM of two keyed values compares their keys instead. */
    private final class EqualityKeys extends RexShuttle {
        private final RexBuilder rex;

        EqualityKeys(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            if ((visited.getKind() == SqlKind.EQUALS || visited.getKind() == SqlKind.IS_NOT_DISTINCT_FROM)
                    && keys.compared(
                            visited.operands.get(0).getType(),
                            visited.operands.get(1).getType())) {
                return visited.clone(
                        visited.getType(),
                        List.of(keys.key(rex, visited.operands.get(0)), keys.key(rex, visited.operands.get(1))));
            }
            return visited;
        }
    }
}
