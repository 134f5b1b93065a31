package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import io.tributary.plan.Distribution;
import io.tributary.plan.Field;
import io.tributary.plan.Literal;
import io.tributary.plan.OverWindowNode;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.SessionCleaning;
import io.tributary.plan.SortKey;
import io.tributary.plan.StreamNode;
import io.tributary.plan.WindowCall;
import io.tributary.plan.WindowFrame;
import io.tributary.plan.WindowKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowExclusion;
import org.apache.calcite.sql.SqlKind;

/**
 * Translates Calcite's {@link Window} (window functions, after {@code ProjectToWindowRule}) into
 * {@link OverWindowNode}s, one per window group, each over the previous one and distributed by its
 * partition keys; and recognises a group top-N, a filter {@code rank <= k} on a window's ranking
 * function. Functions and frames the operator cannot compute fail with 0A000 naming them. Used by
 * one {@link StreamPlanBuilder}; not thread-safe.
 */
final class WindowPlans {
    private final RexBuilder rexBuilder;
    private final ExpressionCompiler expressions;

    WindowPlans(RexBuilder rexBuilder, ExpressionCompiler expressions) {
        this.rexBuilder = rexBuilder;
        this.expressions = expressions;
    }

    /**
     * A group top-N found in a filter over a window.
     *
     * @param call the ranking call, numbered over the window's only group
     * @param limit the highest rank kept
     * @param rest the filter's other conjuncts, or null
     */
    record TopN(int call, long limit, RexNode rest) {}

    /**
     * The group top-N in {@code filter} over {@code window}: a conjunct {@code f <= k},
     * {@code f < k} or {@code f = 1} on a ranking function {@code f} of a window with one group
     * whose functions all rank; or null.
     */
    static TopN topN(Filter filter, Window window) {
        if (window.groups.size() != 1) {
            return null;
        }
        Window.Group group = window.groups.get(0);
        for (Window.RexWinAggCall call : group.aggCalls) {
            if (kindOf(call) == null || !kindOf(call).isRanking()) {
                return null;
            }
        }
        int inputCount = window.getInput().getRowType().getFieldCount();
        List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
        for (int i = 0; i < conjuncts.size(); i++) {
            long[] bound = rankBound(conjuncts.get(i), inputCount, group.aggCalls.size());
            if (bound != null) {
                List<RexNode> rest = new ArrayList<>(conjuncts);
                rest.remove(i);
                RexBuilder rb = filter.getCluster().getRexBuilder();
                return new TopN((int) bound[0], bound[1], rest.isEmpty() ? null : RexUtil.composeConjunction(rb, rest));
            }
        }
        return null;
    }

    /** {call, k} when {@code c} keeps exactly the rows of call ranked at most k, else null. */
    private static long[] rankBound(RexNode c, int inputCount, int calls) {
        if (!(c instanceof RexCall call) || call.getOperands().size() != 2) {
            return null;
        }
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        SqlKind kind = call.getKind();
        if (b instanceof RexInputRef && a instanceof RexLiteral) {
            RexNode t = a;
            a = b;
            b = t;
            kind = kind.reverse();
        }
        if (!(a instanceof RexInputRef ref)
                || ref.getIndex() < inputCount
                || ref.getIndex() >= inputCount + calls
                || !(b instanceof RexLiteral literal)
                || literal.isNull()) {
            return null;
        }
        BigDecimal k = literal.getValueAs(BigDecimal.class);
        if (k == null || k.scale() > 0 && k.stripTrailingZeros().scale() > 0) {
            return null;
        }
        long v = k.longValue();
        long limit = switch (kind) {
            case LESS_THAN_OR_EQUAL -> v;
            case LESS_THAN -> v - 1;
            case EQUALS -> v == 1 ? 1 : -1;
            default -> -1;
        };
        return limit < 0 ? null : new long[] {ref.getIndex() - inputCount, limit};
    }

