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
    /** Whose comparisons and casts to fold with ({@link PgArithmetic#PgArithmetic(RexBuilder, ViewPlanningBuild)}). */
    private final ViewPlanningBuild build;

    /** Folding as queries compute. */
    PgConstantFolding() {
        this(ViewPlanningBuild.CURRENT);
    }

    /** Folding with {@code build}'s comparisons and casts, as a view of that build was planned. */
    PgConstantFolding(ViewPlanningBuild build) {
        this.build = build;
    }

    @Override
    public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
        PgArithmetic postgres = new PgArithmetic(rexBuilder, build);
        List<RexNode> rewritten = new ArrayList<>(constExps.size());
        for (RexNode e : constExps) {
            // a numeric array's key has no literal form, which would lose its scale-blind equality
            if (!NumericArrayKeyPlans.isKey(e)) {
                rewritten.add(e.accept(postgres));
            }
        }
        List<RexNode> folded = new ArrayList<>(rewritten.size());
        micros.reduce(rexBuilder, rewritten, folded);
        int next = 0;
        for (RexNode e : constExps) {
            reducedValues.add(NumericArrayKeyPlans.isKey(e) ? e : folded.get(next++));
        }
    }
}
