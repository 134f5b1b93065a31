package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
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
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries that group, join, partition or compare sets by floats, run by
 * the frontend's program ahead of the planner on the planning thread; stateless. PostgreSQL holds
 * {@code -0} and {@code 0} equal, so they are one group of a GROUP BY or DISTINCT, one row of a
 * UNION, INTERSECT or EXCEPT, one window partition, and join and match ({@code IN (SELECT ...)})
 * each other; Calcite's hash aggregates, set operations, windows and joins key by {@link
 * Double#equals}, which tells them apart. A float group key of an aggregate is replaced, below it,
 * by {@link PgFloatKeys} of it (so the group prints as {@code 0}, where PostgreSQL prints the first
 * value it met, which may be {@code -0}), as is a float argument of a DISTINCT aggregate, each float
 * column of a set operation's inputs (but UNION ALL's), a float partition key, both sides of a
 * join's equality of floats and both of a float {@code IN (SELECT ...)}; sub-queries' plans are
 * rewritten alike. Views key by {@code KeyCodec}'s encoding, which already writes {@code -0} as
 * {@code 0}.
 */
final class FloatKeyPlans {
    private static final SqlUserDefinedFunction FLOAT8_KEY =
            PlanFunctions.scalar(PgFloatKeys.class, "pg_float8_key", SqlTypeName.DOUBLE);
    private static final SqlUserDefinedFunction FLOAT4_KEY =
            PlanFunctions.scalar(PgFloatKeys.class, "pg_float4_key", SqlTypeName.REAL);

    private FloatKeyPlans() {}

    /** Rewrites the plan's aggregates and joins over float keys, then runs {@code planning} on it. */
    static Program before(Program planning) {
        return NodeRewrites.before(planning, FloatKeyPlans::rewritten, type -> false);
    }

