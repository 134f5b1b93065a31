package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

/**
 * A planning step for queries over json and jsonb, run by the frontend's program ahead of the
 * planner on the planning thread; stateless. Calcite's code generator cannot cast these opaque
 * values to text, so a cast of one to a character type goes through {@link
 * PgJsonFunctions#pg_json_out}, PostgreSQL's output text.
 */
final class JsonPlans {
    private static final SqlUserDefinedFunction OUTPUT =
            PlanFunctions.scalar(PgJsonFunctions.class, "pg_json_out", SqlTypeName.VARCHAR);

    private JsonPlans() {}

    /** Refuses json ordering and comparisons ({@link JsonOrderingCheck}), rewrites the plan's casts, then runs {@code planning} on it. */
    static Program before(Program planning) {
        return (planner, rel, traits, materializations, lattices) -> {
            JsonOrderingCheck.check(rel);
            RelNode rewritten = rel.accept(new RelHomogeneousShuttle() {
                @Override
                public RelNode visit(RelNode other) {
                    RelNode visited = super.visit(other);
                    return visited.accept(new Casts(visited.getCluster().getRexBuilder()));
                }
            });
            return planning.run(planner, rewritten, traits, materializations, lattices);
        };
    }

    /** Casts of json or jsonb to text, as calls of {@code pg_json_out}. */
    private static final class Casts extends RexShuttle {
        private final RexBuilder rex;

        Casts(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            if (visited.getKind() == SqlKind.CAST
                    && PgJsonTypes.kind(visited.getOperands().get(0).getType()) != null
                    && SqlTypeName.CHAR_TYPES.contains(visited.getType().getSqlTypeName())) {
                return rex.makeCast(
                        visited.getType(),
                        rex.makeCall(OUTPUT, List.of(visited.getOperands().get(0))));
            }
            return visited;
        }
    }
}
