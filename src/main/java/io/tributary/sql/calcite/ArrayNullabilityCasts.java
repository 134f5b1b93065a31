package io.tributary.sql.calcite;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;

/**
 * Calcite's casts of an array to the same array type of another nullability (its own or its
 * elements') as reinterpretations, which pass the list on. Calcite writes such a cast for the
 * result of {@code CASE WHEN a IS NOT NULL THEN a ...} and of its COALESCE rewrite, and its code
 * for it converted every element as a NOT NULL number, failing on a NULL element (XX000 for {@code
 * COALESCE(a, ARRAY[1, NULL])} over an array column holding {@code {NULL,5}}). Applied to a query's
 * plan after planning ({@link #after}) and to each expression of a view ({@link CompiledExpression});
 * stateless, on the planning thread.
 */
final class ArrayNullabilityCasts extends RexShuttle {
    private final RexBuilder rexBuilder;

    private ArrayNullabilityCasts(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    /** {@code expr} with such casts reinterpreted; the same node when it has none. */
    static RexNode rewrite(RexBuilder rexBuilder, RexNode expr) {
        return expr.accept(new ArrayNullabilityCasts(rexBuilder));
    }

    /** The planning step: every calculation's and other node's expressions rewritten. */
    static Program after() {
        return (planner, rel, traits, materializations, lattices) -> rewrite(rel);
    }

    private static RelNode rewrite(RelNode rel) {
        RelNode node = PlanInputs.rewritten(rel, ArrayNullabilityCasts::rewrite);
        RexBuilder rexBuilder = node.getCluster().getRexBuilder();
        ArrayNullabilityCasts shuttle = new ArrayNullabilityCasts(rexBuilder);
        if (node instanceof EnumerableCalc calc) {
            RexProgram program = calc.getProgram();
            RexProgram rebuilt = WholeExpressionPrograms.rewrite(program, shuttle, rexBuilder);
            return rebuilt == program ? calc : EnumerableCalc.create(calc.getInput(), rebuilt);
        }
        return node.accept(shuttle);
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexNode visited = super.visitCall(call);
        if (visited.getKind() != SqlKind.CAST || !(visited instanceof RexCall cast)) {
            return visited;
        }
        RexNode operand = cast.getOperands().get(0);
        if (!sameSansNullability(operand.getType(), cast.getType())) {
            return visited;
        }
        return rexBuilder.makeReinterpretCast(cast.getType(), operand, rexBuilder.makeLiteral(false));
    }

    /** Whether both are arrays of one element type, nullabilities aside (at every level). */
    private static boolean sameSansNullability(RelDataType a, RelDataType b) {
        if (a.getSqlTypeName() != SqlTypeName.ARRAY || b.getSqlTypeName() != SqlTypeName.ARRAY) {
            return false;
        }
        RelDataType x = a.getComponentType();
        RelDataType y = b.getComponentType();
        if (x.getSqlTypeName() == SqlTypeName.ARRAY || y.getSqlTypeName() == SqlTypeName.ARRAY) {
            return sameSansNullability(x, y);
        }
        return x.getSqlTypeName() == y.getSqlTypeName()
                && x.getPrecision() == y.getPrecision()
                && x.getScale() == y.getScale();
    }
}
