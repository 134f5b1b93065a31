package io.tributary.sql.calcite;

import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * Makes integer arithmetic fail on overflow, as PostgreSQL's does ({@code 2147483647 + 1} is
 * 22003, not -2147483648): a planning program that first turns {@code +}, {@code -}, {@code *}
 * and unary minus on smallint, integer and bigint into their overflow-checking forms, then runs
 * the given program. (Calcite's own conversion also rewrites NUMERIC casts, changing their scale,
 * so it is not used.)
 *
 * <p>The same pass makes integer {@code %} run in long arithmetic: Calcite finds no {@code mod}
 * method for two different integer types ({@code bigint % integer}) and falls back to
 * {@code BigDecimal}, which made {@code x % 1000} two thirds of an {@code INSERT ... SELECT}. Both
 * operands are widened to bigint and the remainder, whose magnitude is below the divisor's, is cast
 * back to the call's type; division by zero still fails as 22012.
 */
final class CheckedArithmetic {
    private static final Set<SqlTypeName> INTEGERS =
            Set.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT);

    private CheckedArithmetic() {}

    /** {@code planning}, preceded by the pass that makes integer arithmetic check for overflow. */
    static Program before(Program planning) {
        return Programs.sequence(
                (planner, rel, traits, materializations, lattices) ->
                        rel.accept(new Shuttle(rel.getCluster().getRexBuilder())),
                planning);
    }

    /** Rewrites the expressions of every node of a plan. */
    private static final class Shuttle extends RelHomogeneousShuttle {
        private final RexShuttle expressions;

        Shuttle(RexBuilder rexBuilder) {
            this.expressions = new RexShuttle() {
                @Override
                public RexNode visitCall(RexCall call) {
                    RexNode visited = super.visitCall(call);
                    if (!(visited instanceof RexCall c)
                            || !INTEGERS.contains(c.getType().getSqlTypeName())) {
                        return visited;
                    }
                    if (c.getKind() == SqlKind.MOD) {
                        return longRemainder(c);
                    }
                    SqlOperator checked = switch (c.getKind()) {
                        case PLUS -> SqlStdOperatorTable.CHECKED_PLUS;
                        case MINUS -> SqlStdOperatorTable.CHECKED_MINUS;
                        case TIMES -> SqlStdOperatorTable.CHECKED_MULTIPLY;
                        case MINUS_PREFIX -> SqlStdOperatorTable.CHECKED_UNARY_MINUS;
                        default -> null;
                    };
                    return checked == null ? visited : rexBuilder.makeCall(c.getType(), checked, c.getOperands());
                }

                /** {@code CAST(MOD(CAST(a AS BIGINT), CAST(b AS BIGINT)) AS type)} for integer a and b. */
                private RexNode longRemainder(RexCall mod) {
                    List<RexNode> operands = mod.getOperands();
                    if (operands.size() != 2
                            || !operands.stream()
                                    .allMatch(o -> INTEGERS.contains(o.getType().getSqlTypeName()))
                            || operands.stream().allMatch(o -> o.getType().getSqlTypeName() == SqlTypeName.BIGINT)) {
                        return mod;
                    }
                    RelDataTypeFactory types = rexBuilder.getTypeFactory();
                    List<RexNode> widened = operands.stream()
                            .map(o -> rexBuilder.makeCast(
                                    types.createTypeWithNullability(
                                            types.createSqlType(SqlTypeName.BIGINT),
                                            o.getType().isNullable()),
                                    o))
                            .toList();
                    RexNode remainder = rexBuilder.makeCall(
                            types.createTypeWithNullability(
                                    types.createSqlType(SqlTypeName.BIGINT),
                                    mod.getType().isNullable()),
                            mod.getOperator(),
                            widened);
                    return rexBuilder.makeCast(mod.getType(), remainder);
                }
            };
        }

        @Override
        public RelNode visit(RelNode other) {
            return super.visit(other).accept(expressions);
        }
    }
}
