package io.tributary.sql.calcite;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.Optionality;

/**
 * A planning step for ad-hoc queries: {@code sum} of a bigint is NUMERIC ({@link
 * TributaryTypeSystem#deriveSumType}), which Calcite's own SUM cannot compute from {@code long}
 * values, so every SUM and $SUM0 over a bigint, grouped or windowed, becomes {@link PgBigintSum}
 * of the same type (the query's row type is unchanged). Materialized views keep Calcite's SUM,
 * which the stream planner sums exactly itself. Run by the frontend's program on the planning
 * thread, before planning and again after it (expanding DISTINCT aggregates makes new calls);
 * stateless.
 */
final class BigintSumPlans {
    /** What replaces Calcite's SUM: NULL over no values; its type is {@link TributaryTypeSystem#deriveSumType}'s. */
    private static final SqlAggFunction SUM = aggregate("pg_bigint_sum", ReturnTypes.AGG_SUM);

    /** What replaces Calcite's $SUM0: 0 over no values. */
    private static final SqlAggFunction SUM0 = aggregate("pg_bigint_sum0", ReturnTypes.AGG_SUM_EMPTY_IS_ZERO);

    private BigintSumPlans() {}

    /** The step: each node's windowed calls, then a grouped one's calls, replaced; other nodes as they are. */
    static Program step() {
        return (planner, rel, traits, materializations, lattices) -> rel.accept(new Nodes());
    }

    /**
     * Replaces the calls of every node, and of the nodes of the sub-queries in their expressions
     * (which a shuttle over the nodes alone does not reach, and which are not yet joins before
     * planning: a windowed sum there kept Calcite's SUM, whose generated code cannot add a long).
     */
    private static final class Nodes extends RelHomogeneousShuttle {
        @Override
        public RelNode visit(RelNode other) {
            RelNode visited = super.visit(other);
            RelNode windows = visited.accept(new Windows(visited.getCluster().getRexBuilder(), this));
            return windows instanceof Aggregate aggregate ? rewrite(aggregate) : windows;
        }
    }

    /** Whether a call of {@code kind} over an argument of {@code argType} returning {@code type} is one to replace. */
    private static boolean isBigintSum(SqlKind kind, RelDataType argType, RelDataType type) {
        return (kind == SqlKind.SUM || kind == SqlKind.SUM0)
                && argType.getSqlTypeName() == SqlTypeName.BIGINT
                && type.getSqlTypeName() == SqlTypeName.DECIMAL;
    }

    private static SqlAggFunction replacement(SqlKind kind) {
        return kind == SqlKind.SUM0 ? SUM0 : SUM;
    }

    private static SqlAggFunction aggregate(String name, SqlReturnTypeInference type) {
        // the type is inferred again when a planner rule rebuilds the call
        return new SqlUserDefinedAggFunction(
                new SqlIdentifier(name, SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION,
                type,
                null,
                null,
                AggregateFunctionImpl.create(PgBigintSum.class),
                false,
                false,
                Optionality.FORBIDDEN);
    }

    private static RelNode rewrite(Aggregate aggregate) {
        return AggregateFunctionSwap.apply(
                aggregate,
                call -> call.getArgList().size() == 1
                                && isBigintSum(
                                        call.getAggregation().getKind(),
                                        aggregate
                                                .getInput()
                                                .getRowType()
                                                .getFieldList()
                                                .get(call.getArgList().get(0))
                                                .getType(),
                                        call.getType())
                        ? replacement(call.getAggregation().getKind())
                        : null);
    }

    /** Replaces windowed SUM and $SUM0 over a bigint (Calcite writes {@code sum(x) OVER w} with a $SUM0). */
    private static final class Windows extends RexShuttle {
        private final RexBuilder rex;
        /** What a sub-query's nodes go through. */
        private final Nodes nodes;

        Windows(RexBuilder rex, Nodes nodes) {
            this.rex = rex;
            this.nodes = nodes;
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            RelNode rel = visited.rel.accept(nodes);
            return rel == visited.rel ? visited : visited.clone(rel);
        }

        @Override
        public RexNode visitOver(RexOver over) {
            RexOver visited = (RexOver) super.visitOver(over);
            if (visited.getOperands().size() != 1
                    || !isBigintSum(
                            visited.getAggOperator().getKind(),
                            visited.getOperands().get(0).getType(),
                            visited.getType())) {
                return visited;
            }
            return WindowCalls.withFunction(
                    rex, visited, replacement(visited.getAggOperator().getKind()), visited.getOperands());
        }
    }
}
