package io.tributary.sql.calcite;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.Optionality;

/**
 * A planning step for ad-hoc queries over PostgreSQL's interval ({@link PgIntervals}), which
 * validation accepts but Calcite's generated code cannot compare: {@code min} and {@code max}
 * become the aggregates of {@link PgIntervalAggregates}, of the same type, so the query's row type
 * is unchanged, and a join's {@code a = b} of two intervals compares their keys, equal as
 * PostgreSQL's {@code =} is (30-day months). Run by the frontend's program on the planning thread; stateless.
 */
final class IntervalPlans {
    private static final SqlAggFunction MIN = aggregate("pg_interval_min", PgIntervalAggregates.Min.class);
    private static final SqlAggFunction MAX = aggregate("pg_interval_max", PgIntervalAggregates.Max.class);

    private static final SqlUserDefinedFunction KEY =
            PlanFunctions.scalar(PgIntervalFunctions.class, "pg_interval_key", SqlTypeName.VARCHAR);

    private IntervalPlans() {}

    static Program extremes() {
        return (planner, rel, traits, materializations, lattices) -> rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                if (visited instanceof Join join) {
                    return rewrite(join);
                }
                return visited instanceof Aggregate aggregate ? rewrite(aggregate) : visited;
            }
        });
    }

    private static RelNode rewrite(Aggregate aggregate) {
        return AggregateFunctionSwap.apply(aggregate, call -> {
            SqlKind kind = call.getAggregation().getKind();
            if ((kind == SqlKind.MIN || kind == SqlKind.MAX)
                    && call.getArgList().size() == 1
                    && PgIntervals.isInterval(call.getType())) {
                return kind == SqlKind.MIN ? MIN : MAX;
            }
            return null;
        });
    }

    /** A join on interval equality compares {@link PgIntervalFunctions#pg_interval_key}s instead. */
    private static RelNode rewrite(Join join) {
        RexBuilder rex = join.getCluster().getRexBuilder();
        RexNode condition = join.getCondition().accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                if ((visited.getKind() == SqlKind.EQUALS || visited.getKind() == SqlKind.NOT_EQUALS)
                        && PgIntervals.isInterval(visited.getOperands().get(0).getType())
                        && PgIntervals.isInterval(visited.getOperands().get(1).getType())) {
                    return rex.makeCall(
                            visited.getOperator(),
                            rex.makeCall(KEY, visited.getOperands().get(0)),
                            rex.makeCall(KEY, visited.getOperands().get(1)));
                }
                return visited;
            }
        });
        return KeyPlans.withCondition(join, condition);
    }

    private static SqlAggFunction aggregate(String name, Class<?> implementation) {
        return new SqlUserDefinedAggFunction(
                new SqlIdentifier(name, SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION,
                ReturnTypes.ARG0,
                null,
                null,
                AggregateFunctionImpl.create(implementation),
                false,
                false,
                Optionality.FORBIDDEN);
    }
}
