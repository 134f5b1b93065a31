package io.tributary.sql.calcite;

import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A cast to smallint, integer or bigint of a value that may not fit (a wider integer, a numeric, a
 * float) as a call of {@link PgIntegerCastFunctions}, whose 22003 names the type as PostgreSQL's
 * does ({@code integer out of range}). Calcite's own checked cast said {@code value 40000 out of
 * range} or {@code value out of range: Overflow}, refused {@code -2^63} as a float and made a float
 * NaN 0. Used by {@link PgArithmetic} on the plans of queries and views alike; stateless.
 */
final class IntegerCasts {
    private static final Set<SqlTypeName> FLOATS = Set.of(SqlTypeName.DOUBLE, SqlTypeName.FLOAT, SqlTypeName.REAL);

    private static final SqlOperator INT8_INT2 = function("int8Int2");
    private static final SqlOperator INT8_INT4 = function("int8Int4");
    private static final SqlOperator NUMERIC_INT2 = function("numericInt2");
    private static final SqlOperator NUMERIC_INT4 = function("numericInt4");
    private static final SqlOperator NUMERIC_INT8 = function("numericInt8");
    private static final SqlOperator FLOAT8_INT2 = function("float8Int2");
    private static final SqlOperator FLOAT8_INT4 = function("float8Int4");
    private static final SqlOperator FLOAT8_INT8 = function("float8Int8");

    private IntegerCasts() {}

    /**
     * {@code call} (operands already visited) as the checked conversion of its operand, of the
     * cast's type; null when it is no cast to an integer type or its operand always fits.
     */
    static RexNode replace(RexCall call, RexBuilder rexBuilder) {
        if (call.getKind() != SqlKind.CAST || call.getOperands().size() != 1) {
            return null;
        }
        RexNode operand = call.getOperands().get(0);
        SqlTypeName from = operand.getType().getSqlTypeName();
        SqlTypeName to = call.getType().getSqlTypeName();
        SqlOperator checked;
        SqlTypeName argument;
        if (from == SqlTypeName.DECIMAL) {
            checked = pick(to, NUMERIC_INT2, NUMERIC_INT4, NUMERIC_INT8);
            argument = from;
        } else if (FLOATS.contains(from)) {
            checked = pick(to, FLOAT8_INT2, FLOAT8_INT4, FLOAT8_INT8);
            argument = SqlTypeName.DOUBLE;
        } else if (from == SqlTypeName.BIGINT || from == SqlTypeName.INTEGER && to == SqlTypeName.SMALLINT) {
            checked = pick(to, INT8_INT2, INT8_INT4, null);
            argument = SqlTypeName.BIGINT;
        } else {
            return null;
        }
        if (checked == null) {
            return null;
        }
        RexNode widened = operand;
        if (from != argument) {
            // exact: an integer as bigint, a real as double precision
            RelDataTypeFactory types = rexBuilder.getTypeFactory();
            widened = rexBuilder.makeCast(
                    types.createTypeWithNullability(
                            types.createSqlType(argument), operand.getType().isNullable()),
                    operand);
        }
        return rexBuilder.makeCall(call.getType(), checked, List.of(widened));
    }

    /** The operator for the integer type {@code to}; null for any other type. */
    private static SqlOperator pick(SqlTypeName to, SqlOperator int2, SqlOperator int4, SqlOperator int8) {
        return switch (to) {
            case SMALLINT -> int2;
            case INTEGER -> int4;
            case BIGINT -> int8;
            default -> null;
        };
    }

    private static SqlOperator function(String method) {
        return PgArithmetic.function(PgIntegerCastFunctions.class, method);
    }
}