    /**
     * The window's groups as a chain of {@link OverWindowNode}s over {@code in}.
     *
     * @param topN the group top-N its filter asks for, or null
     */
    StreamPlanBuilder.Translated translate(Window window, StreamPlanBuilder.Translated in, TopN topN) {
        int inputCount = window.getInput().getRowType().getFieldCount();
        List<String> names = window.getRowType().getFieldNames();
        StreamNode node = in.node();
        int[] columns = Arrays.copyOf(in.columns(), names.size());
        int next = inputCount;
        for (Window.Group group : window.groups) {
            if (group.exclude != RexWindowExclusion.EXCLUDE_NO_OTHER) {
                throw UnsupportedInViews.error("window frames with EXCLUDE are");
            }
            int[] partition =
                    group.keys.asList().stream().mapToInt(k -> in.columns()[k]).toArray();
            List<SortKey> order = new ArrayList<>();
            for (RelFieldCollation c : group.orderKeys.getFieldCollations()) {
                RelFieldCollation.NullDirection nulls = c.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
                        ? c.direction.defaultNullDirection()
                        : c.nullDirection;
                order.add(new SortKey(
                        columns[c.getFieldIndex()],
                        c.direction.isDescending(),
                        nulls == RelFieldCollation.NullDirection.FIRST));
            }
            WindowFrame frame = frame(window, group, inputCount);
            StreamNode input = StreamPlanBuilder.exchange(
                    node, partition.length == 0 ? Distribution.SINGLE : Distribution.hash(partition));
            List<Field> fields = new ArrayList<>(input.fields());
            List<WindowCall> calls = new ArrayList<>();
            for (Window.RexWinAggCall call : group.aggCalls) {
                WindowCall translated = call(window, call, inputCount, columns, input.fields());
                calls.add(translated);
                columns[next] = fields.size();
                fields.add(new Field(names.get(next), translated.type()));
                next++;
            }
            int limitCall = topN == null ? -1 : topN.call();
            long limit = topN == null ? 0 : topN.limit();
            node = new OverWindowNode(
                    input,
                    partition,
                    List.copyOf(order),
                    frame,
                    List.copyOf(calls),
                    limitCall,
                    limit,
                    List.copyOf(fields),
                    sessionCleaning(group, order, calls));
        }
        return new StreamPlanBuilder.Translated(node, columns);
    }

    /**
     * The cleaning of a window group that is one step of a watermarked SESSION's expansion (its one
     * call a {@link SessionCalls.Marked}), else null.
     */
    private static SessionCleaning sessionCleaning(Window.Group group, List<SortKey> order, List<WindowCall> calls) {
        if (group.aggCalls.size() != 1 || !(group.aggCalls.get(0).getOperator() instanceof SessionCalls.Marked m)) {
            return null;
        }
        SessionCalls.Mark mark = m.mark();
        return mark.cleaning(
                mark.timeIsOrderKey() ? order.get(0).column() : calls.get(0).arg());
    }

    private static WindowKind kindOf(Window.RexWinAggCall call) {
        return switch (call.getOperator().getKind()) {
            case ROW_NUMBER -> WindowKind.ROW_NUMBER;
            case RANK -> WindowKind.RANK;
            case DENSE_RANK -> WindowKind.DENSE_RANK;
            case LAG -> WindowKind.LAG;
            case LEAD -> WindowKind.LEAD;
            case FIRST_VALUE -> WindowKind.FIRST_VALUE;
            case LAST_VALUE -> WindowKind.LAST_VALUE;
            case SUM -> WindowKind.SUM;
            case SUM0 -> WindowKind.SUM0;
            case COUNT -> WindowKind.COUNT;
            case AVG -> WindowKind.AVG;
            case MIN -> WindowKind.MIN;
            case MAX -> WindowKind.MAX;
            default -> null;
        };
    }

