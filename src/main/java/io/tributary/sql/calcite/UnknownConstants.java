package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * PostgreSQL's typing of a string constant (type {@code unknown}) beside a typed operand, where
 * Calcite's implicit coercion differs. PostgreSQL first assumes the constant is of the other
 * operand's type, and reads it with that type's input function: in a comparison {@link
 * ConstructConstants} does that, and {@code numeric_col + '2.25'} adds the number 2.25 as an unconstrained numeric
 * (Calcite cast it to {@code DECIMAL(38, 19)} and printed nineteen decimals). A numeric function
 * given only a constant resolves to its {@code double precision} form, the numeric category's
 * preferred type ({@code abs('-3')} is 3, not {@code 3.0000000000000000000}). Called by {@link
 * PgTypeCoercion} while validating, on the validating thread. Stateless.
 */
final class UnknownConstants {
    /**
     * Functions PostgreSQL declares over {@code double precision} among other numeric types: a
     * string constant argument makes them that form. {@code round} and {@code log} only with one
     * argument (their two-argument forms take numeric; {@code trunc('2.7')} is ambiguous in
     * PostgreSQL, so it is not here).
     */
    private static final Set<String> FLOAT_FUNCTIONS = Set.of(
            "ABS", "CEIL", "CEILING", "FLOOR", "SIGN", "EXP", "LN", "LOG10", "SQRT", "CBRT", "DEGREES", "RADIANS");

    private static final Set<String> ONE_ARGUMENT_FLOAT_FUNCTIONS = Set.of("ROUND", "LOG");

    /**
     * Functions whose numeric parameters PostgreSQL declares integer ({@code lpad(text, integer,
     * text)}): a string constant there becomes an integer, not Calcite's DECIMAL(38, 19), which
     * its implementations of these functions do not take.
     */
    private static final Set<String> INTEGER_ARGUMENTS = Set.of("LPAD", "RPAD", "LEFT", "RIGHT", "REPEAT");

    private static final Set<SqlKind> ARITHMETIC = Set.of(SqlKind.PLUS, SqlKind.MINUS, SqlKind.TIMES, SqlKind.DIVIDE);

    /** The comparison operators, whose string constant operand takes the other operand's type. */
    static final Set<SqlKind> COMPARISONS = Set.of(
            SqlKind.EQUALS,
            SqlKind.NOT_EQUALS,
            SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL,
            SqlKind.GREATER_THAN,
            SqlKind.GREATER_THAN_OR_EQUAL);

    private UnknownConstants() {}

    /** Whether the call is one of two operands of an operator of {@code kinds}. */
    private static boolean binary(SqlCallBinding binding, Set<SqlKind> kinds) {
        return binding.getOperandCount() == 2
                && kinds.contains(binding.getOperator().getKind());
    }

    /**
     * Whether PostgreSQL resolves {@code function}'s string constant arguments, given {@code
     * arguments} in all, to {@code double precision}.
     */
    private static boolean floatFunction(String function, int arguments) {
        String name = function.toUpperCase(Locale.ROOT);
        return FLOAT_FUNCTIONS.contains(name) || (arguments == 1 && ONE_ARGUMENT_FLOAT_FUNCTIONS.contains(name));
    }

    /**
     * The type PostgreSQL resolves a string constant given for a numeric parameter of {@code
     * function}, called with {@code arguments} in all, to: DOUBLE for a {@link #floatFunction},
     * INTEGER for one whose numeric parameters are integers ({@code lpad}); null for another
     * function, whose constants Calcite's coercion types.
     */
    static SqlTypeName numericArgument(String function, int arguments) {
        if (floatFunction(function, arguments)) {
            return SqlTypeName.DOUBLE;
        }
        return INTEGER_ARGUMENTS.contains(function.toUpperCase(Locale.ROOT)) ? SqlTypeName.INTEGER : null;
    }

