package io.tributary.sql.calcite;

import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The comparisons and casts of floats whose Java answer differs from PostgreSQL's, replaced by calls
 * of {@link PgFloatFunctions} of the same type: comparisons of two floats (NaN equals NaN and sorts
 * above Infinity), also those a {@code SEARCH} ({@code IN}, {@code BETWEEN}) stands for,
 * {@code float8::real} (22003 out of real's range) and a float cast to numeric (the float's printed
 * digits, not its binary expansion), also the {@code pg_numeric} call {@link NumericCast} writes
 * for {@code float8::numeric}: {@link PgFunctions#pg_numeric(Double)} keeps the shortest decimal
 * form that builds before session 41 computed, as views they created still call it by that name
 * ({@link ViewPlanningBuild}). {@code =} and {@code <>} of two columns stay
 * Calcite's, so an equi-join on floats keeps its hash join (whose keys' {@code Double.equals}
 * already matches NaN with NaN). Called by {@link PgScalarCalls}, so queries and views answer alike.
 * Planning thread.
 */
final class PgFloatCalls {
    private static final Set<SqlTypeName> FLOATS = Set.of(SqlTypeName.DOUBLE, SqlTypeName.FLOAT, SqlTypeName.REAL);
    private static final Set<SqlTypeName> FLOAT8S = Set.of(SqlTypeName.DOUBLE, SqlTypeName.FLOAT);

    private static final SqlOperator EQ = function("floatEq");
    private static final SqlOperator NE = function("floatNe");
    private static final SqlOperator LT = function("floatLt");
    private static final SqlOperator LE = function("floatLe");
    private static final SqlOperator GT = function("floatGt");
    private static final SqlOperator GE = function("floatGe");
    private static final SqlOperator FLOAT8_FLOAT4 = function("float8Float4");
    private static final SqlOperator FLOAT8_NUMERIC = function("float8Numeric");
    private static final SqlOperator FLOAT4_NUMERIC = function("float4Numeric");
    /**
     * {@code float8::numeric} as written: the same function as {@link #FLOAT8_NUMERIC}, but not a
     * cast validation added, so {@link #numericOperand} does not see through it ({@code
     * d::numeric % 2} is numeric's remainder).
     */
    private static final SqlOperator WRITTEN_FLOAT8_NUMERIC = function("float8Numeric");

    private final RexBuilder rexBuilder;