    private WindowCall call(
            Window window, Window.RexWinAggCall call, int inputCount, int[] columns, List<Field> fields) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        WindowKind kind = kindOf(call);
        if (kind == null) {
            throw UnsupportedInViews.error("the window function " + name + " is");
        }
        if (call.distinct) {
            throw UnsupportedInViews.error("DISTINCT in window functions is");
        }
        if (call.ignoreNulls) {
            throw UnsupportedInViews.error("IGNORE NULLS is");
        }
        List<RexNode> operands = call.getOperands();
        int arg = -1;
        if (!kind.isRanking() && !operands.isEmpty()) {
            if (!(operands.get(0) instanceof RexInputRef ref) || ref.getIndex() >= inputCount) {
                throw UnsupportedInViews.error(name + " over a constant is");
            }
            arg = columns[ref.getIndex()];
        }
        if (arg < 0 && kind != WindowKind.COUNT && !kind.isRanking()) {
            throw UnsupportedInViews.error(name + " without an argument is");
        }
        DataType type = switch (kind) {
            // the value is an input value: keep the column's exact type
            case MIN, MAX, FIRST_VALUE, LAST_VALUE, LAG, LEAD -> fields.get(arg).type();
            default -> TypeMapping.fromRelType(call.getType());
        };
        if ((kind == WindowKind.SUM || kind == WindowKind.SUM0 || kind == WindowKind.AVG)
                && !fields.get(arg).type().kind().isNumeric()) {
            throw UnsupportedInViews.error(name + " over " + fields.get(arg).type() + " is");
        }
        int offset = 0;
        Object defaultValue = null;
        if (kind == WindowKind.LAG || kind == WindowKind.LEAD) {
            offset = operands.size() > 1 ? (int) constant(window, operands.get(1), inputCount, name + "'s offset") : 1;
            if (operands.size() > 2) {
                RexNode d = resolve(window, operands.get(2), inputCount);
                if (!(d instanceof RexLiteral)) {
                    throw UnsupportedInViews.error(name + " with a default other than a constant is");
                }
                // a constant's own nullability: a cast that only made it NULL-able would stay a call
                RexNode cast = rexBuilder.makeCast(
                        rexBuilder
                                .getTypeFactory()
                                .createTypeWithNullability(
                                        call.getType(), d.getType().isNullable()),
                        d,
                        true,
                        false);
                ScalarExpr compiled = expressions.compile(cast, List.of(), new int[0]);
                if (!(compiled instanceof Literal literal)) {
                    throw UnsupportedInViews.error(name + " with a default other than a constant is");
                }
                defaultValue = literal.value();
            }
        }
        return new WindowCall(kind, arg, offset, defaultValue, type);
    }

    private static WindowFrame frame(Window window, Window.Group group, int inputCount) {
        long start = bound(window, group.lowerBound, inputCount);
        long end = bound(window, group.upperBound, inputCount);
        if (!group.isRows && !isRangeBound(start) || !group.isRows && !isRangeBound(end)) {
            throw UnsupportedInViews.error("RANGE frames with an offset are");
        }
        return new WindowFrame(group.isRows, start, end);
    }

    private static boolean isRangeBound(long b) {
        return b == WindowFrame.UNBOUNDED_PRECEDING || b == WindowFrame.UNBOUNDED_FOLLOWING || b == WindowFrame.CURRENT;
    }

    private static long bound(Window window, RexWindowBound bound, int inputCount) {
        if (bound.isCurrentRow()) {
            return WindowFrame.CURRENT;
        }
        if (bound.isUnbounded()) {
            return bound.isPreceding() ? WindowFrame.UNBOUNDED_PRECEDING : WindowFrame.UNBOUNDED_FOLLOWING;
        }
        long offset = constant(window, bound.getOffset(), inputCount, "a frame offset");
        if (offset < 0) {
            throw UnsupportedInViews.error("negative frame offsets are");
        }
        return bound.isPreceding() ? -offset : offset;
    }

    /** A window operand that refers to one of the window's constants, as that constant. */
    private static RexNode resolve(Window window, RexNode node, int inputCount) {
        if (node instanceof RexInputRef ref && ref.getIndex() >= inputCount) {
            return window.constants.get(ref.getIndex() - inputCount);
        }
        return node;
    }

    private static long constant(Window window, RexNode node, int inputCount, String what) {
        RexNode resolved = resolve(window, node, inputCount);
        if (!(resolved instanceof RexLiteral literal) || literal.isNull()) {
            throw UnsupportedInViews.error(what + " other than a constant is");
        }
        BigDecimal v = literal.getValueAs(BigDecimal.class);
        if (v == null) {
            throw UnsupportedInViews.error(what + " other than an integer is");
        }
        return v.longValueExact();
    }
}