    /**
     * Replaces a string constant beside an exact numeric of type NUMERIC in {@code + - * /}
     * by the number it reads as, keeping its own digits and scale, as PostgreSQL's unconstrained
     * numeric does.
     *
     * @return whether an operand was replaced
     * @throws TributaryException 22P02 at the constant when it is no number
     */
    static boolean resolveNumeric(SqlCallBinding binding) {
        if (!binary(binding, ARITHMETIC)) {
            return false;
        }
        for (int i = 0; i < 2; i++) {
            RelDataType other = binding.getOperandType(1 - i);
            if (binding.operand(i) instanceof SqlCharStringLiteral text
                    && other.getSqlTypeName() == SqlTypeName.DECIMAL) {
                if (text.getValueAs(String.class).strip().equalsIgnoreCase("NaN")) {
                    return false; // Calcite's number literal has no NaN: its cast stands
                }
                BigDecimal value = (BigDecimal) read(text, DataType.NUMERIC);
                binding.getCall().setOperand(i, number(value, text.getParserPosition()));
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a comparison or {@code + - * /} takes an interval (Calcite's or PostgreSQL's) and a
     * string constant: Calcite accepts that and its generated code then fails, so {@link PgTypeCoercion}
     * refuses it and {@link IntervalOperands} writes the constant as a PostgreSQL interval.
     */
    static boolean intervalBesideConstant(SqlCallBinding binding) {
        if (!binary(binding, COMPARISONS) && !binary(binding, ARITHMETIC)) {
            return false;
        }
        for (int i = 0; i < 2; i++) {
            RelDataType other = binding.getOperandType(1 - i);
            if (binding.operand(i) instanceof SqlCharStringLiteral
                    && (SqlTypeUtil.isInterval(other) || PgIntervals.isInterval(other))) {
                return true;
            }
        }
        return false;
    }

    /**
     * How to rewrite {@code left op right}, a date, time or timestamp and a string constant that
     * validation refused (the types as {@link DateArithmetic#rewrite} reads them off the refusal),
     * as PostgreSQL resolves them: {@code +} adds the constant as an interval (no {@code timestamp
     * + timestamp} exists; for a date, {@code date + integer}, {@code + interval} and {@code + time}
     * all fit, so PostgreSQL finds it ambiguous, 42725), {@code -} reads it as the other operand's
     * own type ({@code ts - '2024-01-01'} is an interval, {@code ts - '1 hour'} 22007). The next
     * preparation then meets a supported pair. Null for other pairs, and the rewrite gives null
     * when the string operand is not a constant.
     */
    static DateArithmetic.Rewrite temporal(String op, String left, String right) {
        boolean leftText = left.equals("CHAR");
        boolean rightText = right.equals("CHAR");
        String moment = leftText ? right : rightText ? left : null;
        if (moment == null || leftText == rightText || !MOMENTS.contains(moment)) {
            return null;
        }
        if (op.equals("+")) {
            if (moment.equals("DATE")) {
                return (a, b, pos) -> {
                    throw PositionedError.at(
                            pos,
                            io.tributary.common.SqlState.AMBIGUOUS_FUNCTION,
                            "operator is not unique: " + (leftText ? "unknown + date" : "date + unknown"),
                            "Could not choose a best candidate operator. You might need to add explicit type casts.");
                };
            }
            boolean timestamptz = moment.startsWith("TIMESTAMP_") || moment.startsWith("TIMESTAMP ");
            return (a, b, pos) -> {
                SqlCharStringLiteral text = constant(leftText ? a : b);
                if (text == null) {
                    return null;
                }
                // a timestamptz takes Calcite's day-time interval (PostgreSQL's has no such sum
                // here yet, and Calcite's month interval added to a timestamptz is wrong): a
                // constant with months stays refused
                read(text, DataType.INTERVAL); // its input error, at the constant
                SqlNode interval = timestamptz
                        ? IntervalOperands.calciteInterval(text, false, pos)
                        : PgIntervals.call("pg_interval", pos, text);
                if (interval == null) {
                    return null;
                }
                return leftText ? plus(interval, b, pos) : plus(a, interval, pos);
            };
        }
        if (op.equals("-")) {
            return (a, b, pos) -> leftText
                    ? constant(a) == null ? null : minus(cast(a, moment, pos), b, pos)
                    : constant(b) == null ? null : minus(a, cast(b, moment, pos), pos);
        }
        return null;
    }

    /** Calcite's date and time types, as its refusals spell them (precision removed). */
    private static final Set<String> MOMENTS =
            Set.of("DATE", "TIME", "TIMESTAMP", "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "TIMESTAMP WITH LOCAL TIME ZONE");

    private static SqlCharStringLiteral constant(SqlNode node) {
        return node instanceof SqlCharStringLiteral text ? text : null;
    }

    private static SqlNode plus(SqlNode a, SqlNode b, SqlParserPos pos) {
        return org.apache.calcite.sql.fun.SqlStdOperatorTable.PLUS.createCall(pos, a, b);
    }

    private static SqlNode minus(SqlNode a, SqlNode b, SqlParserPos pos) {
        return org.apache.calcite.sql.fun.SqlStdOperatorTable.MINUS.createCall(pos, a, b);
    }

    /**
     * {@code CAST(text AS type)}, {@code type} one of {@link #MOMENTS}.
     *
     * @throws TributaryException the type's input error at the constant, which the cast would only
     *     meet when run, without a position
     */
    private static SqlNode cast(SqlNode text, String type, SqlParserPos pos) {
        read(
                (SqlCharStringLiteral) text,
                switch (type) {
                    case "DATE" -> DataType.DATE;
                    case "TIME" -> DataType.TIME;
                    case "TIMESTAMP" -> DataType.TIMESTAMP;
                    default -> DataType.TIMESTAMPTZ;
                });
        SqlTypeName name = switch (type) {
            case "DATE" -> SqlTypeName.DATE;
            case "TIME" -> SqlTypeName.TIME;
            case "TIMESTAMP" -> SqlTypeName.TIMESTAMP;
            default -> SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
        };
        return org.apache.calcite.sql.fun.SqlStdOperatorTable.CAST.createCall(
                pos,
                text,
                new org.apache.calcite.sql.SqlDataTypeSpec(
                        new org.apache.calcite.sql.SqlBasicTypeNameSpec(name, pos), pos));
    }

    private static Object read(SqlCharStringLiteral text, DataType type) {
        try {
            return PgTextFormat.parse(type, text.getValueAs(String.class));
        } catch (TributaryException e) {
            throw PositionedError.at(text, e.sqlState(), e.getMessage());
        }
    }

    private static SqlNode number(BigDecimal value, SqlParserPos pos) {
        SqlNumericLiteral magnitude = SqlLiteral.createExactNumeric(value.abs().toPlainString(), pos);
        return value.signum() < 0 ? SqlLiteral.createNegative(magnitude, pos) : magnitude;
    }
}
