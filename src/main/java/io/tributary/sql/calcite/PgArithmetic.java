package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * Gives the arithmetic operators of a validated plan PostgreSQL's semantics where Calcite's
 * runtime differs, by replacing calls with their checked forms or with calls of {@link
 * PgArithmeticFunctions}; every call keeps its type, so the plan's row types stay as validated.
 *
 * <ul>
 *   <li>{@code +}, {@code -}, {@code *} and unary minus on smallint, integer and bigint fail on
 *       overflow (22003; Calcite wraps around), as do {@code x / -1} and {@code abs} of each
 *       type's smallest value;
 *   <li>casts to smallint, integer and bigint fail as PostgreSQL's do ({@link IntegerCasts});
 *   <li>integer {@code %} runs in long arithmetic: Calcite finds no {@code mod} method for two
 *       different integer types ({@code bigint % integer}) and falls back to {@code BigDecimal},
 *       which made {@code x % 1000} two thirds of an {@code INSERT ... SELECT}; the remainder,
 *       smaller than the divisor, is cast back;
 *   <li>numeric {@code /} and {@code %} give PostgreSQL's result scale (Calcite: 16 significant
 *       digits, and a remainder in the divisor's scale);
 *   <li>double precision {@code + - * /} fail on overflow (22003) and division by zero (22012)
 *       where Calcite answers Infinity;
 *   <li>{@code %} and {@code mod} of a float are 42883, as PostgreSQL has no such operator;
 *   <li>the scalar functions and casts {@link PgScalarCalls} gives PostgreSQL's answers;
 *   <li>{@code generate_series}' arguments are cast to its parameters' types ({@link SeriesArguments});
 *   <li>{@code lead} and {@code lag} get Calcite's operators back, their default converted to the value's type ({@link LeadLagDefaults});
 *   <li>{@code <}, {@code <=}, {@code >}, {@code >=} of two PostgreSQL intervals order them as PostgreSQL does ({@link IntervalComparisons}).
 * </ul>
 *
 * Used on the session's plans ({@link CheckedArithmetic}) and on the expressions a view compiles
 * ({@link ExpressionCompiler}), so both answer alike. One instance per plan; planning thread.
 */
