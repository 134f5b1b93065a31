package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalAggregate;
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
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries that match values PostgreSQL holds equal but {@code equals}
 * tells apart ({@code -0} and {@code 0}, {@code 1.5} and {@code 1.50}), run by the frontend's
 * program ahead of the planner on the planning thread; immutable. Calcite's hash aggregates, set
 * operations and the semi-joins and hash joins that planning makes of {@code x IN (SELECT y ...)},
 * {@code = ANY}, {@code NOT IN}, a join's equality and a sub-query's correlated equality key by
 * {@code equals}; so each such comparison of {@link Keys#compared keyed} types compares both sides'
 * {@link Keys#key keys}, a keyed group key, DISTINCT aggregate argument and set operation column
 * (but UNION ALL's) is replaced by its key below the grouping (the group showing {@link Keys#shown}
 * of its first value; an INTERSECT ALL or EXCEPT ALL its first input's first value, by {@link
 * SetOperationRepeats}), as are keyed window partition keys when asked; sub-queries' plans are
 * rewritten alike. {@link FloatKeyPlans} and {@link NumericKeyPlans} are its two uses.
 */
final class KeyPlans {
    /** Which values are keyed, and their key. */
    interface Keys {
        /** Whether values of types {@code a} and {@code b} are compared by their keys. */
        boolean compared(RelDataType a, RelDataType b);

        /** {@code value}'s key, typed as {@code value} is: equal for values PostgreSQL holds equal. */
        RexNode key(RexBuilder rex, RexNode value);

        /** What a group with key {@code key} shows, {@code first} the first value it met. */
        RexNode shown(RexBuilder rex, RexNode key, RexNode first);
    }

    private final Keys keys;
    private final boolean partitions;

    /**
     * @param partitions whether a window's partition key of a type compared with itself is keyed
     */
    KeyPlans(Keys keys, boolean partitions) {
        this.keys = keys;
        this.partitions = partitions;
    }

    /** Rewrites the plan's nodes, then runs {@code planning} on it. */
    Program before(Program planning) {
        return NodeRewrites.before(planning, this::rewritten, type -> false);
    }

    private RelNode rewritten(RelNode node) {
        node = keyedGroups(node.accept(new OperandKeys(node.getCluster().getRexBuilder())));
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

    /** {@code node}, an aggregate or a set operation, grouping by the keys of its keyed columns. */
    private RelNode keyedGroups(RelNode node) {
        if (node instanceof LogicalAggregate aggregate) {
            return grouped(aggregate);
        }
        if (node instanceof SetOp setOp
                && !(setOp.kind == SqlKind.UNION && setOp.all)
                && setOp.getRowType().getFieldList().stream().anyMatch(f -> keyedType(f.getType()))) {
            RexBuilder rex = setOp.getCluster().getRexBuilder();
            return setOp.all
                    ? SetOperationRepeats.repeated(setOp, this::keyedType, value -> keys.key(rex, value))
                    : SetOperationGroups.grouped(setOp, this::grouped);
        }
        return node;
    }

    /**
     * {@code aggregate} over its input with each keyed group key through its key, and
     * each keyed argument of a DISTINCT aggregate ({@code count(DISTINCT x)}, which planning turns
     * into a grouping) read from a column of its key added to the input.
     */
    private RelNode grouped(Aggregate aggregate) {
        RelNode input = aggregate.getInput();
        List<RelDataTypeField> fields = input.getRowType().getFieldList();
        boolean keyedKeys = aggregate.getGroupSet().asList().stream()
                .anyMatch(i -> keyedType(fields.get(i).getType()));
        boolean keyedDistinct = aggregate.getAggCallList().stream()
                .anyMatch(c -> c.isDistinct()
                        && c.getArgList().stream()
                                .anyMatch(i -> keyedType(fields.get(i).getType())));
        if (!keyedKeys && !keyedDistinct) {
            return aggregate;
        }
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        List<RexNode> columns = new ArrayList<>(fields.size());
        List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
        for (RelDataTypeField field : fields) {
            RexNode ref = rex.makeInputRef(input, field.getIndex());
            columns.add(
                    aggregate.getGroupSet().get(field.getIndex()) && keyedType(field.getType())
                            ? keys.key(rex, ref)
                            : ref);
        }
        // the key column added for each keyed DISTINCT argument, by the argument's index
        Map<Integer, Integer> added = new HashMap<>();
        List<AggregateCall> calls = new ArrayList<>(aggregate.getAggCallList().size());
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (!call.isDistinct()) {
                calls.add(call);
                continue;
            }
            List<Integer> args = new ArrayList<>(call.getArgList().size());
            for (int arg : call.getArgList()) {
                if (keyedType(fields.get(arg).getType())
                        && !aggregate.getGroupSet().get(arg)) {
                    args.add(added.computeIfAbsent(arg, a -> {
                        columns.add(keys.key(rex, rex.makeInputRef(input, a)));
                        names.add(names.get(a) + "$key");
                        return columns.size() - 1;
                    }));
                } else {
                    args.add(arg);
                }
            }
            calls.add(call.withArgList(args));
        }
        // each keyed group key's first value the group met (min keeps the first of equal values),
        // which PostgreSQL's hash aggregate shows
        List<Integer> shown = new ArrayList<>();
        int groupCount = aggregate.getGroupCount();
        int callCount = calls.size();
        for (int g : aggregate.getGroupSet()) {
            if (keyedType(fields.get(g).getType())) {
                columns.add(rex.makeInputRef(input, g));
                names.add(names.get(g) + "$value");
                calls.add(AggregateCall.create(
                        SqlStdOperatorTable.MIN,
                        false,
                        false,
                        false,
                        List.of(),
                        List.of(columns.size() - 1),
                        -1,
                        null,
                        RelCollations.EMPTY,
                        fields.get(g).getType(),
                        null));
                shown.add(groupCount + calls.size() - 1);
            } else {
                shown.add(null);
            }
        }
        RelNode keyed = LogicalProject.create(input, List.of(), columns, names, Set.of());
        RelNode regrouped = aggregate.copy(
                aggregate.getTraitSet(), keyed, aggregate.getGroupSet(), aggregate.getGroupSets(), calls);
        if (calls.size() == callCount) {
            return regrouped;
        }
        List<RexNode> outputs = new ArrayList<>(groupCount + callCount);
        for (int i = 0; i < groupCount + callCount; i++) {
            Integer value = i < groupCount ? shown.get(i) : null;
            RexNode key = rex.makeInputRef(regrouped, i);
            RexNode shownValue = value == null ? key : keys.shown(rex, key, rex.makeInputRef(regrouped, value));
            // a grouping set that leaves this key out gives it NULL, where the group's values' first
            // would be the whole set's: a NULL key shows NULL (as the group of NULLs does anyway)
            outputs.add(
                    value == null || aggregate.getGroupType() == Aggregate.Group.SIMPLE
                            ? shownValue
                            : rex.makeCall(
                                    SqlStdOperatorTable.CASE,
                                    rex.makeCall(SqlStdOperatorTable.IS_NULL, key),
                                    key,
                                    shownValue));
        }
        return LogicalProject.create(regrouped, List.of(), outputs, aggregate.getRowType(), Set.of());
    }

    /** Whether a group key of this type is keyed. */
    private boolean keyedType(RelDataType type) {
        return keys.compared(type, type);
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
