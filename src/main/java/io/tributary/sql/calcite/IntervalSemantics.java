package io.tributary.sql.calcite;

import java.util.Locale;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Gives interval constants PostgreSQL's meaning where Calcite's differs. A date constant plus or
 * minus an interval constant is a timestamp, as in PostgreSQL (Calcite: a date). A comparison of a
 * month interval constant with a day-time value compares as if a month were 30 days, as PostgreSQL
 * compares intervals (Calcite refuses to compare the two kinds): {@code INTERVAL '1 mon' =
 * INTERVAL '30 days'} is true. The sum or difference of two interval constants is PostgreSQL's,
 * a call of {@code pg_interval_add} or {@code pg_interval_sub} ({@code INTERVAL '1 day' - INTERVAL
 * '1 hour'} is {@code 1 day -01:00:00}). {@code justify_days}, {@code justify_hours} and
 * {@code justify_interval} of a constant take PostgreSQL's interval; so do {@code extract} and
 * {@code date_part} of one, and {@code make_interval} becomes {@code pg_make_interval} with every
 * argument given ({@link MakeInterval}); {@code age} becomes {@code pg_age} ({@link PgAge}). Applied by {@link StatementRewrite#applyAll} before validation; stateless
 * apart from the changed flag.
 */
final class IntervalSemantics extends StatementRewrite {
    private static final long DAYS_PER_MONTH = 30;

    @Override
    public SqlNode visit(SqlCall call) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (name.startsWith("justify_")
                && call.operandCount() == 1
                && call.operand(0) instanceof SqlIntervalLiteral lit) {
            // the function takes PostgreSQL's interval (PgIntervalFunctions), which a constant must become
            return rewritten(call.getOperator().createCall(call.getParserPosition(), PgIntervals.literal(lit)));
        }
        if ((name.equals("extract") || name.equals("date_part"))
                && call.operandCount() == 2
                && call.operand(1) instanceof SqlIntervalLiteral lit) {
            // Calcite's extract cannot read every interval constant (months: an internal error)
            SqlNode pg = PgIntervals.literal(lit);
            SqlNode replaced =
                    name.equals("extract") ? IntervalCalls.extract(call, pg) : IntervalCalls.datePart(call, pg);
            if (replaced != null) {
                return rewritten(replaced);
            }
        }
        if (name.equals("age") && (call.operandCount() == 1 || call.operandCount() == 2)) {
            // Calcite's own age answers text; PostgreSQL's is an interval (PgAge)
            SqlCall visited = super.visit(call) instanceof SqlCall c ? c : call;
            return rewritten(PgIntervals.call(
                    "pg_age", call.getParserPosition(), visited.getOperandList().toArray(new SqlNode[0])));
        }
        if (name.equals("make_interval")) {
            return rewritten(MakeInterval.positional(super.visit(call) instanceof SqlCall c ? c : call));
        }
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall c) || c.operandCount() != 2) {
            return visited;
        }
        SqlParserPos pos = c.getParserPosition();
        SqlNode a = c.operand(0);
        SqlNode b = c.operand(1);
        if (c.getKind() == SqlKind.PLUS || c.getKind() == SqlKind.MINUS) {
            if (isDate(a) && b instanceof SqlIntervalLiteral) {
                return rewritten(c.getOperator().createCall(pos, timestamp(a, pos), b));
            }
            if (c.getKind() == SqlKind.PLUS && a instanceof SqlIntervalLiteral && isDate(b)) {
                return rewritten(c.getOperator().createCall(pos, a, timestamp(b, pos)));
            }
            if ((a instanceof SqlIntervalLiteral || isPgConstant(a))
                    && (b instanceof SqlIntervalLiteral || isPgConstant(b))) {
                // Calcite would fold the two into one length of time: 1 day - 1 hour is 23:00:00 there,
                // 1 day -01:00:00 in PostgreSQL, which sums months, days and time apart. The call is
                // made here, not left to validation's refusal of + on two PostgreSQL intervals: a
                // view's planner rewrites a refused call in its query's text, where the operands
                // are still Calcite's constants (CalciteViewPlanner)
                String function = c.getKind() == SqlKind.PLUS ? "pg_interval_add" : "pg_interval_sub";
                return rewritten(PgIntervals.call(function, pos, asPg(a), asPg(b)));
            }
            return visited;
        }
        if (SqlKind.COMPARISON.contains(c.getKind())) {
            if (isMonths(a) && !isMonths(b)) {
                return rewritten(c.getOperator().createCall(pos, asDays((SqlIntervalLiteral) a), b));
            }
            if (isMonths(b) && !isMonths(a)) {
                return rewritten(c.getOperator().createCall(pos, a, asDays((SqlIntervalLiteral) b)));
            }
        }
        return visited;
    }

    /**
     * Whether {@code node} is a PostgreSQL interval constant ({@code pg_interval('text')}, as this
     * rewrite makes of a Calcite one), or a sum or difference of such this rewrite made.
     */
    private static boolean isPgConstant(SqlNode node) {
        if (!(node instanceof SqlCall call)) {
            return false;
        }
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (name.equals("pg_interval_add") || name.equals("pg_interval_sub")) {
            return call.operandCount() == 2 && isPgConstant(call.operand(0)) && isPgConstant(call.operand(1));
        }
        return name.equals("pg_interval") && call.operandCount() == 1 && call.operand(0) instanceof SqlLiteral;
    }

    private static SqlNode asPg(SqlNode node) {
        return node instanceof SqlIntervalLiteral lit ? PgIntervals.literal(lit) : node;
    }

    private static boolean isDate(SqlNode node) {
        return node instanceof SqlUnknownLiteral unknown
                ? unknown.tag.equalsIgnoreCase("DATE")
                : node instanceof SqlLiteral lit && lit.getTypeName() == SqlTypeName.DATE;
    }

    private static SqlNode timestamp(SqlNode date, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(
                pos, date, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, pos), pos));
    }

    /** Whether {@code node} is a year-month interval constant. */
    private static boolean isMonths(SqlNode node) {
        return node instanceof SqlIntervalLiteral lit
                && lit.getValueAs(SqlIntervalLiteral.IntervalValue.class)
                        .getIntervalQualifier()
                        .isYearMonth();
    }

    /** The year-month constant {@code lit} as a day-time constant of 30 days a month. */
    private static SqlNode asDays(SqlIntervalLiteral lit) {
        SqlParserPos pos = lit.getParserPosition();
        long months = SqlParserUtil.intervalToMonths(lit.getValueAs(SqlIntervalLiteral.IntervalValue.class));
        return SqlLiteral.createInterval(
                months < 0 ? -1 : 1,
                Math.abs(months) * DAYS_PER_MONTH + " 0:0:0.000",
                new SqlIntervalQualifier(TimeUnit.DAY, 9, TimeUnit.SECOND, 3, pos),
                pos);
    }
}