    PgFloatCalls(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    /**
     * PostgreSQL's form of {@code call} (operands already visited) where it is a comparison, search
     * or cast of floats this class replaces, or {@code pg_numeric} of a float8; else {@code null}.
     */
    RexNode replace(RexCall call) {
        return switch (call.getKind()) {
            case CAST -> cast(call);
            case SEARCH -> search(call);
            default -> call.getKind().belongsTo(SqlKind.COMPARISON) ? comparison(call) : writtenNumeric(call);
        };
    }

    /** {@code pg_numeric(d)} of a float8 {@code d} ({@link NumericCast}) as a call of {@link #WRITTEN_FLOAT8_NUMERIC}, or {@code null}. */
    private RexNode writtenNumeric(RexCall call) {
        if (call.getOperands().size() != 1
                || !call.getOperator().getName().equalsIgnoreCase("pg_numeric")
                || !FLOAT8S.contains(call.getOperands().get(0).getType().getSqlTypeName())) {
            return null;
        }
        return rexBuilder.makeCall(call.getType(), WRITTEN_FLOAT8_NUMERIC, call.getOperands());
    }

    /** PostgreSQL's form of the comparison {@code call} of two floats, or {@code null}. */
    private RexNode comparison(RexCall call) {
        List<RexNode> operands = call.getOperands();
        if (operands.size() != 2
                || !FLOATS.contains(operands.get(0).getType().getSqlTypeName())
                || !FLOATS.contains(operands.get(1).getType().getSqlTypeName())) {
            return null;
        }
        boolean columns = operands.get(0) instanceof RexInputRef && operands.get(1) instanceof RexInputRef;
        SqlOperator op = switch (call.getKind()) {
            case EQUALS -> columns ? null : EQ;
            case NOT_EQUALS -> columns ? null : NE;
            case LESS_THAN -> LT;
            case LESS_THAN_OR_EQUAL -> LE;
            case GREATER_THAN -> GT;
            case GREATER_THAN_OR_EQUAL -> GE;
            default -> null;
        };
        return op == null
                ? null
                : rexBuilder.makeCall(
                        call.getType(),
                        op,
                        operands.stream().map(this::asDouble).toList());
    }

    /**
     * PostgreSQL's form of a {@code SEARCH} of a float ({@code IN} lists and {@code BETWEEN}, which
     * Calcite's simplifier folds into ranges of Java's order, where NaN matches nothing): the
     * comparisons it stands for, each in PostgreSQL's form; {@code null} for any other search.
     */
    private RexNode search(RexCall search) {
        if (!FLOATS.contains(search.getOperands().get(0).getType().getSqlTypeName())) {
            return null;
        }
        return RexUtil.expandSearch(rexBuilder, null, search).accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexNode visited = super.visitCall(call);
                if (visited instanceof RexCall c && c.getKind().belongsTo(SqlKind.COMPARISON)) {
                    RexNode compared = comparison(c);
                    return compared != null ? compared : c;
                }
                return visited;
            }
        });
    }

    /** PostgreSQL's form of the cast {@code cast} of a float to real or numeric, or {@code null}. */
    private RexNode cast(RexCall cast) {
        RexNode operand = cast.getOperands().get(0);
        SqlTypeName from = operand.getType().getSqlTypeName();
        SqlTypeName to = cast.getType().getSqlTypeName();
        if (to == SqlTypeName.REAL && (from == SqlTypeName.DOUBLE || from == SqlTypeName.FLOAT)) {
            return rexBuilder.makeCall(cast.getType(), FLOAT8_FLOAT4, List.of(operand));
        }
        if (to != SqlTypeName.DECIMAL || !FLOATS.contains(from)) {
            return null;
        }
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        RelDataType numeric = types.createTypeWithNullability(
                types.createSqlType(
                        SqlTypeName.DECIMAL,
                        TributaryTypeSystem.MAX_NUMERIC_PRECISION,
                        TypeMapping.UNCONSTRAINED_NUMERIC_SCALE),
                cast.getType().isNullable());
        RexNode digits = rexBuilder.makeCall(
                numeric, from == SqlTypeName.REAL ? FLOAT4_NUMERIC : FLOAT8_NUMERIC, List.of(operand));
        // a declared precision or scale rounds the printed digits, as numeric_in's typmod does
        return numeric.equals(cast.getType()) ? digits : rexBuilder.makeCast(cast.getType(), digits);
    }

    /**
     * The float that {@code node} reads when it is this class's form of a float cast to numeric,
     * else {@code node}: {@link PgArithmetic} names a float operand of {@code %} through the cast
     * validation put on it (42883, as PostgreSQL has no float remainder).
     */
    static RexNode numericOperand(RexNode node) {
        return node instanceof RexCall c && (c.getOperator() == FLOAT8_NUMERIC || c.getOperator() == FLOAT4_NUMERIC)
                ? c.getOperands().get(0)
                : node;
    }

    private RexNode asDouble(RexNode operand) {
        if (operand.getType().getSqlTypeName() == SqlTypeName.DOUBLE) {
            return operand;
        }
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        return rexBuilder.makeCast(
                types.createTypeWithNullability(
                        types.createSqlType(SqlTypeName.DOUBLE),
                        operand.getType().isNullable()),
                operand);
    }

    private static SqlOperator function(String method) {
        return PgArithmetic.function(PgFloatFunctions.class, method);
    }
}
