package io.tributary.sql.calcite;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * Makes a session's plans compute arithmetic as PostgreSQL does ({@code 2147483647 + 1} is 22003,
 * not -2147483648; see {@link PgArithmetic}): a planning program that first rewrites the
 * expressions of every node, those of the nodes inside uncorrelated sub-queries too, then runs the given
 * program. (Calcite's own conversion to checked
 * arithmetic also rewrites NUMERIC casts, changing their scale, so it is not used.)
 */
final class CheckedArithmetic {
    private CheckedArithmetic() {}

    /**
     * {@code planning}, preceded by the pass that gives arithmetic PostgreSQL's semantics and
     * followed by one that gives the NUMERIC divisions still in the planned tree PostgreSQL's scale.
     * Those are the correlated sub-queries' (which the first pass leaves alone), decorrelated by
     * then: a correlated {@code avg} of a numeric, {@code sum / count} after {@link AvgScale}, printed
     * Calcite's 6 decimals, truncated, where PostgreSQL's {@code select_div_scale} gives 16 or more.
     */
    static Program before(Program planning) {
        return Programs.sequence(
                (planner, rel, traits, materializations, lattices) ->
                        rel.accept(new Shuttle(new PgArithmetic(rel.getCluster().getRexBuilder()))),
                planning,
                (planner, rel, traits, materializations, lattices) -> rel.accept(
                        new PlannedDivisions(new PgArithmetic(rel.getCluster().getRexBuilder()))));
    }

    /** Rewrites the expressions of every node of a plan, and of its sub-queries' nodes. */
    private static final class Shuttle extends RelHomogeneousShuttle {
        private final RexShuttle expressions;
        /**
         * Sends the nodes of an uncorrelated sub-query in an expression through this shuttle:
         * before planning, a scalar or IN sub-query is not yet a join, and a shuttle over the nodes
         * alone does not reach it (a windowed sum of a numeric there printed sixteen decimals). A
         * correlated one is left as it was: the decorrelator rebuilds its aggregates (an AVG as SUM
         * over COUNT) and refused the rewritten types (XX000 for a correlated {@code avg}); only its
         * NUMERIC divisions are rewritten, after planning ({@link PlannedDivisions}).
         */
        private final RexShuttle subQueries = new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                if (!RelOptUtil.getVariablesUsed(subQuery.rel).isEmpty()) {
                    return subQuery;
                }
                RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
                RelNode rel = visited.rel.accept(Shuttle.this);
                return rel == visited.rel ? visited : visited.clone(rel);
            }
        };

        Shuttle(RexShuttle expressions) {
            this.expressions = expressions;
        }

        @Override
        public RelNode visit(RelNode other) {
            return super.visit(other).accept(subQueries).accept(expressions);
        }
    }
}
