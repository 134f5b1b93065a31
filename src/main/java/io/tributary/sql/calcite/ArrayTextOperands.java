package io.tributary.sql.calcite;

import io.tributary.common.types.PgArrayLiteral;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;

/**
 * A planning step for ad-hoc queries, run by the frontend's program ahead of the planner on the
 * planning thread; stateless. PostgreSQL reads an array text constant beside an array in {@code
 * @>}, {@code <@} and {@code &&} as an array of the other operand's type ({@code ARRAY[DATE
 * '2024-01-01'] @> '{2024-01-01}'} compares dates). Generated code sees only the constant's string
 * and the other array's Java values (a date's day number), so the constant is written here as
 * {@code ARRAY[CAST(element AS type), ...]} of the other operand's element type; the later steps
 * give those casts PostgreSQL's meaning ({@link PgArithmetic}'s input of dates and timestamps, with
 * their microseconds; a timestamptz in the session's zone), so this step runs before them.
 */
final class ArrayTextOperands {
    /** The functions {@link PgOperatorText} writes these operators as. */
    private static final Set<String> OPERATORS =
            Set.of("pg_op_jsonb_contains", "pg_op_jsonb_contained", "pg_op_array_overlap");

    private ArrayTextOperands() {}

    /** Rewrites the plan's array operators' text constants, then runs {@code planning} on it. */
    static Program before(Program planning) {
        // no sort is rewritten: the required order stays
        return NodeRewrites.before(
                planning, node -> node.accept(new Operands(node.getCluster().getRexBuilder())), type -> false);
    }

    /** The expressions of one node, rewritten as the class comment says. */
    private static final class Operands extends RexShuttle {
        private final RexBuilder rex;

        Operands(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexNode visited = super.visitCall(call);
            if (!(visited instanceof RexCall c)
                    || c.getOperands().size() != 2
                    || !OPERATORS.contains(c.getOperator().getName())) {
                return visited;
            }
            RexNode a = c.getOperands().get(0);
            RexNode b = c.getOperands().get(1);
            RexNode left = typed(a, b.getType());
            RexNode right = typed(b, a.getType());
            return left == a && right == b ? visited : rex.makeCall(c.getType(), c.getOperator(), List.of(left, right));
        }

        /**
         * {@code operand} as an array of {@code other}'s type when it is a non-empty array text
         * constant and {@code other} an array; else {@code operand} itself.
         */
        private RexNode typed(RexNode operand, RelDataType other) {
            if (other.getSqlTypeName() != SqlTypeName.ARRAY
                    || !(operand instanceof RexLiteral literal)
                    || literal.isNull()
                    || !SqlTypeName.CHAR_TYPES.contains(literal.getType().getSqlTypeName())) {
                return operand;
            }
            List<String> texts = PgArrayLiteral.elements(literal.getValueAs(String.class));
            if (texts.isEmpty()) {
                return operand;
            }
            RelDataType nullable =
                    rex.getTypeFactory().createTypeWithNullability(widened(other.getComponentType()), true);
            List<RexNode> elements = new ArrayList<>(texts.size());
            for (String text : texts) {
                elements.add(
                        text == null ? rex.makeNullLiteral(nullable) : rex.makeCast(nullable, rex.makeLiteral(text)));
            }
            RelDataType array = rex.getTypeFactory().createArrayType(nullable, -1);
            return rex.makeCall(array, SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR, elements);
        }

        /**
         * {@code element}'s type without the precision an {@code ARRAY[...]} of constants took from
         * them ({@code TIMESTAMP(0)}, {@code DECIMAL(2,1)}): PostgreSQL's array types have no
         * typmod, so the constant's elements keep their fractions.
         */
        private RelDataType widened(RelDataType element) {
            RelDataTypeFactory types = rex.getTypeFactory();
            return switch (element.getSqlTypeName()) {
                case TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    types.createSqlType(element.getSqlTypeName(), 6);
                case DECIMAL ->
                    types.createSqlType(
                            SqlTypeName.DECIMAL,
                            TributaryTypeSystem.MAX_NUMERIC_PRECISION,
                            TypeMapping.UNCONSTRAINED_NUMERIC_SCALE);
                case VARCHAR -> types.createSqlType(SqlTypeName.VARCHAR);
                default -> element;
            };
        }
    }
}
