package io.tributary.sql.calcite;

import io.tributary.plan.TimeBound;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Finds the temporal filter in a view's WHERE: the conjuncts that compare a timestamp expression of
 * the row with the current time plus or minus constant day-to-second intervals ({@code ts > now() -
 * INTERVAL '1' HOUR}, {@code now() <= ts + INTERVAL '5' MINUTE}, either side; {@code BETWEEN}
 * arrives as two comparisons). All of them must bound the same expression. {@code now()}, {@code current_timestamp} and
 * {@code localtimestamp} all mean the epoch's commit time. Any other use of the current time stays
 * in the rest of the condition, where the expression compiler refuses it with 0A000. Stateless.
 */
final class TemporalFilters {
    private static final Set<String> CURRENT_TIME = Set.of("NOW", "CURRENT_TIMESTAMP", "LOCALTIMESTAMP");

    private TemporalFilters() {}

    /**
     * A condition cut in two: the row's {@code time}, the {@code bounds} on it, and the conjuncts
     * that do not read the current time.
     */
    record Split(RexNode time, List<TimeBound> bounds, List<RexNode> rest) {}

    /**
     * The temporal filter in {@code condition}, or null when no conjunct reads the current time.
     *
     * @throws io.tributary.common.TributaryException 0A000 when a conjunct reads it in another form
     */
    static Split split(RexNode condition) {
        List<RexNode> rest = new ArrayList<>();
        List<TimeBound> bounds = new ArrayList<>();
        RexNode time = null;
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            if (!readsNow(conjunct)) {
                rest.add(conjunct);
                continue;
            }
            Comparison c = comparison(conjunct);
            if (c == null) {
                rest.add(conjunct);
                continue;
            }
            if (time != null && !time.equals(c.time())) {
                throw UnsupportedInViews.error("temporal filters on more than one time expression are");
            }
            time = c.time();
            bounds.add(c.bound());
        }
        return time == null ? null : new Split(time, List.copyOf(bounds), rest);
    }

    private record Comparison(RexNode time, TimeBound bound) {}

    /** {@code conjunct} as a bound on a time expression, or null when it is not that shape. */
    private static Comparison comparison(RexNode conjunct) {
        if (!(conjunct instanceof RexCall call) || call.getOperands().size() != 2) {
            return null;
        }
        SqlKind kind = call.getKind();
        if (kind != SqlKind.GREATER_THAN
                && kind != SqlKind.GREATER_THAN_OR_EQUAL
                && kind != SqlKind.LESS_THAN
                && kind != SqlKind.LESS_THAN_OR_EQUAL) {
            return null;
        }
        RexNode row = call.getOperands().get(0);
        RexNode now = call.getOperands().get(1);
        if (readsNow(row)) {
            if (readsNow(now)) {
                return null;
            }
            RexNode swap = row;
            row = now;
            now = swap;
            kind = kind.reverse();
        }
        row = stripTimestampCast(row);
        if (!isTimestamp(row)) {
            throw UnsupportedInViews.error("temporal filters on a value of type "
                    + row.getType().getSqlTypeName().getName().toLowerCase(Locale.ROOT)
                    + " (only timestamp and timestamptz) are");
        }
        Long offset = offsetMicros(now);
        if (offset == null) {
            return null;
        }
        boolean upper = kind == SqlKind.LESS_THAN || kind == SqlKind.LESS_THAN_OR_EQUAL;
        boolean inclusive = kind == SqlKind.GREATER_THAN_OR_EQUAL || kind == SqlKind.LESS_THAN_OR_EQUAL;
        return new Comparison(row, new TimeBound(upper, inclusive, offset));
    }

    /**
     * {@code expr} as the current time plus a constant, in microseconds, or null when it is not of
     * the form now(), now() + interval, now() - interval (day-to-second intervals, any nesting).
     */
    private static Long offsetMicros(RexNode expr) {
        expr = stripTimestampCast(expr);
        if (isCurrentTime(expr)) {
            return 0L;
        }
        return TimeDistances.plusInterval(
                expr, TemporalFilters::offsetMicros, TemporalFilters::intervalMicros, Math::addExact);
    }

    /** A constant day-to-second interval in microseconds, or null. */
    private static Long intervalMicros(RexNode expr) {
        if (!(expr instanceof RexLiteral literal) || literal.isNull()) {
            return null;
        }
        SqlTypeName type = literal.getType().getSqlTypeName();
        if (type.getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
            throw UnsupportedInViews.error("temporal filters with intervals of months or years are");
        }
        return TimeDistances.dayTimeMicros(literal);
    }

    private static RexNode stripTimestampCast(RexNode expr) {
        while (expr.getKind() == SqlKind.CAST
                && isTimestamp(expr)
                && isTimestamp(((RexCall) expr).getOperands().get(0))) {
            expr = ((RexCall) expr).getOperands().get(0);
        }
        return expr;
    }

    /** Whether {@code expr} is a TIMESTAMP or TIMESTAMPTZ. */
    static boolean isTimestamp(RexNode expr) {
        SqlTypeName t = expr.getType().getSqlTypeName();
        return t == SqlTypeName.TIMESTAMP || t == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    private static boolean isCurrentTime(RexNode expr) {
        return expr instanceof RexCall call
                && CURRENT_TIME.contains(call.getOperator().getName().toUpperCase(Locale.ROOT));
    }

    private static boolean readsNow(RexNode expr) {
        if (isCurrentTime(expr)) {
            return true;
        }
        if (expr instanceof RexCall call) {
            for (RexNode operand : call.getOperands()) {
                if (readsNow(operand)) {
                    return true;
                }
            }
        }
        return false;
    }
}
