package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries that group or join by floats, run by the frontend's program
 * ahead of the planner on the planning thread; stateless. PostgreSQL holds {@code -0} and {@code 0}
 * equal, so they are one group of a GROUP BY or DISTINCT and join each other; Calcite's hash
 * aggregates and joins key by {@link Double#equals}, which tells them apart (two groups, missing
 * join rows). A float group key of an aggregate is replaced, below it, by {@link PgFloatKeys} of
 * it (so the group prints as {@code 0}, where PostgreSQL prints the first value it met, which may
 * be {@code -0}), as is a float argument of a DISTINCT aggregate and both sides of a join's
 * equality of floats. Views key by {@code
 * KeyCodec}'s encoding, which already writes {@code -0} as {@code 0}.
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
        if (node instanceof LogicalAggregate aggregate) {
            return grouped(aggregate);
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

    /**
     * {@code aggregate} over its input with each float group key through {@link PgFloatKeys}, and
     * each float argument of a DISTINCT aggregate ({@code count(DISTINCT x)}, which planning turns
     * into a grouping) read from a column of its key added to the input.
     */
    private static RelNode grouped(LogicalAggregate aggregate) {
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
        RelNode keyed = LogicalProject.create(input, List.of(), columns, names, Set.of());
        return aggregate.copy(aggregate.getTraitSet(), keyed, aggregate.getGroupSet(), aggregate.getGroupSets(), calls);
    }

    private static boolean isFloat(RelDataType type) {
        SqlTypeName name = type.getSqlTypeName();
        return name == SqlTypeName.DOUBLE || name == SqlTypeName.FLOAT || name == SqlTypeName.REAL;
    }

    private static RexNode key(RexBuilder rex, RexNode value) {
        return rex.makeCall(value.getType().getSqlTypeName() == SqlTypeName.REAL ? FLOAT4_KEY : FLOAT8_KEY, value);
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
            if ((visited.getKind() == SqlKind.EQUALS || visited.getKind() == SqlKind.IS_NOT_DISTINCT_FROM)
                    && isFloat(visited.operands.get(0).getType())
                    && isFloat(visited.operands.get(1).getType())) {
                return visited.clone(
                        visited.getType(),
                        List.of(key(rex, visited.operands.get(0)), key(rex, visited.operands.get(1))));
            }
            return visited;
        }
    }
}
