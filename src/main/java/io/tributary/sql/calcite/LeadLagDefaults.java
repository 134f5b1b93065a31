package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Validated {@code lead} and {@code lag} calls ({@link PgLeadLag}) made into Calcite's, whose code
 * generator implements them, with the default converted to the value's type. Calcite validates
 * {@code lead(numeric_column, 1, 0)} (the types are comparable) but then generates code assigning
 * the integer default to a {@code BigDecimal}, which does not compile (an internal error). PostgreSQL
 * resolves the two to their common type; where that is the value's own, the conversion here gives its
 * answer: an integer or numeric default keeps its own scale in a numeric result ({@code 0}, not
 * {@code 0.00}), as PostgreSQL's numeric values do. A default of a wider numeric type than the value
 * ({@code lead(int_column, 1, 0.5)}, numeric in PostgreSQL) would change the result's type, which is
 * fixed once validated, so it is refused. Called by {@link PgArithmetic} on the planning thread.
 */
final class LeadLagDefaults {
    /** Numeric types from narrowest to widest, as PostgreSQL's common type picks among them. */
    private static final List<SqlTypeName> NUMERIC_ORDER = List.of(
            SqlTypeName.TINYINT,
            SqlTypeName.SMALLINT,
            SqlTypeName.INTEGER,
            SqlTypeName.BIGINT,
            SqlTypeName.DECIMAL,
            SqlTypeName.REAL,
            SqlTypeName.FLOAT,
            SqlTypeName.DOUBLE);

    private static final SqlOperator NUMERIC_OF_LONG = numeric(Long.class);
    private static final SqlOperator NUMERIC_KEPT = numeric(java.math.BigDecimal.class);

    private LeadLagDefaults() {}

    /**
     * {@code over} with Calcite's operator and its default converted, or {@code over} itself when it is
     * no {@link PgLeadLag} call.
     *
     * @throws TributaryException 0A000 when the default's numeric type is wider than the value's
     */
    static RexNode calcites(RexOver over, RexBuilder rexBuilder) {
        if (!(over.getAggOperator() instanceof PgLeadLag)) {
            return over;
        }
        List<RexNode> operands = over.getOperands();
        if (operands.size() == 3) {
            operands = List.of(operands.get(0), operands.get(1), converted(over, rexBuilder));
        }
        SqlAggFunction calcite = over.getKind() == SqlKind.LEAD ? SqlStdOperatorTable.LEAD : SqlStdOperatorTable.LAG;
        return WindowCalls.withFunction(rexBuilder, over, calcite, operands);
    }

    /** The default of a three-argument call as a value of the value's type. */
    private static RexNode converted(RexOver over, RexBuilder rexBuilder) {
        RelDataType valueType = over.getOperands().get(0).getType();
        RexNode fallback = over.getOperands().get(2);
        SqlTypeName value = valueType.getSqlTypeName();
        SqlTypeName given = fallback.getType().getSqlTypeName();
        if (given == SqlTypeName.NULL || value == given && value != SqlTypeName.DECIMAL) {
            return fallback;
        }
        int valueRank = NUMERIC_ORDER.indexOf(value);
        int givenRank = NUMERIC_ORDER.indexOf(given);
        if (valueRank >= 0 && givenRank > valueRank) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    over.getAggOperator().getName().toLowerCase(Locale.ROOT)
                            + "() with a default of a wider type than its value is not supported;"
                            + " cast the value to the default's type");
        }
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        RelDataType target =
                types.createTypeWithNullability(valueType, fallback.getType().isNullable());
        boolean sameFamily = valueRank >= 0 && givenRank >= 0
                || SqlTypeFamily.CHARACTER.getTypeNames().contains(value)
                        && SqlTypeFamily.CHARACTER.getTypeNames().contains(given);
        if (fallback instanceof RexLiteral literal && sameFamily && value != SqlTypeName.DECIMAL) {
            // still a constant, as a view's window planner takes it
            return rexBuilder.makeLiteral(literal.getValue(), target, false);
        }
        if (value == SqlTypeName.DECIMAL && givenRank >= 0 && fallback instanceof RexLiteral literal) {
            // a constant, as a view's window planner takes it, typed by its own scale (both are a
            // BigDecimal at run time): a value of the value's type would print 0 as 0.00
            java.math.BigDecimal number = literal.getValueAs(java.math.BigDecimal.class);
            int precision = Math.max(1, Math.max(number.precision(), number.scale()));
            return rexBuilder.makeExactLiteral(
                    number, types.createSqlType(SqlTypeName.DECIMAL, precision, Math.max(0, number.scale())));
        }
        if (value == SqlTypeName.DECIMAL && givenRank >= 0) {
            // Calcite's cast would give the default the value's scale
            return given == SqlTypeName.DECIMAL
                    ? rexBuilder.makeCall(target, NUMERIC_KEPT, List.of(fallback))
                    : rexBuilder.makeCall(
                            target,
                            NUMERIC_OF_LONG,
                            List.of(rexBuilder.makeCast(
                                    types.createTypeWithNullability(
                                            types.createSqlType(SqlTypeName.BIGINT),
                                            fallback.getType().isNullable()),
                                    fallback)));
        }
        return sameFamily ? rexBuilder.makeCast(target, fallback) : fallback;
    }

    /** {@link PgFunctions#pg_numeric} of {@code argument}: the same number as a NUMERIC, its scale kept. */
    private static SqlOperator numeric(Class<?> argument) {
        try {
            return new org.apache.calcite.sql.validate.SqlUserDefinedFunction(
                    new org.apache.calcite.sql.SqlIdentifier(
                            "pg_numeric", org.apache.calcite.sql.parser.SqlParserPos.ZERO),
                    SqlKind.OTHER_FUNCTION,
                    org.apache.calcite.sql.type.ReturnTypes.ARG0,
                    null,
                    null,
                    org.apache.calcite.schema.impl.ScalarFunctionImpl.create(
                            PgFunctions.class.getMethod("pg_numeric", argument)));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
