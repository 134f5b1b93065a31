package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
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

    /** {@code ts ± months(iv) MONTH ± dayMillis(iv) MILLISECOND}: months first, as PostgreSQL adds. */
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
        return sign.createCall(pos, sign.createCall(pos, ts, months), millis);
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

    private static SqlNode again(String op, SqlParserPos pos, SqlNode a, SqlNode b) {
        SqlOperator operator = switch (op) {
            case "+" -> SqlStdOperatorTable.PLUS;
            case "-" -> SqlStdOperatorTable.MINUS;
            case "=" -> SqlStdOperatorTable.EQUALS;
            case "<>" -> SqlStdOperatorTable.NOT_EQUALS;
            case "<" -> SqlStdOperatorTable.LESS_THAN;
            case "<=" -> SqlStdOperatorTable.LESS_THAN_OR_EQUAL;
            case ">" -> SqlStdOperatorTable.GREATER_THAN;
            default -> SqlStdOperatorTable.GREATER_THAN_OR_EQUAL;
        };
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
        return SqlStdOperatorTable.CAST.createCall(
                pos, node, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DOUBLE, pos), pos));
    }

    private static SqlNode call(String name, SqlParserPos pos, SqlNode... operands) {
        return PgIntervals.call(name, pos, operands);
    }
}
