package io.tributary.sql.calcite;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * The bounds a join condition puts on the distance between a left and a right time column: from
 * conjuncts comparing {@code l [± interval]} with {@code r [± interval]} ({@code <, <=, >, >=},
 * so also {@code BETWEEN}), with day-to-second interval constants, it derives {@code min <= l - r
 * <= max}. Other conjuncts only narrow the matches further, so they leave the bounds true. Used by
 * the view planner to let an interval join forget rows (see {@code IntervalJoinCleaning});
 * stateless.
 */
final class TimeDistances {
    private TimeDistances() {}

    /**
     * What the condition implies of {@code left - right}, in microseconds: {@code Long.MIN_VALUE}
     * or {@code Long.MAX_VALUE} where it says nothing.
     *
     * @param left field of the join's left input
     * @param right field of the join's right input, counted from the left input's first field
     */
    record Distance(int left, int right, long min, long max) {}

    /** A column plus a constant: {@code field + offsetMicros}. */
    private record Shifted(int field, long offsetMicros) {}

    /**
     * The distances {@code condition} bounds, one per pair of time columns it compares, where
     * fields below {@code leftWidth} are the left input's; empty when it compares none.
     */
    static List<Distance> of(RexNode condition, int leftWidth) {
        List<Distance> out = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            SqlKind kind = conjunct.getKind();
            if (kind != SqlKind.LESS_THAN
                    && kind != SqlKind.LESS_THAN_OR_EQUAL
                    && kind != SqlKind.GREATER_THAN
                    && kind != SqlKind.GREATER_THAN_OR_EQUAL) {
                continue;
            }
            List<RexNode> operands = ((RexCall) conjunct).getOperands();
            Shifted a = shifted(operands.get(0));
            Shifted b = shifted(operands.get(1));
            if (a == null || b == null || (a.field() < leftWidth) == (b.field() < leftWidth)) {
                continue;
            }
            boolean flipped = a.field() >= leftWidth;
            if (flipped) {
                Shifted t = a;
                a = b;
                b = t;
                kind = kind.reverse();
            }
            // a + x OP b + y  <=>  a - b OP y - x
            long d = Math.subtractExact(b.offsetMicros(), a.offsetMicros());
            long min = Long.MIN_VALUE;
            long max = Long.MAX_VALUE;
            switch (kind) {
                case GREATER_THAN_OR_EQUAL -> min = d;
                case GREATER_THAN -> min = d + 1;
                case LESS_THAN_OR_EQUAL -> max = d;
                default -> max = d - 1;
            }
            merge(out, new Distance(a.field(), b.field(), min, max));
        }
        return out;
    }

    private static void merge(List<Distance> out, Distance d) {
        for (int i = 0; i < out.size(); i++) {
            Distance e = out.get(i);
            if (e.left() == d.left() && e.right() == d.right()) {
                out.set(i, new Distance(d.left(), d.right(), Math.max(e.min(), d.min()), Math.min(e.max(), d.max())));
                return;
            }
        }
        out.add(d);
    }

    /** {@code expr} as a TIMESTAMP column plus or minus constant intervals, or null. */
    private static Shifted shifted(RexNode expr) {
        if (expr instanceof RexInputRef ref) {
            return TemporalFilters.isTimestamp(ref) ? new Shifted(ref.getIndex(), 0) : null;
        }
        if (!TemporalFilters.isTimestamp(expr)) {
            return null;
        }
        return plusInterval(
                expr,
                TimeDistances::shifted,
                TimeDistances::dayTimeMicros,
                (base, micros) -> new Shifted(base.field(), Math.addExact(base.offsetMicros(), micros)));
    }

    /**
     * {@code expr} read as {@code base + interval}, {@code base - interval} or {@code interval +
     * base}: {@code add} of its base, as {@code base} reads it, and its signed interval in
     * microseconds, as {@code interval} reads it (the base operand read first); null when {@code
     * expr} is none of those or an operand does not read. Shared by {@link TemporalFilters}, whose
     * base is {@code now()}, and this class, whose base is a column. Called while planning.
     */
    static <T> T plusInterval(
            RexNode expr, Function<RexNode, T> base, Function<RexNode, Long> interval, BiFunction<T, Long, T> add) {
        if (!(expr instanceof RexCall call) || call.getOperands().size() != 2) {
            return null;
        }
        int sign = switch (call.getKind()) {
            case PLUS -> 1;
            case MINUS -> -1;
            default -> 0;
        };
        if (sign == 0) {
            return null;
        }
        T left = base.apply(call.getOperands().get(0));
        Long micros = interval.apply(call.getOperands().get(1));
        if (left == null && sign > 0) {
            // interval + base
            left = base.apply(call.getOperands().get(1));
            micros = interval.apply(call.getOperands().get(0));
        }
        if (left == null || micros == null) {
            return null;
        }
        return add.apply(left, sign * micros);
    }

    /** A constant day-to-second interval in microseconds, or null for anything else. */
    static Long dayTimeMicros(RexNode expr) {
        if (!(expr instanceof RexLiteral literal)
                || literal.isNull()
                || literal.getType().getSqlTypeName().getFamily() != SqlTypeFamily.INTERVAL_DAY_TIME) {
            return null;
        }
        // Calcite holds day-to-second intervals in milliseconds
        return Math.multiplyExact(literal.getValueAs(BigDecimal.class).longValueExact(), 1000L);
    }
}
