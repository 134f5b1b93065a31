package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * Folds constant expressions with PostgreSQL's semantics while a statement is converted to
 * relational algebra. Calcite's conversion simplifies each projected expression, and simplifying
 * a cast of a literal evaluates it with Calcite's runtime, so {@code 1e-5::float8::text} became
 * {@code 1.0E-5} (PostgreSQL: {@code 1e-05}) before {@link PgArithmetic} could see the cast. This
 * executor first rewrites each constant expression as {@link PgArithmetic} rewrites a plan, then
 * evaluates it as Calcite does, timestamps in microseconds ({@link MicrosecondFolding}); an
 * expression that fails to evaluate is left for run time, where it fails with PostgreSQL's error.
 *
 * <p>Installed as the planner's executor before conversion by {@link PgPrepare} and {@link
 * ViewQueryConverter}; called on the planning thread.
 */
final class PgConstantFolding implements RexExecutor {
    private final RexExecutor micros = new MicrosecondFolding(RexUtil.EXECUTOR);
    /** Whether floats compare and cast as PostgreSQL's ({@link PgArithmetic#PgArithmetic(RexBuilder, boolean)}). */
    private final boolean pgFloats;

    /** Folding as queries compute. */
    PgConstantFolding() {
        this(true);
    }

    /** Folding with Java's float comparisons and casts unless {@code pgFloats}, as a view of an earlier build ({@link ViewPlanningBuild}). */
    PgConstantFolding(boolean pgFloats) {
        this.pgFloats = pgFloats;
    }

    @Override
    public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
        PgArithmetic postgres = new PgArithmetic(rexBuilder, pgFloats);
        List<RexNode> rewritten = new ArrayList<>(constExps.size());
        for (RexNode e : constExps) {
            rewritten.add(e.accept(postgres));
        }
        micros.reduce(rexBuilder, rewritten, reducedValues);
    }
}