final class PgArithmetic extends RexShuttle {
    private static final Set<SqlTypeName> INTEGERS =
            Set.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT);
    private static final Set<SqlTypeName> FLOATS = Set.of(SqlTypeName.DOUBLE, SqlTypeName.FLOAT, SqlTypeName.REAL);

    private static final SqlOperator NUMERIC_DIVIDE = function("numericDivide");
    private static final SqlOperator NUMERIC_REMAINDER = function("numericRemainder");
    private static final SqlOperator FLOAT8_PLUS = function("float8Plus");
    private static final SqlOperator FLOAT8_MINUS = function("float8Minus");
    private static final SqlOperator FLOAT8_TIMES = function("float8Times");
    private static final SqlOperator FLOAT8_DIVIDE = function("float8Divide");
    private static final SqlOperator INT2_DIVIDE = function("int2Divide");
    private static final SqlOperator INT4_DIVIDE = function("int4Divide");
    private static final SqlOperator INT8_DIVIDE = function("int8Divide");
    private static final SqlOperator INT2_ABS = function("int2Abs");
    private static final SqlOperator INT4_ABS = function("int4Abs");
    private static final SqlOperator INT8_ABS = function("int8Abs");

    private final RexBuilder rexBuilder;
    private final PgScalarCalls scalars;

    PgArithmetic(RexBuilder rexBuilder) {
        this(rexBuilder, ViewPlanningBuild.CURRENT);
    }

    /**
     * @param build whose comparisons and casts to give (floats: {@link PgFloatCalls}; numeric
     *     arrays: {@link PgNumericArrayKey}); an earlier one only to plan a view as that build did
     */
    PgArithmetic(RexBuilder rexBuilder, ViewPlanningBuild build) {
        this.rexBuilder = rexBuilder;
        this.scalars = new PgScalarCalls(rexBuilder, build);
    }

    @Override
    public RexNode visitOver(org.apache.calcite.rex.RexOver over) {
        RexNode visited = super.visitOver(over);
        return visited instanceof org.apache.calcite.rex.RexOver o ? LeadLagDefaults.calcites(o, rexBuilder) : visited;
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexNode visited = super.visitCall(call);
        if (!(visited instanceof RexCall c)) {
            return visited;
        }
        if ((c.getKind() == SqlKind.AND || c.getKind() == SqlKind.OR) && !RexUtil.isFlat(c)) {
            // an operand replaced by an AND or OR of its own kind (a float BETWEEN or IN list expanded
            // by PgFloatCalls) must be merged into it: Calcite's planner requires AND and OR flat
            return RexUtil.flatten(rexBuilder, c);
        }
        MissingSignatures.check(c, rexBuilder.getTypeFactory());
        RexCall series = SeriesArguments.castToParameters(c, rexBuilder);
        if (series != c) {
            return series;
        }
        RexNode argued = ScalarArguments.castToParameters(c, rexBuilder);
        if (argued != c) {
            return argued;
        }
        RexNode scalar = scalars.replace(c);
        if (scalar != null) {
            return scalar;
        }
        RexNode intervals = IntervalComparisons.replace(c, rexBuilder);
        if (intervals != null) {
            return intervals;
        }
        RexNode narrowed = IntegerCasts.replace(c, rexBuilder);
        if (narrowed != null) {
            return narrowed;
        }
        SqlTypeName type = c.getType().getSqlTypeName();
        if (c.getKind() == SqlKind.MOD) {
            return remainder(c, type);
        }
        if (INTEGERS.contains(type)) {
            return integer(c, type);
        }
        if (type == SqlTypeName.DOUBLE && c.getOperands().size() == 2) {
            SqlOperator checked = switch (c.getKind()) {
                case PLUS -> FLOAT8_PLUS;
                case MINUS -> FLOAT8_MINUS;
                case TIMES -> FLOAT8_TIMES;
                case DIVIDE -> FLOAT8_DIVIDE;
                default -> null;
            };
            return checked == null ? c : withOperands(c, checked, SqlTypeName.DOUBLE);
        }
        RexNode division = numericDivision(c);
        return division == null ? c : division;
    }

    /**
     * {@code call} (its operands already visited) as PostgreSQL's numeric division, with {@code
     * select_div_scale}'s result scale, when it is a NUMERIC {@code /}; null for any other call.
     */
    private RexNode numericDivision(RexCall call) {
        return isNumericDivision(call) ? numericDivision(call, call.getType()) : null;
    }

    /** Whether {@code node} is Calcite's NUMERIC {@code /}. */
    static boolean isNumericDivision(RexNode node) {
        return node instanceof RexCall call
                && call.getType().getSqlTypeName() == SqlTypeName.DECIMAL
                && call.getKind() == SqlKind.DIVIDE
                && call.getOperands().size() == 2;
    }

    /**
     * The NUMERIC {@code /} {@code division} as PostgreSQL's (see {@link #isNumericDivision}), typed
     * {@code type} (the division's, or that of a cast of it that only makes it nullable, which in
     * Calcite's code would set the value's scale to the type's). Also used on planned trees ({@link
     * PlannedDivisions}).
     */
    RexNode numericDivision(RexCall division, RelDataType type) {
        return rexBuilder.makeCall(
                type,
                NUMERIC_DIVIDE,
                division.getOperands().stream()
                        .map(o -> cast(o, SqlTypeName.DECIMAL))
                        .toList());
    }

    private RexNode integer(RexCall c, SqlTypeName type) {
        SqlOperator divide = switch (type) {
            case SMALLINT -> INT2_DIVIDE;
            case INTEGER -> INT4_DIVIDE;
            case BIGINT -> INT8_DIVIDE;
            default -> null;
        };
        if (c.getKind() == SqlKind.DIVIDE && divide != null && c.getOperands().size() == 2) {
            return withOperands(c, divide, type);
        }
        SqlOperator abs = switch (type) {
            case SMALLINT -> INT2_ABS;
            case INTEGER -> INT4_ABS;
            case BIGINT -> INT8_ABS;
            default -> null;
        };
        if (abs != null
                && c.getOperator().getName().equalsIgnoreCase("ABS")
                && c.getOperands().size() == 1) {
            return withOperands(c, abs, type);
        }
        SqlOperator checked = switch (c.getKind()) {
            case PLUS -> SqlStdOperatorTable.CHECKED_PLUS;
            case MINUS -> SqlStdOperatorTable.CHECKED_MINUS;
            case TIMES -> SqlStdOperatorTable.CHECKED_MULTIPLY;
            case MINUS_PREFIX -> SqlStdOperatorTable.CHECKED_UNARY_MINUS;
            default -> null;
        };
        return checked == null ? c : rexBuilder.makeCall(c.getType(), checked, c.getOperands());
    }

    /** {@code %} and {@code mod}: 42883 for floats, numeric's scale, long arithmetic for integers. */
    private RexNode remainder(RexCall mod, SqlTypeName type) {
        List<RexNode> operands = mod.getOperands();
        if (operands.size() != 2) {
            return mod;
        }
        if (operands.stream().anyMatch(PgArithmetic::isFloat)) {
            String a = pgTypeName(floatOrOwn(operands.get(0)).getType());
            String b = pgTypeName(floatOrOwn(operands.get(1)).getType());
            throw new TributaryException(
                    SqlState.UNDEFINED_FUNCTION,
                    mod.getOperator().getName().equals("%")
                            ? "operator does not exist: " + a + " % " + b
                            : "function mod(" + a + ", " + b + ") does not exist");
        }
        if (type == SqlTypeName.DECIMAL) {
            return withOperands(mod, NUMERIC_REMAINDER, SqlTypeName.DECIMAL);
        }
        if (!INTEGERS.contains(type)
                || !operands.stream()
                        .allMatch(o -> INTEGERS.contains(o.getType().getSqlTypeName()))
                || operands.stream().allMatch(o -> o.getType().getSqlTypeName() == SqlTypeName.BIGINT)) {
            return mod;
        }
        RexNode remainder = rexBuilder.makeCall(
                nullable(SqlTypeName.BIGINT, mod.getType().isNullable()),
                mod.getOperator(),
                operands.stream().map(o -> cast(o, SqlTypeName.BIGINT)).toList());
        return rexBuilder.makeCast(mod.getType(), remainder);
    }

    /**
     * Whether {@code operand} is a float, also when validation cast it to an exact type to fit the
     * other operand ({@code 7 % 2.5::float8} has {@code CAST(2.5::float8 AS DECIMAL)}).
     */
    private static boolean isFloat(RexNode operand) {
        return FLOATS.contains(operand.getType().getSqlTypeName())
                || FLOATS.contains(uncast(operand).getType().getSqlTypeName());
    }

    /** The float a cast converts, for naming the operand's type as written; else {@code node}. */
    private static RexNode floatOrOwn(RexNode node) {
        return FLOATS.contains(uncast(node).getType().getSqlTypeName()) ? uncast(node) : node;
    }

    /** The operand of a cast (the float of a float cast to numeric, {@link PgFloatCalls}), else {@code node}. */
    private static RexNode uncast(RexNode node) {
        return PgFloatCalls.numericOperand(
                node.getKind() == SqlKind.CAST ? ((RexCall) node).getOperands().get(0) : node);
    }

    /** {@code call} as a call of {@code op} of the same type, each operand cast to {@code operandType}. */
    private RexNode withOperands(RexCall call, SqlOperator op, SqlTypeName operandType) {
        return rexBuilder.makeCall(
                call.getType(),
                op,
                call.getOperands().stream().map(o -> cast(o, operandType)).toList());
    }

    /** {@code operand} as {@code type} (DECIMAL: its own type if already one, else wide enough for a bigint). */
    private RexNode cast(RexNode operand, SqlTypeName type) {
        if (operand.getType().getSqlTypeName() == type) {
            return operand;
        }
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        RelDataType target = type == SqlTypeName.DECIMAL
                ? types.createSqlType(SqlTypeName.DECIMAL, 19, 0)
                : types.createSqlType(type);
        return rexBuilder.makeCast(
                types.createTypeWithNullability(target, operand.getType().isNullable()), operand);
    }

    private RelDataType nullable(SqlTypeName type, boolean nullable) {
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        return types.createTypeWithNullability(types.createSqlType(type), nullable);
    }

    /** PostgreSQL's name for an operand's type, for an error message. */
    private static String pgTypeName(RelDataType type) {
        try {
            return TypeMapping.fromRelType(type).kind().pgName();
        } catch (TributaryException notATableType) {
            return type.getSqlTypeName().getName().toLowerCase(Locale.ROOT);
        }
    }

    /** A call of the {@link PgArithmeticFunctions} method {@code method}, typed by the call it replaces. */
    private static SqlOperator function(String method) {
        return function(PgArithmeticFunctions.class, method);
    }

    /**
     * A call of the public static method {@code method} of {@code functions}, named {@code pg_<method>}
     * and typed as its first operand (the call it replaces); shared by this pass's rewrites and {@link PgScalarCalls}'.
     */
    static SqlOperator function(Class<?> functions, String method) {
        return new SqlUserDefinedFunction(
                new SqlIdentifier("pg_" + method, SqlParserPos.ZERO),
                SqlKind.OTHER_FUNCTION,
                ReturnTypes.ARG0,
                null,
                null,
                ScalarFunctionImpl.create(functions, method));
    }
}
