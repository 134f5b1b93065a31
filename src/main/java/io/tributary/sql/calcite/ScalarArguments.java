package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * Number arguments of Tributary's schema functions ({@link PgOperatorFunctions}, {@link
 * PgNumberFunctions}, {@link PgSizeFunctions}, {@link PgDateFunctions}, {@link PgByteaFunctions}) cast to the parameter types
 * of the overload validation chose: validation accepts any number where a method takes one, but
 * Calcite's generated code passes the argument's own boxed class ({@code Long} where the method
 * takes {@code Integer}, {@code BigDecimal} where it takes {@code Double}) and fails to compile.
 * {@code width_bucket} with a float argument is PostgreSQL's float8 form ({@link
 * PgScalarFunctions#widthBucketFloat8}), whichever overload validation chose. Called by {@link
 * PgArithmetic} for each call of a validated plan and of a view's expressions; planning thread.
 */
final class ScalarArguments {
    private static final Set<Class<?>> CLASSES = Set.of(
            PgOperatorFunctions.class,
            PgNumberFunctions.class,
            PgSizeFunctions.class,
            PgDateFunctions.class,
            PgByteaFunctions.class);
    private static final SqlOperator WIDTH_BUCKET_FLOAT8 =
            PgArithmetic.function(PgScalarFunctions.class, "widthBucketFloat8");

    private ScalarArguments() {}

    /** {@code call} with its number arguments cast, or {@code call} itself when it needs no cast. */
    static RexNode castToParameters(RexCall call, RexBuilder rexBuilder) {
        if (!(call.getOperator() instanceof SqlUserDefinedFunction function)
                || !(function.getFunction() instanceof ScalarFunctionImpl scalar)
                || !CLASSES.contains(scalar.method.getDeclaringClass())) {
            return call;
        }
        List<RexNode> operands = call.getOperands();
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        if (scalar.method.getName().equals("width_bucket")
                && operands.stream()
                        .anyMatch(o ->
                                SqlTypeName.APPROX_TYPES.contains(o.getType().getSqlTypeName()))) {
            List<RexNode> cast = new ArrayList<>(operands.size());
            for (int i = 0; i < operands.size(); i++) {
                cast.add(as(
                        operands.get(i),
                        types.createSqlType(i < 3 ? SqlTypeName.DOUBLE : SqlTypeName.INTEGER),
                        rexBuilder));
            }
            return rexBuilder.makeCall(call.getType(), WIDTH_BUCKET_FLOAT8, cast);
        }
        List<RexNode> cast = new ArrayList<>(operands.size());
        boolean changed = false;
        for (int i = 0; i < operands.size(); i++) {
            RexNode operand = operands.get(i);
            SqlTypeName parameter =
                    function.getFunction().getParameters().get(i).getType(types).getSqlTypeName();
            SqlTypeName argument = operand.getType().getSqlTypeName();
            if (argument == parameter
                    || !SqlTypeName.NUMERIC_TYPES.contains(argument)
                    || !SqlTypeName.NUMERIC_TYPES.contains(parameter)) {
                cast.add(operand);
                continue;
            }
            // an integer of any width fits numeric(19, 0); other numbers keep their digits in numeric's widest form
            RelDataType target = parameter == SqlTypeName.DECIMAL
                    ? SqlTypeName.INT_TYPES.contains(argument)
                            ? types.createSqlType(SqlTypeName.DECIMAL, 19, 0)
                            : types.createSqlType(SqlTypeName.DECIMAL)
                    : types.createSqlType(parameter);
            cast.add(as(operand, target, rexBuilder));
            changed = true;
        }
        return changed ? call.clone(call.getType(), cast) : call;
    }

    private static RexNode as(RexNode operand, RelDataType type, RexBuilder rexBuilder) {
        if (operand.getType().getSqlTypeName() == type.getSqlTypeName()) {
            return operand;
        }
        return rexBuilder.makeCast(
                rexBuilder
                        .getTypeFactory()
                        .createTypeWithNullability(type, operand.getType().isNullable()),
                operand);
    }
}
