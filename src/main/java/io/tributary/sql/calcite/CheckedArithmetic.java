package io.tributary.sql.calcite;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * Makes a session's plans compute arithmetic as PostgreSQL does ({@code 2147483647 + 1} is 22003,
 * not -2147483648; see {@link PgArithmetic}): a planning program that first rewrites the
 * expressions of every node, then runs the given program. (Calcite's own conversion to checked
 * arithmetic also rewrites NUMERIC casts, changing their scale, so it is not used.)
 */
final class CheckedArithmetic {
    private CheckedArithmetic() {}

    /** {@code planning}, preceded by the pass that gives arithmetic PostgreSQL's semantics. */
    static Program before(Program planning) {
        return Programs.sequence(
                (planner, rel, traits, materializations, lattices) ->
                        rel.accept(new Shuttle(new PgArithmetic(rel.getCluster().getRexBuilder()))),
                planning);
    }

    /** Rewrites the expressions of every node of a plan. */
    private static final class Shuttle extends RelHomogeneousShuttle {
        private final RexShuttle expressions;

        Shuttle(RexShuttle expressions) {
            this.expressions = expressions;
        }

        @Override
        public RelNode visit(RelNode other) {
            return super.visit(other).accept(expressions);
        }
    }
}