    private static RelNode rewritten(RelNode node) {
        node = node.accept(new PartitionsAndSubQueries(node.getCluster().getRexBuilder()));
        if (node instanceof LogicalAggregate aggregate) {
            return grouped(aggregate);
        }
        if (node instanceof SetOp setOp
                && !(setOp.kind == SqlKind.UNION && setOp.all)
                && setOp.getRowType().getFieldList().stream().anyMatch(f -> isFloat(f.getType()))) {
            return setOp.all
                    ? setOp.copy(
                            setOp.getTraitSet(),
                            setOp.getInputs().stream().map(FloatKeyPlans::keyed).toList())
                    : SetOperationGroups.grouped(setOp, FloatKeyPlans::grouped);
        }
        if (node instanceof LogicalFilter filter && RexUtil.containsCorrelation(filter.getCondition())) {
            // a sub-query's equality with the outer row's float, which decorrelation makes a join key
            RexNode condition = filter.getCondition()
                    .accept(new EqualityKeys(filter.getCluster().getRexBuilder()));
            return condition == filter.getCondition()
                    ? filter
                    : filter.copy(filter.getTraitSet(), filter.getInput(), condition);
        }
        if (node instanceof LogicalJoin join) {
            RexNode condition = join.getCondition()
                    .accept(new EqualityKeys(join.getCluster().getRexBuilder()));
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
        return node;
    }

    /** {@code plan}, a sub-query's, with its nodes rewritten as the query's are. */
    private static RelNode rewrittenPlan(RelNode plan) {
        return plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                return rewritten(super.visit(other));
            }
        });
    }

    /** {@code input} with each float column through {@link PgFloatKeys}, or itself if it has none. */
    private static RelNode keyed(RelNode input) {
        List<RelDataTypeField> fields = input.getRowType().getFieldList();
        if (fields.stream().noneMatch(f -> isFloat(f.getType()))) {
            return input;
        }
        RexBuilder rex = input.getCluster().getRexBuilder();
        List<RexNode> columns = new ArrayList<>(fields.size());
        for (RelDataTypeField field : fields) {
            RexNode ref = rex.makeInputRef(input, field.getIndex());
            columns.add(isFloat(field.getType()) ? key(rex, ref) : ref);
        }
        return LogicalProject.create(
                input, List.of(), columns, input.getRowType().getFieldNames(), Set.of());
    }

    /**
     * {@code aggregate} over its input with each float group key through {@link PgFloatKeys}, and
     * each float argument of a DISTINCT aggregate ({@code count(DISTINCT x)}, which planning turns
     * into a grouping) read from a column of its key added to the input.
     */
    private static RelNode grouped(Aggregate aggregate) {
        RelNode input = aggregate.getInput();
        List<RelDataTypeField> fields = input.getRowType().getFieldList();
        boolean floatKeys = aggregate.getGroupSet().asList().stream()
                .anyMatch(i -> isFloat(fields.get(i).getType()));
        boolean floatDistinct = aggregate.getAggCallList().stream()
                .anyMatch(c -> c.isDistinct()
                        && c.getArgList().stream()
                                .anyMatch(i -> isFloat(fields.get(i).getType())));
        if (!floatKeys && !floatDistinct) {
            return aggregate;
        }
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        List<RexNode> columns = new ArrayList<>(fields.size());
        List<String> names = new ArrayList<>(input.getRowType().getFieldNames());
        for (RelDataTypeField field : fields) {
            RexNode ref = rex.makeInputRef(input, field.getIndex());
            columns.add(
                    aggregate.getGroupSet().get(field.getIndex()) && isFloat(field.getType()) ? key(rex, ref) : ref);
        }
        // the key column added for each float DISTINCT argument, by the argument's index
        Map<Integer, Integer> added = new HashMap<>();
        List<AggregateCall> calls = new ArrayList<>(aggregate.getAggCallList().size());
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (!call.isDistinct()) {
                calls.add(call);
                continue;
            }
            List<Integer> args = new ArrayList<>(call.getArgList().size());
            for (int arg : call.getArgList()) {
                if (isFloat(fields.get(arg).getType())
                        && !aggregate.getGroupSet().get(arg)) {
                    args.add(added.computeIfAbsent(arg, a -> {
                        columns.add(key(rex, rex.makeInputRef(input, a)));
                        names.add(names.get(a) + "$key");
                        return columns.size() - 1;
                    }));
                } else {
                    args.add(arg);
                }
            }
            calls.add(call.withArgList(args));
        }
        // a zero group key shows the first zero the group met (min keeps the first of equal
        // values), as PostgreSQL's hash aggregate shows the first row's, where the key is 0
        List<Integer> shown = new ArrayList<>();
        int groupCount = aggregate.getGroupCount();
        int callCount = calls.size();
        if (aggregate.getGroupType() == Aggregate.Group.SIMPLE) {
            for (int g : aggregate.getGroupSet()) {
                if (isFloat(fields.get(g).getType())) {
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
            // min's start is the greatest double, which a group of NaN or Infinity keeps
            outputs.add(
                    value == null
                            ? key
                            : rex.makeCall(
                                    key.getType(),
                                    SqlStdOperatorTable.CASE,
                                    List.of(
                                            rex.makeCall(
                                                    SqlStdOperatorTable.EQUALS,
                                                    key,
                                                    rex.makeZeroLiteral(key.getType())),
                                            rex.makeInputRef(regrouped, value),
                                            key)));
        }
        return LogicalProject.create(regrouped, List.of(), outputs, aggregate.getRowType(), Set.of());
    }

    static boolean isFloat(RelDataType type) {
        SqlTypeName name = type.getSqlTypeName();
        return name == SqlTypeName.DOUBLE || name == SqlTypeName.FLOAT || name == SqlTypeName.REAL;
    }

    /** {@code value}, a float, with {@code -0} as {@code 0}, typed as {@code value} is. */
    static RexNode key(RexBuilder rex, RexNode value) {
        return rex.makeCall(
                value.getType(),
                value.getType().getSqlTypeName() == SqlTypeName.REAL ? FLOAT4_KEY : FLOAT8_KEY,
                List.of(value));
    }

    /**
     * {@code operands} with each float one that is compared with a float (of the type at its
     * position in {@code counterparts}) through {@link PgFloatKeys}, {@code operands} itself when
     * none is; the caller keys those counterparts alike, so {@code -0} meets {@code 0}.
     */
    private static List<RexNode> comparedByKeys(
            RexBuilder rex, List<RexNode> operands, List<RelDataType> counterparts) {
        List<RexNode> keyed = operands;
        for (int i = 0; i < operands.size() && i < counterparts.size(); i++) {
            if (isFloat(operands.get(i).getType()) && isFloat(counterparts.get(i))) {
                if (keyed == operands) {
                    keyed = new ArrayList<>(operands);
                }
                keyed.set(i, key(rex, operands.get(i)));
            }
        }
        return keyed;
    }

    /**
     * A window's float partition keys through {@link PgFloatKeys}; a sub-query's plan rewritten as
     * the query's, and in {@code x IN (SELECT ...)} (or {@code = ANY}) each float operand and the
     * float column it is looked up in compared by their keys (the semi-join planning makes of it
     * hashes them).
     */
    private static final class PartitionsAndSubQueries extends RexShuttle {
        private final RexBuilder rex;

        PartitionsAndSubQueries(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitOver(RexOver over) {
            RexOver visited = (RexOver) super.visitOver(over);
            RexWindow window = visited.getWindow();
            if (window.partitionKeys.stream().noneMatch(k -> isFloat(k.getType()))) {
                return visited;
            }
            List<RexNode> partition = window.partitionKeys.stream()
                    .map(k -> isFloat(k.getType()) ? key(rex, k) : k)
                    .toList();
            return WindowCalls.withPartitionKeys(rex, visited, partition);
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            RelNode plan = rewrittenPlan(visited.rel);
            boolean membership = visited.getKind() == SqlKind.IN
                    || (visited.getOperator() instanceof SqlQuantifyOperator quantify
                            && quantify.comparisonKind == SqlKind.EQUALS);
            List<RexNode> operands = membership
                    ? comparedByKeys(rex, visited.getOperands(), RelOptUtil.getFieldTypeList(plan.getRowType()))
                    : visited.getOperands();
            boolean floats = operands != visited.getOperands();
            if (floats) {
                plan = keyed(plan);
            }
            RexSubQuery replanned = plan == visited.rel ? visited : visited.clone(plan);
            return floats ? replanned.clone(replanned.getType(), operands) : replanned;
        }
    }

    /** Each {@code =} or IS NOT DISTINCT FROM of two floats compares their keys instead. */
    private static final class EqualityKeys extends RexShuttle {
        private final RexBuilder rex;

        EqualityKeys(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            if (visited.getKind() != SqlKind.EQUALS && visited.getKind() != SqlKind.IS_NOT_DISTINCT_FROM) {
                return visited;
            }
            List<RexNode> operands = comparedByKeys(
                    rex,
                    visited.operands,
                    List.of(
                            visited.operands.get(1).getType(),
                            visited.operands.get(0).getType()));
            return operands == visited.operands ? visited : visited.clone(visited.getType(), operands);
        }
    }
}
