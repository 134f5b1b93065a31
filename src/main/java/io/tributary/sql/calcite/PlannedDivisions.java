package io.tributary.sql.calcite;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Gives the NUMERIC divisions still in a planned tree PostgreSQL's result scale ({@link
 * PgArithmetic#numericDivision}). {@link CheckedArithmetic} runs it after planning, when the only
 * such divisions left are those of correlated sub-queries (which its first pass leaves alone), by
 * then decorrelated into joins. The decorrelator casts a sub-query's result to its nullable type,
 * a cast Calcite's code carries out by setting the value's scale to the type's (a correlated {@code
 * avg} printed 6 decimals, truncated, a correlated {@code variance} none): a division under such a
 * cast becomes one division of the cast's type, and any other NUMERIC call under such a cast is
 * given the cast's type instead: one of Tributary's NUMERIC functions (whose values keep their own
 * scale, as {@link PgVarianceFunctions}'), a COALESCE of an unconstrained sum and 0 (a correlated
 * {@code coalesce(sum(n), 0)} printed 16 decimals). A {@link Calc}'s program is read as whole expressions, as its shared local
 * references would hide the division under the cast. One instance per plan; planning thread.
 */
final class PlannedDivisions extends RelHomogeneousShuttle {
    private final PgArithmetic arithmetic;
    private final RexShuttle divisions = new RexShuttle() {
        @Override
        public RexNode visitCall(RexCall call) {
            RexNode visited = super.visitCall(call);
            if (!(visited instanceof RexCall c)) {
                return visited;
            }
            if (PgArithmetic.isNumericDivision(c)) {
                return arithmetic.numericDivision(c, c.getType());
            }
            if (c.getKind() == SqlKind.CAST
                    && PgArithmetic.isNumericDivision(call.getOperands().get(0))
                    && SqlTypeUtil.equalSansNullability(
                            c.getType(), call.getOperands().get(0).getType())) {
                // the operand as it was, before this shuttle rewrote it
                RexCall division =
                        (RexCall) super.visitCall((RexCall) call.getOperands().get(0));
                return arithmetic.numericDivision(division, c.getType());
            }
            if (c.getKind() == SqlKind.CAST
                    && c.getOperands().get(0) instanceof RexCall operand
                    && operand.getKind() != SqlKind.CAST
                    && operand.getType().getSqlTypeName() == SqlTypeName.DECIMAL
                    && SqlTypeUtil.equalSansNullability(c.getType(), operand.getType())) {
                // one of Tributary's functions (pg_var_samp ...) or a COALESCE of an unconstrained
                // sum and 0: its value's scale is its own, which the cast would set to the type's
                return operand.clone(c.getType(), operand.getOperands());
            }
            return c;
        }
    };

    PlannedDivisions(PgArithmetic arithmetic) {
        this.arithmetic = arithmetic;
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode visited = super.visit(other);
        return visited instanceof Calc calc ? program(calc) : visited.accept(divisions);
    }

    /** {@code calc} with its projections and condition rewritten as whole expressions; itself when none changes. */
    private RelNode program(Calc calc) {
        RexProgram program = calc.getProgram();
        RexProgram rebuilt = WholeExpressionPrograms.rewrite(
                program, divisions, calc.getCluster().getRexBuilder());
        return rebuilt == program ? calc : calc.copy(calc.getTraitSet(), calc.getInput(), rebuilt);
    }
}
