package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries that order floats, run by the frontend's program ahead of the
 * planner on the planning thread; stateless. PostgreSQL orders NaN above Infinity and equal to
 * itself; Calcite's sort comparator turns doubles into BigDecimal (a sort on one float key holding
 * NaN or an infinity failed) and its {@code max} skips NaN. So each float key of a sort, and the
 * argument of each {@code min}/{@code max} of a float, is replaced by {@link
 * PgFloatFunctions#floatOrder} of it (a bigint in PostgreSQL's order), and an aggregate's result is
 * turned back into its float by {@link PgFloatFunctions#floatOfOrder}.
 */
final class FloatOrderPlans {
    private static final SqlOperator ORDER =
            PlanFunctions.scalar(PgFloatFunctions.class, "floatOrder", SqlTypeName.BIGINT);
    private static final SqlOperator FLOAT =
            PlanFunctions.scalar(PgFloatFunctions.class, "floatOfOrder", SqlTypeName.DOUBLE);

    private FloatOrderPlans() {}

    /**
     * Rewrites the plan's sorts and float extremes, then runs {@code planning} on it; a required
     * output order on float columns is dropped from the traits, as the rewritten sort gives it.
     */
    static Program before(Program planning) {
        return NodeRewrites.before(planning, FloatOrderPlans::rewritten, FloatOrderPlans::isFloat);
    }

    private static RelNode rewritten(RelNode node) {
        if (node instanceof LogicalSort sort) {
            return SortKeyFunctions.sortedBy(sort, f -> isFloat(f.getType()), ORDER);
        }
        return node instanceof LogicalAggregate aggregate ? extremes(aggregate) : node;
    }

    /**
     * {@code aggregate} with each {@code min}/{@code max} of a float taken over the float's order
     * key (appended to its input) and turned back into the float above it; itself when it has none.
     */
    private static RelNode extremes(LogicalAggregate aggregate) {
        RelNode input = aggregate.getInput();
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        List<RexNode> fields = new ArrayList<>(rex.identityProjects(input.getRowType()));
        Map<Integer, Integer> keyOf = new HashMap<>();
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            SqlKind kind = call.getAggregation().getKind();
            if ((kind != SqlKind.MIN && kind != SqlKind.MAX)
                    || call.getArgList().size() != 1
                    || !isFloat(call.getType())) {
                calls.add(call);
                continue;
            }
            int arg = call.getArgList().get(0);
            int key = keyOf.computeIfAbsent(arg, a -> {
                fields.add(rex.makeCall(ORDER, fields.get(a)));
                return fields.size() - 1;
            });
            RelDataType keyType = fields.get(key).getType();
            calls.add(AggregateCall.create(
                    call.getAggregation(),
                    call.isDistinct(),
                    call.isApproximate(),
                    call.ignoreNulls(),
                    call.rexList,
                    List.of(key),
                    call.filterArg,
                    call.distinctKeys,
                    call.collation,
                    rex.getTypeFactory()
                            .createTypeWithNullability(keyType, call.getType().isNullable()),
                    call.name));
        }
        if (keyOf.isEmpty()) {
            return aggregate;
        }
        RelNode widened = LogicalProject.create(input, List.of(), fields, (List<String>) null, Set.of());
        RelNode keyed = aggregate.copy(
                aggregate.getTraitSet(), widened, aggregate.getGroupSet(), aggregate.getGroupSets(), calls);
        RelDataTypeFactory types = rex.getTypeFactory();
        List<RexNode> outputs = new ArrayList<>(rex.identityProjects(keyed.getRowType()));
        int groups = aggregate.getGroupCount();
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall original = aggregate.getAggCallList().get(i);
            if (calls.get(i) != original) {
                RelDataType doubles = types.createTypeWithNullability(
                        types.createSqlType(SqlTypeName.DOUBLE),
                        original.getType().isNullable());
                RexNode value = rex.makeCall(doubles, FLOAT, List.of(outputs.get(groups + i)));
                outputs.set(groups + i, rex.makeCast(original.getType(), value, true, false));
            }
        }
        return LogicalProject.create(
                keyed, List.of(), outputs, aggregate.getRowType().getFieldNames(), Set.of());
    }

    private static boolean isFloat(RelDataType t) {
        SqlTypeName name = t.getSqlTypeName();
        return name == SqlTypeName.DOUBLE || name == SqlTypeName.REAL || name == SqlTypeName.FLOAT;
    }
}
