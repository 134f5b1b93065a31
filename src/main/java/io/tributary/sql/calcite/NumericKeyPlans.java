package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries that match NUMERICs of different scales, run by the
 * frontend's program ahead of the planner on the planning thread; stateless. PostgreSQL matches
 * {@code 1.5} with {@code 1.50}; the semi-joins and hash joins that planning makes of {@code x IN
 * (SELECT y ...)}, {@code = ANY}, {@code NOT IN}, a join's equality and a sub-query's correlated
 * equality key by {@link java.math.BigDecimal#equals}, which tells them apart. So in each of these,
 * both sides are compared by {@link PgNumericKeys} when they are NUMERICs whose values may differ
 * in scale (an unconstrained NUMERIC, or two scales); sub-queries' plans are rewritten alike. Views
 * key by {@code KeyCodec}'s encoding, which already writes a numeric without trailing zeros.
 */
final class NumericKeyPlans {
    private static final SqlUserDefinedFunction NUMERIC_KEY = new SqlUserDefinedFunction(
            new SqlIdentifier("pg_numeric_key", SqlParserPos.ZERO),
            SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG0,
            null,
            null,
            ScalarFunctionImpl.create(PgNumericKeys.class, "pg_numeric_key"));

    private NumericKeyPlans() {}

    /** Rewrites the plan's joins and sub-queries over numeric keys, then runs {@code planning} on it. */
    static Program before(Program planning) {
        return NodeRewrites.before(planning, NumericKeyPlans::rewritten, type -> false);
    }

    private static RelNode rewritten(RelNode node) {
        RexBuilder rex = node.getCluster().getRexBuilder();
        node = node.accept(new SubQueries(rex));
        if (node instanceof LogicalFilter filter && RexUtil.containsCorrelation(filter.getCondition())) {
            // a sub-query's equality with the outer row's numeric, which decorrelation makes a join key
            RexNode condition = filter.getCondition().accept(new EqualityKeys(rex));
            return condition == filter.getCondition()
                    ? filter
                    : filter.copy(filter.getTraitSet(), filter.getInput(), condition);
        }
        if (node instanceof LogicalJoin join) {
            RexNode condition = join.getCondition().accept(new EqualityKeys(rex));
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

    /** Whether values of these two types may be equal at different scales. */
    private static boolean keyed(RelDataType a, RelDataType b) {
        return a.getSqlTypeName() == SqlTypeName.DECIMAL
                && b.getSqlTypeName() == SqlTypeName.DECIMAL
                && (a.getScale() != b.getScale() || unconstrained(a) || unconstrained(b));
    }

    private static boolean unconstrained(RelDataType t) {
        return t.getPrecision() == TributaryTypeSystem.MAX_NUMERIC_PRECISION
                && t.getScale() == TypeMapping.UNCONSTRAINED_NUMERIC_SCALE;
    }

    /** {@code value}, a NUMERIC, without trailing fraction zeros, typed as {@code value} is. */
    private static RexNode key(RexBuilder rex, RexNode value) {
        return rex.makeCall(value.getType(), NUMERIC_KEY, List.of(value));
    }

    /**
     * A sub-query's plan rewritten as the query's; in {@code x IN (SELECT ...)} (or {@code = ANY})
     * each numeric operand and the column it is looked up in compared by their keys.
     */
    private static final class SubQueries extends RexShuttle {
        private final RexBuilder rex;

        SubQueries(RexBuilder rex) {
            this.rex = rex;
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
            boolean numerics = false;
            for (RelDataTypeField field : fields) {
                int i = field.getIndex();
                RexNode column = rex.makeInputRef(plan, i);
                if (membership && i < operands.size() && keyed(operands.get(i).getType(), field.getType())) {
                    operands.set(i, key(rex, operands.get(i)));
                    column = key(rex, column);
                    numerics = true;
                }
                columns.add(column);
            }
            if (numerics) {
                plan = LogicalProject.create(
                        plan, List.of(), columns, plan.getRowType().getFieldNames(), Set.of());
            }
            RexSubQuery replanned = plan == visited.rel ? visited : visited.clone(plan);
            return numerics ? replanned.clone(replanned.getType(), operands) : replanned;
        }
    }

    /** Each {@code =} or IS NOT DISTINCT FROM of two such numerics compares their keys instead. */
    private static final class EqualityKeys extends RexShuttle {
        private final RexBuilder rex;

        EqualityKeys(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            if ((visited.getKind() == SqlKind.EQUALS || visited.getKind() == SqlKind.IS_NOT_DISTINCT_FROM)
                    && keyed(
                            visited.operands.get(0).getType(),
                            visited.operands.get(1).getType())) {
                return visited.clone(
                        visited.getType(),
                        List.of(key(rex, visited.operands.get(0)), key(rex, visited.operands.get(1))));
            }
            return visited;
        }
    }
}
