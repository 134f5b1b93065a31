package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedTableFunction;

/**
 * The arguments of a {@code generate_series} call ({@link GenerateSeries}, {@link NumericSeries})
 * cast to the parameter types of the overload validation chose: Calcite's generated code would
 * pass a {@code Short} where the method takes {@code Integer}, or an {@code Integer} where it takes
 * {@code Long} ({@code generate_series(x, 3000000000)} over an integer column), and fail to
 * compile. Only smallint arguments are, as in PostgreSQL, ambiguous
 * (42725: no overload takes smallint, and integer, bigint and numeric are equally near); a float
 * argument matches no overload (42883; Calcite would cast it to numeric). {@link #castToParameters} is called
 * by {@link PgArithmetic} for each call of a validated plan, {@link #typedNulls} by {@link
 * PgValueSemantics} before validation; planning thread.
 */
final class SeriesArguments {
    private SeriesArguments() {}

    /** {@code call} with its arguments cast, or {@code call} itself when it is no series call or needs no cast. */
    static RexCall castToParameters(RexCall call, RexBuilder rexBuilder) {
        if (!(call.getOperator() instanceof SqlUserDefinedTableFunction function)
                || !function.getName().equalsIgnoreCase("generate_series")) {
            return call;
        }
        List<RexNode> operands = call.getOperands();
        if (operands.stream()
                .anyMatch(o -> SqlTypeName.APPROX_TYPES.contains(o.getType().getSqlTypeName()))) {
            // PostgreSQL casts a float to integer or numeric only on assignment, never to pick an overload
            throw new TributaryException(
                    SqlState.UNDEFINED_FUNCTION, "function " + signature(operands) + " does not exist");
        }
        if (operands.stream().allMatch(o -> o.getType().getSqlTypeName() == SqlTypeName.SMALLINT)) {
            throw new TributaryException(
                    SqlState.AMBIGUOUS_FUNCTION, "function " + signature(operands) + " is not unique");
        }
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        List<RexNode> cast = new ArrayList<>(operands.size());
        boolean changed = false;
        for (int i = 0; i < operands.size(); i++) {
            RexNode operand = operands.get(i);
            SqlTypeName parameter =
                    function.getFunction().getParameters().get(i).getType(types).getSqlTypeName();
            if (operand.getType().getSqlTypeName() == parameter) {
                cast.add(operand);
                continue;
            }
            // an integer of any width fits numeric(19, 0)
            RelDataType target = parameter == SqlTypeName.DECIMAL
                    ? types.createSqlType(SqlTypeName.DECIMAL, 19, 0)
                    : types.createSqlType(parameter);
            cast.add(rexBuilder.makeCast(
                    types.createTypeWithNullability(target, operand.getType().isNullable()), operand));
            changed = true;
        }
        if (!changed) {
            return call;
        }
        return call.clone(call.getType(), cast);
    }

    /**
     * {@code generate_series(...)} before validation with each NULL argument written as {@code
     * CAST(NULL AS INTEGER)}: PostgreSQL resolves an unknown argument beside typed ones as the others
     * choose ({@code generate_series(1, NULL)} is the integer overload, no rows), while Calcite cannot
     * rank overloads for an argument of type NULL. Only NULLs are 42725, as in PostgreSQL. Called by
     * {@link PgValueSemantics} for calls that have a NULL argument.
     */
    static SqlCall typedNulls(SqlCall call) {
        List<SqlNode> operands = call.getOperandList();
        if (operands.stream().allMatch(o -> SqlUtil.isNullLiteral(o, false))) {
            throw new TributaryException(
                    SqlState.AMBIGUOUS_FUNCTION,
                    "function generate_series(" + String.join(", ", Collections.nCopies(operands.size(), "unknown"))
                            + ") is not unique");
        }
        SqlParserPos pos = call.getParserPosition();
        List<SqlNode> typed = new ArrayList<>(operands.size());
        for (SqlNode operand : operands) {
            typed.add(
                    SqlUtil.isNullLiteral(operand, false)
                            ? SqlStdOperatorTable.CAST.createCall(
                                    pos,
                                    operand,
                                    new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.INTEGER, pos), pos))
                            : operand);
        }
        return call.getOperator().createCall(call.getFunctionQuantifier(), pos, typed.toArray(new SqlNode[0]));
    }

    /** {@code generate_series(smallint, integer)}: the call's argument types as PostgreSQL's messages name them. */
    private static String signature(List<RexNode> operands) {
        StringBuilder out = new StringBuilder("generate_series(");
        for (int i = 0; i < operands.size(); i++) {
            out.append(i == 0 ? "" : ", ").append(PgTypeOf.name(operands.get(i).getType()));
        }
        return out.append(')').toString();
    }
}
