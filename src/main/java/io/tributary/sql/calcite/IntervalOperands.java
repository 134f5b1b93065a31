package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The operators of PostgreSQL's interval ({@link PgIntervals}) that validation refuses, as calls
 * of {@link PgIntervalFunctions}: {@code timestamp ± interval} and {@code date ± interval} (a
 * timestamp: the months first, clamped to the month's last day, then days and time, as PostgreSQL
 * adds them), {@code time ± interval} (its time only, wrapping at midnight, as PostgreSQL),
 * {@code interval ± interval}, {@code interval * number}, {@code interval / number},
 * an interval compared with or added to an interval or string constant (which becomes a
 * PostgreSQL interval), and a month constant added to or subtracted from a day-time one. Called by {@link DateArithmetic#rewrite} with the type names of Calcite's
 * refusal, precision removed. Stateless.
 */
final class IntervalOperands {
    private static final Set<String> COMPARISONS = Set.of("=", "<>", "<", "<=", ">", ">=");
    private static final Set<String> NUMBERS =
            Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DECIMAL", "REAL", "FLOAT", "DOUBLE");

    private IntervalOperands() {}

    /**
     * How to rewrite {@code left op right}, or null when neither is a PostgreSQL interval nor the
     * two are Calcite intervals of different kinds.
     */
    static DateArithmetic.Rewrite rewrite(String op, String left, String right) {
        boolean l = isPg(left);
        boolean r = isPg(right);
        boolean additive = op.equals("+") || op.equals("-");
        if (!l && !r) {
            if (left.equals("CHAR") != right.equals("CHAR")
                    && (left.equals("CHAR") ? right : left).startsWith("INTERVAL")) {
                return besideConstant(op, left.equals("CHAR"), isMonths(left.equals("CHAR") ? right : left));
            }
            // INTERVAL '1 mon' - INTERVAL '1 day': no Calcite interval holds both, PostgreSQL's does
            return additive && left.startsWith("INTERVAL") && right.startsWith("INTERVAL")
                    ? (a, b, pos) -> again(op, pos, asPg(a, pos), asPg(b, pos))
                    : null;
        }
        if (additive && r && left.equals("TIME")) {
            return (a, b, pos) -> timeShift(a, b, op.equals("-"), pos);
        }
        if (op.equals("+") && l && right.equals("TIME")) {
            return (a, b, pos) -> timeShift(b, a, false, pos);
        }
        if (additive && r && isMoment(left)) {
            return (a, b, pos) -> shift(moment(a, left, pos), b, op.equals("-"), pos);
        }
        if (op.equals("+") && l && isMoment(right)) {
            return (a, b, pos) -> shift(moment(b, right, pos), a, false, pos);
        }
        if (additive && l && r) {
            return (a, b, pos) -> call(op.equals("+") ? "pg_interval_add" : "pg_interval_sub", pos, a, b);
        }
        if (additive || COMPARISONS.contains(op)) {
            if (l && constant(right)) {
                return (a, b, pos) -> again(op, pos, a, asPg(b, pos));
            }
            if (r && constant(left)) {
                return (a, b, pos) -> again(op, pos, asPg(a, pos), b);
            }
        }
        if ((op.equals("*") || op.equals("/")) && l && right.equals("CHAR")) {
            // PostgreSQL reads the constant as the factor's double precision
            return (a, b, pos) -> b instanceof SqlCharStringLiteral
                    ? call(op.equals("*") ? "pg_interval_mul" : "pg_interval_div", pos, a, asDouble(b, pos))
                    : null;
        }
        if (op.equals("*") && r && left.equals("CHAR")) {
            return (a, b, pos) ->
                    a instanceof SqlCharStringLiteral ? call("pg_interval_mul", pos, b, asDouble(a, pos)) : null;
        }
        if (op.equals("*") && l && NUMBERS.contains(right)) {
            return (a, b, pos) -> call("pg_interval_mul", pos, a, asDouble(b, pos));
        }
        if (op.equals("*") && r && NUMBERS.contains(left)) {
            return (a, b, pos) -> call("pg_interval_mul", pos, b, asDouble(a, pos));
        }
        if (op.equals("/") && l && NUMBERS.contains(right)) {
            return (a, b, pos) -> call("pg_interval_div", pos, a, asDouble(b, pos));
        }
        return (a, b, pos) -> {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "operator " + op + " on " + name(left) + " and " + name(right) + " is not supported yet");
        };
    }

    /**
     * A Calcite interval beside a string constant (the left operand when {@code textLeft} is
     * false), as PostgreSQL reads it: an interval ({@code iv > '1 hour'}, {@code iv + '1 day'}),
     * or the factor's double precision ({@code iv * '2'}, a constant interval only). Beside a constant interval both become
     * PostgreSQL intervals, whose arithmetic and order are PostgreSQL's; beside a computed one
     * ({@code now() - ts > '1 hour'}) the constant becomes Calcite's interval of the same kind when
     * it has one (no months with days or time, no microseconds), so Calcite compares or adds them.
     * The rewrite gives null when the string operand is not a constant.
     */
    private static DateArithmetic.Rewrite besideConstant(String op, boolean textLeft, boolean months) {
        return (a, b, pos) -> {
            SqlNode textNode = textLeft ? a : b;
            SqlNode interval = textLeft ? b : a;
            if (!(textNode instanceof SqlCharStringLiteral text)) {
                return null;
            }
            if (op.equals("*") || op.equals("/")) {
                if (op.equals("/") && textLeft) {
                    return null; // no unknown / interval in PostgreSQL either
                }
                return call(
                        op.equals("*") ? "pg_interval_mul" : "pg_interval_div",
                        pos,
                        asPg(interval, pos),
                        asDouble(text, pos));
            }
            if (!op.equals("+") && !op.equals("-") && !COMPARISONS.contains(op)) {
                return null;
            }
            if (interval instanceof SqlIntervalLiteral) {
                return again(op, pos, asPg(a, pos), asPg(b, pos));
            }
            SqlNode constant = calciteInterval(text, months, pos);
            if (constant == null) {
                return again(op, pos, asPg(a, pos), asPg(b, pos));
            }
            SqlOperator operator = operator(op);
            return textLeft
                    ? operator.createCall(pos, constant, interval)
                    : operator.createCall(pos, interval, constant);
        };
    }

    /**
     * PostgreSQL's interval {@code text} as Calcite's literal of the year-month kind ({@code
     * months}) or the day-time kind, or null when Calcite's has no such value.
     *
     * @throws TributaryException 22007 when the text is no interval
     */
    static SqlNode calciteInterval(SqlCharStringLiteral text, boolean months, SqlParserPos pos) {
        io.tributary.common.types.Interval iv;
        try {
            iv = (io.tributary.common.types.Interval) io.tributary.common.types.PgTextFormat.parse(
                    io.tributary.common.types.DataType.INTERVAL, text.getValueAs(String.class));
        } catch (TributaryException e) {
            throw PositionedError.at(text, e.sqlState(), e.getMessage());
        }
        if (months) {
            if (iv.days() != 0 || iv.micros() != 0) {
                return null;
            }
            int sign = iv.months() < 0 ? -1 : 1;
            return SqlLiteral.createInterval(
                    sign,
                    Integer.toString(Math.abs(iv.months())),
                    new SqlIntervalQualifier(TimeUnit.MONTH, 9, null, -1, pos),
                    pos);
        }
        if (iv.months() != 0 || iv.micros() % 1000 != 0) {
            return null;
        }
        long millis = Math.addExact(Math.multiplyExact(iv.days(), 86_400_000L), iv.micros() / 1000);
        int sign = millis < 0 ? -1 : 1;
        long m = Math.abs(millis);
        String value = (m / 86_400_000L) + " " + (m / 3_600_000L % 24) + ":" + (m / 60_000L % 60) + ":"
                + (m / 1000 % 60) + "." + String.format(Locale.ROOT, "%03d", m % 1000);
        return SqlLiteral.createInterval(
                sign, value, new SqlIntervalQualifier(TimeUnit.DAY, 9, TimeUnit.SECOND, 3, pos), pos);
    }

    /** Calcite's year-month interval type, as its refusals spell it. */
    private static boolean isMonths(String type) {
        return type.startsWith("INTERVAL YEAR") || type.startsWith("INTERVAL MONTH");
    }

    /** Whether Calcite's type name {@code type} is {@link PgIntervals}'s type. */
    private static boolean isPg(String type) {
        return type.equals("OTHER");
    }

    private static boolean isMoment(String type) {
        return type.equals("TIMESTAMP") || type.equals("DATE");
    }

    /** Calcite's own interval types, or a string: the forms {@link #asPg} converts when constant. */
    private static boolean constant(String type) {
        return type.startsWith("INTERVAL") || type.equals("CHAR") || type.equals("VARCHAR");
    }

    private static String name(String type) {
        return isPg(type) ? "interval" : type.toLowerCase(Locale.ROOT);
    }

    /** A date as a timestamp, which PostgreSQL makes of {@code date ± interval}. */
    private static SqlNode moment(SqlNode node, String type, SqlParserPos pos) {
        return type.equals("DATE")
                ? SqlStdOperatorTable.CAST.createCall(
                        pos, node, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, 3, pos), pos))
                : node;
    }

    /**
     * {@code ts ± months(iv) MONTH ± dayMillis(iv) MILLISECOND}, then the microseconds below the
     * millisecond: months first, as PostgreSQL adds.
     */
    private static SqlNode shift(SqlNode ts, SqlNode iv, boolean minus, SqlParserPos pos) {
        SqlOperator sign = minus ? SqlStdOperatorTable.MINUS : SqlStdOperatorTable.PLUS;
        SqlNode months = SqlStdOperatorTable.MULTIPLY.createCall(
                pos,
                call("pg_interval_months", pos, iv),
                SqlLiteral.createInterval(1, "1", new SqlIntervalQualifier(TimeUnit.MONTH, null, pos), pos));
        SqlNode millis = SqlStdOperatorTable.MULTIPLY.createCall(
                pos,
                call("pg_interval_day_millis", pos, iv),
                SqlLiteral.createInterval(1, "0.001", new SqlIntervalQualifier(TimeUnit.SECOND, 1, null, 3, pos), pos));
        SqlNode shifted = sign.createCall(pos, sign.createCall(pos, ts, months), millis);
        return call("pg_timestamp_shift_micros", pos, shifted, iv, SqlLiteral.createBoolean(minus, pos));
    }

    /** {@code t ± time(iv) MILLISECOND}: PostgreSQL adds only the interval's time to a time, wrapping at midnight. */
    private static SqlNode timeShift(SqlNode t, SqlNode iv, boolean minus, SqlParserPos pos) {
        SqlOperator sign = minus ? SqlStdOperatorTable.MINUS : SqlStdOperatorTable.PLUS;
        SqlNode millis = SqlStdOperatorTable.MULTIPLY.createCall(
                pos,
                call("pg_interval_time_millis", pos, iv),
                SqlLiteral.createInterval(1, "0.001", new SqlIntervalQualifier(TimeUnit.SECOND, 1, null, 3, pos), pos));
        return sign.createCall(pos, t, millis);
    }

    /** Calcite's operator for a refusal's {@code op}: {@code +}, {@code -} or a comparison. */
    private static SqlOperator operator(String op) {
        return switch (op) {
            case "+" -> SqlStdOperatorTable.PLUS;
            case "-" -> SqlStdOperatorTable.MINUS;
            case "=" -> SqlStdOperatorTable.EQUALS;
            case "<>" -> SqlStdOperatorTable.NOT_EQUALS;
            case "<" -> SqlStdOperatorTable.LESS_THAN;
            case "<=" -> SqlStdOperatorTable.LESS_THAN_OR_EQUAL;
            case ">" -> SqlStdOperatorTable.GREATER_THAN;
            default -> SqlStdOperatorTable.GREATER_THAN_OR_EQUAL;
        };
    }

    private static SqlNode again(String op, SqlParserPos pos, SqlNode a, SqlNode b) {
        SqlOperator operator = operator(op);
        if (op.equals("+") || op.equals("-")) {
            return call(op.equals("+") ? "pg_interval_add" : "pg_interval_sub", pos, a, b);
        }
        // Calcite's generated code compares a constant interval by a method it lacks
        return operator.createCall(pos, call("pg_interval_cmp", pos, a, b), SqlLiteral.createExactNumeric("0", pos));
    }

    /**
     * A constant interval or string as a PostgreSQL interval.
     *
     * @throws TributaryException 0A000 for a computed Calcite interval, which has no such form yet
     */
    private static SqlNode asPg(SqlNode node, SqlParserPos pos) {
        if (node instanceof SqlCharStringLiteral text) {
            ConstructConstants.parse(text, DataType.INTERVAL); // its input error, at the constant
            return call("pg_interval", pos, text);
        }
        if (node instanceof SqlIntervalLiteral lit) {
            return PgIntervals.literal(lit);
        }
        throw new TributaryException(
                SqlState.FEATURE_NOT_SUPPORTED,
                "an interval column combined with a computed interval of another kind is not supported yet");
    }

    private static SqlNode asDouble(SqlNode node, SqlParserPos pos) {
        if (node instanceof SqlCharStringLiteral text) {
            ConstructConstants.parse(text, DataType.DOUBLE); // its input error, at the constant
        }
        return SqlStdOperatorTable.CAST.createCall(
                pos, node, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DOUBLE, pos), pos));
    }

    private static SqlNode call(String name, SqlParserPos pos, SqlNode... operands) {
        return PgIntervals.call(name, pos, operands);
    }
}
