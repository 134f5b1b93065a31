package io.tributary.sql.calcite;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * PostgreSQL's date arithmetic where Calcite has none: {@code date ± integer} is a date that many
 * days away, {@code date - date} the integer number of days between them, and
 * {@code timestamp - timestamp} and {@code timestamptz - timestamptz} PostgreSQL's interval ({@link
 * PgIntervalFunctions#pg_timestamp_diff}), {@code date + time} a timestamp, {@code time - time}
 * an interval, and {@code time ± months} the time itself (PostgreSQL adds only an interval's time
 * to a time). Only validation knows the operands' types, so this
 * works from Calcite's refusal: when validating a query fails because {@code +} or {@code -}
 * cannot take those types, {@link #rewrite} rewrites the call at the error's position into
 * Calcite's spelling ({@code d + n * INTERVAL '1' DAY}, {@code CAST((a - b) DAY AS INTEGER)},
 * {@code (a - b) DAY TO SECOND}) and the query is prepared again. Refusals over PostgreSQL's
 * interval are rewritten likewise: operators by {@link IntervalOperands}, functions and
 * aggregates by {@link IntervalCalls}. Stateless.
 */
final class DateArithmetic {
    private static final Pattern CANNOT_APPLY =
            Pattern.compile("Cannot apply '([^']+)' to arguments of type '<([^>]+)> \\S+ <([^>]+)>'");
    /** A type's precision or qualifier digits: the {@code (3)} of {@code TIMESTAMP(3)}. */
    private static final Pattern PRECISION = Pattern.compile("\\(\\d+(?:, *\\d+)?\\)");
    /** How many calls one statement may have rewritten, one per failed preparation. */
    static final int MAX_REWRITES = 8;

    private DateArithmetic() {}

