package io.tributary.sql.calcite;

import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Calls over PostgreSQL's interval ({@link PgIntervals}) that validation refuses because their
 * argument is opaque to Calcite: {@code extract(field FROM iv)} and {@code date_part('field', iv)}
 * become {@link PgIntervalFunctions#pg_interval_extract} and {@code pg_interval_date_part}, and
 * {@code sum(iv)} and {@code avg(iv)} the aggregates of {@link PgIntervalAggregates}. Used by
 * {@link DateArithmetic#rewrite} on the refusal's message; stateless.
 */
final class IntervalCalls {
    private static final Pattern REFUSED =
            Pattern.compile("Cannot apply '(EXTRACT|DATE_PART|SUM|AVG)' to arguments of type '[^']*<OTHER>");

    private IntervalCalls() {}

    /**
     * The name of the refused call and how to rewrite it, or null when {@code message} is no
     * such refusal. The rewrite gives null for a call of another form, which is left alone.
     */
    static Refusal refusal(String message) {
        Matcher m = REFUSED.matcher(message);
        if (!m.find()) {
            return null;
        }
        String name = m.group(1);
        return new Refusal(
                name,
                switch (name) {
                    case "EXTRACT" -> IntervalCalls::extract;
                    case "DATE_PART" -> IntervalCalls::datePart;
                    case "SUM" -> call -> aggregate("pg_interval_sum", call);
                    default -> call -> aggregate("pg_interval_avg", call);
                });
    }

    /**
     * A refused call's operator name and its rewrite, which applies as well to every call of that
     * name whose last operand is the same expression (of the same type, so refused alike).
     */
    record Refusal(String name, Function<SqlCall, SqlNode> rewrite) {}

    /** The PostgreSQL name of one of these aggregates, for errors that name the function. */
    static String pgName(String function) {
        String name = function.toLowerCase(Locale.ROOT);
        return switch (name) {
            case "pg_interval_sum" -> "sum(interval)";
            case "pg_interval_avg" -> "avg(interval)";
            case "pg_interval_min" -> "min(interval)";
            case "pg_interval_max" -> "max(interval)";
            case "pg_percentile_cont" -> "percentile_cont";
            case PgOrderedSets.PERCENTILE_DISC -> "percentile_disc";
            case PgOrderedSets.MODE -> "mode";
            case PgArrayAgg.NAME -> "array_agg";
            // RegressionCalls' pg_corr and kin are PostgreSQL's corr and so on
            default ->
                name.startsWith(RegressionCalls.PREFIX)
                                && PgRegressionAggregates.BY_NAME.containsKey(
                                        name.substring(RegressionCalls.PREFIX.length()))
                        ? name.substring(RegressionCalls.PREFIX.length())
                        : name;
        };
    }

    private static SqlNode extract(SqlCall call) {
        return call.operandCount() == 2 ? extract(call, call.operand(1)) : null;
    }

    /** {@code extract(field FROM interval)} of call {@code call} as our function over {@code interval}. */
    static SqlNode extract(SqlCall call, SqlNode interval) {
        if (!(call.operand(0) instanceof SqlIntervalQualifier q)) {
            return null;
        }
        SqlParserPos pos = call.getParserPosition();
        String field =
                q.timeFrameName != null ? q.timeFrameName : q.getStartUnit().name();
        return PgIntervals.call(
                "pg_interval_extract", pos, SqlLiteral.createCharString(field.toLowerCase(Locale.ROOT), pos), interval);
    }

    private static SqlNode datePart(SqlCall call) {
        return call.operandCount() == 2 ? datePart(call, call.operand(1)) : null;
    }

    /** {@code date_part('field', interval)} of call {@code call} as our function over {@code interval}. */
    static SqlNode datePart(SqlCall call, SqlNode interval) {
        SqlNode field = call.operand(0);
        if (field instanceof SqlIntervalQualifier q) {
            String name =
                    q.timeFrameName != null ? q.timeFrameName : q.getStartUnit().name();
            field = SqlLiteral.createCharString(name.toLowerCase(Locale.ROOT), q.getParserPosition());
        }
        return PgIntervals.call("pg_interval_date_part", call.getParserPosition(), field, interval);
    }

    private static SqlNode aggregate(String name, SqlCall call) {
        if (call.operandCount() != 1) {
            return null;
        }
        SqlParserPos pos = call.getParserPosition();
        SqlNode argument = call.operand(0);
        return new SqlUnresolvedFunction(
                        new SqlIdentifier(name, pos), null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION)
                .createCall(call.getFunctionQuantifier(), pos, argument);
    }
}
