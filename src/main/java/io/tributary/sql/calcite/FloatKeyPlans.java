package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries that group, join, partition or compare sets by floats, run by
 * the frontend's program ahead of the planner on the planning thread (its {@link KeyPlans} use, with
 * the aggregates' and set operations' rewrite of its own); stateless. PostgreSQL holds
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

    private static final KeyPlans PLANS = new KeyPlans(
            new KeyPlans.Keys() {
                @Override
                public boolean compared(RelDataType a, RelDataType b) {
                    return isFloat(a) && isFloat(b);
                }

                @Override
                public RexNode key(RexBuilder rex, RexNode value) {
                    return FloatKeyPlans.key(rex, value);
                }
            },
            true,
            FloatKeyPlans::keyedGroups);

    private FloatKeyPlans() {}

    /** Rewrites the plan's aggregates and joins over float keys, then runs {@code planning} on it. */
    static Program before(Program planning) {
        return PLANS.before(planning);
    }

    /** {@code node}'s float group keys and set operations keyed; {@link KeyPlans} does the rest. */
    private static RelNode keyedGroups(RelNode node) {
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
        return node;
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
}