    /**
     * The query text with the date arithmetic that made {@code error} fail rewritten, or null when
     * the error is not such a refusal.
     */
    static String rewrite(String text, Throwable error) {
        CalciteContextException context = null;
        for (Throwable t = error; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof CalciteContextException ce) {
                context = ce;
                break;
            }
        }
        if (context == null) {
            return null;
        }
        String message = context.getCause() != null ? context.getCause().getMessage() : context.getMessage();
        Matcher m = CANNOT_APPLY.matcher(String.valueOf(message));
        String op;
        java.util.function.Function<SqlCall, SqlNode> replace;
        boolean alikeToo;
        if (m.find()) {
            op = m.group(1);
            String left = PRECISION.matcher(m.group(2)).replaceAll("");
            String right = PRECISION.matcher(m.group(3)).replaceAll("");
            Kind dates = kind(op, left, right);
            Rewrite interval = dates != null ? dates : IntervalOperands.rewrite(op, left, right);
            Rewrite temporal = interval != null ? interval : UnknownConstants.temporal(op, left, right);
            Rewrite arrays = temporal != null ? temporal : ArrayFunctions.concatenation(op, left, right);
            Rewrite kind = arrays != null ? arrays : JsonbOperands.rewrite(op, left, right);
            if (kind == null) {
                return null;
            }
            replace = call -> call.operandCount() == 2
                    ? kind.rewrite(call.operand(0), call.operand(1), call.getParserPosition())
                    : null;
            // an operator's types depend on both operands: only the refused call is known
            alikeToo = false;
        } else {
            IntervalCalls.Refusal refusal = IntervalCalls.refusal(String.valueOf(message));
            if (refusal == null) {
                return null;
            }
            op = refusal.name();
            replace = refusal.rewrite();
            alikeToo = true;
        }
        SqlNode parsed;
        try {
            // as validation saw it: a BETWEEN with a string constant bound is its two comparisons
            parsed = ConstructConstants.betweensAsComparisons(
                    SqlParser.create(text, CalciteSettings.PARSER).parseStmt());
        } catch (SqlParseException e) {
            return null;
        }
        int line = context.getPosLine();
        int column = context.getPosColumn();
        SqlCall[] target = {null};
        parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlParserPos pos = call.getParserPosition();
                if (target[0] == null
                        && call.getOperator().getName().equalsIgnoreCase(op)
                        && pos.getLineNum() == line
                        && pos.getColumnNum() == column
                        && replace.apply(call) != null) {
                    target[0] = call;
                }
                return super.visit(call);
            }
        });
        if (target[0] == null) {
            return null;
        }
        boolean[] done = {false};
        SqlNode rewritten = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                // a function's alike calls go at once: each would otherwise take a preparation
                boolean alike = call == target[0]
                        || (alikeToo
                                && call.getOperator().getName().equalsIgnoreCase(op)
                                && call.operandCount() == target[0].operandCount()
                                && last(call) != null
                                && last(call).equalsDeep(last(target[0]), org.apache.calcite.util.Litmus.IGNORE));
                SqlNode replaced = alike ? replace.apply(call) : null;
                if (replaced != null) {
                    done[0] = true;
                    return replaced;
                }
                return super.visit(call);
            }
        });
        return done[0] ? CalciteFrontend.unparse(rewritten) : null;
    }

    private static SqlNode last(SqlCall call) {
        return call.getOperandList().get(call.operandCount() - 1);
    }

    /** Rewrites a call of two operands that validation refused into one it accepts. */
    interface Rewrite {
        /**
         * @throws io.tributary.common.TributaryException 0A000 when the operands' form is recognised
         *     but not supported
         */
        SqlNode rewrite(SqlNode a, SqlNode b, SqlParserPos pos);
    }

    private static Kind kind(String op, String left, String right) {
        if (!op.equals("+") && !op.equals("-")) {
            return null;
        }
        boolean leftInt = isInteger(left);
        boolean rightInt = isInteger(right);
        if (left.equals("DATE") && rightInt) {
            return op.equals("+") ? Kind.DATE_PLUS_DAYS : Kind.DATE_MINUS_DAYS;
        }
        if (leftInt && right.equals("DATE") && op.equals("+")) {
            return Kind.DAYS_PLUS_DATE;
        }
        if (op.equals("-") && left.equals("DATE") && right.equals("DATE")) {
            return Kind.DATE_MINUS_DATE;
        }
        if (op.equals("-") && isTimestamptz(left) && isTimestamptz(right)) {
            // instants: their distance, whatever zone the session shows them in
            return Kind.TIMESTAMPTZ_MINUS_TIMESTAMPTZ;
        }
        if (op.equals("-") && left.equals("TIMESTAMP") && right.equals("TIMESTAMP")) {
            return Kind.TIMESTAMP_MINUS_TIMESTAMP;
        }
        // PostgreSQL converts the timestamp to timestamptz in the session's zone
        if (op.equals("-") && isTimestamptz(left) && right.equals("TIMESTAMP")) {
            return Kind.TIMESTAMPTZ_MINUS_TIMESTAMP;
        }
        if (op.equals("-") && left.equals("TIMESTAMP") && isTimestamptz(right)) {
            return Kind.TIMESTAMP_MINUS_TIMESTAMPTZ;
        }
        if (op.equals("+") && left.equals("DATE") && right.equals("TIME")) {
            return Kind.DATE_PLUS_TIME;
        }
        if (op.equals("+") && left.equals("TIME") && right.equals("DATE")) {
            return Kind.TIME_PLUS_DATE;
        }
        if (op.equals("-") && left.equals("TIME") && right.equals("TIME")) {
            return Kind.TIME_MINUS_TIME;
        }
        if (left.equals("TIME") && isMonths(right)) {
            return Kind.TIME_PLUS_MONTHS;
        }
        if (op.equals("+") && isMonths(left) && right.equals("TIME")) {
            return Kind.MONTHS_PLUS_TIME;
        }
        return null;
    }

    /** Calcite's year-month interval: {@code INTERVAL MONTH}, {@code INTERVAL YEAR TO MONTH}. */
    private static boolean isMonths(String type) {
        return type.startsWith("INTERVAL YEAR") || type.startsWith("INTERVAL MONTH");
    }

    /** Calcite's timestamptz, as its messages spell the type. */
    private static boolean isTimestamptz(String type) {
        return type.equals("TIMESTAMP_WITH_LOCAL_TIME_ZONE") || type.equals("TIMESTAMP WITH LOCAL TIME ZONE");
    }

    private static boolean isInteger(String type) {
        return type.equals("INTEGER") || type.equals("SMALLINT") || type.equals("BIGINT") || type.equals("TINYINT");
    }

    private enum Kind implements Rewrite {
        DATE_PLUS_DAYS,
        DATE_MINUS_DAYS,
        DAYS_PLUS_DATE,
        DATE_MINUS_DATE,
        /** {@code timestamp - timestamp}: PostgreSQL's interval of days and time, to the microsecond. */
        TIMESTAMP_MINUS_TIMESTAMP,
        /** {@code timestamptz - timestamptz}: the distance of the instants, as {@code timestamp - timestamp} of their UTC times. */
        TIMESTAMPTZ_MINUS_TIMESTAMPTZ,
        /** {@code timestamptz - timestamp}: the timestamp as the instant it is in the session's zone. */
        TIMESTAMPTZ_MINUS_TIMESTAMP,
        TIMESTAMP_MINUS_TIMESTAMPTZ,
        /** {@code date + time}: the timestamp of that day at that time. */
        DATE_PLUS_TIME,
        TIME_PLUS_DATE,
        /** {@code time - time}: an interval of hours, minutes and seconds, negative when the first is earlier. */
        TIME_MINUS_TIME,
        /** {@code time ± months}: the time itself; PostgreSQL adds only an interval's time to a time. */
        TIME_PLUS_MONTHS,
        MONTHS_PLUS_TIME;

        @Override
        public SqlNode rewrite(SqlNode a, SqlNode b, SqlParserPos pos) {
            return switch (this) {
                case DATE_PLUS_DAYS -> SqlStdOperatorTable.PLUS.createCall(pos, a, days(b, pos));
                case DATE_MINUS_DAYS -> SqlStdOperatorTable.MINUS.createCall(pos, a, days(b, pos));
                case DAYS_PLUS_DATE -> SqlStdOperatorTable.PLUS.createCall(pos, b, days(a, pos));
                case DATE_MINUS_DATE ->
                    SqlStdOperatorTable.CAST.createCall(
                            pos,
                            SqlStdOperatorTable.MINUS_DATE.createCall(
                                    pos, a, b, new SqlIntervalQualifier(TimeUnit.DAY, null, pos)),
                            new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.INTEGER, pos), pos));
                case TIMESTAMP_MINUS_TIMESTAMP -> PgIntervals.call("pg_timestamp_diff", pos, a, b);
                case TIMESTAMPTZ_MINUS_TIMESTAMPTZ ->
                    TIMESTAMP_MINUS_TIMESTAMP.rewrite(utcTime(a, pos), utcTime(b, pos), pos);
                case TIMESTAMPTZ_MINUS_TIMESTAMP -> TIMESTAMPTZ_MINUS_TIMESTAMPTZ.rewrite(a, instant(b, pos), pos);
                case TIMESTAMP_MINUS_TIMESTAMPTZ -> TIMESTAMPTZ_MINUS_TIMESTAMPTZ.rewrite(instant(a, pos), b, pos);
                case DATE_PLUS_TIME ->
                    SqlStdOperatorTable.PLUS.createCall(pos, timestamp(a, pos), sinceMidnight(b, pos));
                case TIME_PLUS_DATE ->
                    SqlStdOperatorTable.PLUS.createCall(pos, timestamp(b, pos), sinceMidnight(a, pos));
                case TIME_MINUS_TIME ->
                    SqlStdOperatorTable.MINUS_DATE.createCall(
                            pos, a, b, new SqlIntervalQualifier(TimeUnit.HOUR, 9, TimeUnit.SECOND, 3, pos));
                case TIME_PLUS_MONTHS -> a;
                case MONTHS_PLUS_TIME -> b;
            };
        }

        /**
         * A timestamp as a timestamptz: the instant it names in the session's zone, as {@link
         * ZonedTimestamps} plans the cast.
         */
        private static SqlNode instant(SqlNode timestamp, SqlParserPos pos) {
            return SqlStdOperatorTable.CAST.createCall(
                    pos,
                    timestamp,
                    new SqlDataTypeSpec(
                            new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6, pos), pos));
        }

        /**
         * A timestamptz as its local time in UTC ({@code AT TIME ZONE 'UTC'}): the instant's own
         * microseconds, whatever zone the session shows it in.
         */
        private static SqlNode utcTime(SqlNode timestamptz, SqlParserPos pos) {
            return PgIntervals.call(AtTimeZoneCalls.LOCAL, pos, SqlLiteral.createCharString("UTC", pos), timestamptz);
        }

        /** A date as the timestamp of its midnight. */
        private static SqlNode timestamp(SqlNode date, SqlParserPos pos) {
            return SqlStdOperatorTable.CAST.createCall(
                    pos, date, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, 3, pos), pos));
        }

        /** {@code (t - TIME '00:00:00') HOUR TO SECOND}: a time as the interval since midnight. */
        private static SqlNode sinceMidnight(SqlNode time, SqlParserPos pos) {
            return SqlStdOperatorTable.MINUS_DATE.createCall(
                    pos,
                    time,
                    SqlLiteral.createTime(new org.apache.calcite.util.TimeString(0, 0, 0), 0, pos),
                    new SqlIntervalQualifier(TimeUnit.HOUR, 9, TimeUnit.SECOND, 3, pos));
        }

        /** {@code n * INTERVAL '1' DAY}. */
        private static SqlNode days(SqlNode n, SqlParserPos pos) {
            return SqlStdOperatorTable.MULTIPLY.createCall(
                    pos, n, SqlLiteral.createInterval(1, "1", new SqlIntervalQualifier(TimeUnit.DAY, null, pos), pos));
        }
    }
}
