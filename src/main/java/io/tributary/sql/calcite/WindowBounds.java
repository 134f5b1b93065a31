package io.tributary.sql.calcite;

import io.tributary.catalog.TableDef;
import io.tributary.catalog.WatermarkDef;
import io.tributary.plan.InputRef;
import io.tributary.plan.IntervalJoinCleaning;
import io.tributary.plan.JoinCleaning;
import io.tributary.plan.OverWindowNode;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.SessionCleaning;
import io.tributary.plan.StreamNode;
import io.tributary.plan.WindowCleaning;
import io.tributary.plan.WindowKind;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

/**
 * Which columns of a view's stream nodes are window bounds over a watermarked table, so an
 * aggregate grouping by one can forget finished windows ({@link WindowCleaning}). A bound is
 * proved where a TUMBLE or HOP reads the table's watermark column through projections and
 * filters only, and at the {@code window_end} of a SESSION over such a column (its expansion's
 * window nodes carry a {@link SessionCleaning}) (which neither retract rows nor change the time), and carried up through
 * projections that copy the column, filters, and aggregates grouping by it (a group's row changes
 * only while rows of its window arrive). A join of two bounds lets the join forget rows ({@link
 * JoinCleaning}). Anything else (a join's output, a union written by the user) proves nothing, so
 * its output keeps all state. A watermarked table's own time column is a bound too, which an
 * interval join's condition over two bounds lets the join forget rows by ({@link
 * IntervalJoinCleaning}). One per planned query, on the planning thread; nodes are told apart
 * by identity.
 */
final class WindowBounds {
    /**
     * A column that trails the time of table {@code relationId}'s rows by less than {@code
     * lagMicros}: a value {@code v} with {@code v + lagMicros <= watermark} gets no more rows.
     * {@code window} tells a window bound from the table's own time column, which only interval
     * joins clean by.
     */
    private record Bound(int relationId, long lagMicros, boolean window) {}

    private final Map<StreamNode, Map<Integer, Bound>> bounds = new IdentityHashMap<>();

    /** A session expansion's column holding each row's session's last time (ms), and its cleaning. */
    private record SessionLast(int column, SessionCleaning cleaning) {}

    private final Map<StreamNode, SessionLast> sessionLasts = new IdentityHashMap<>();

    /**
     * Records the window bounds of a translated window scan: {@code window_end} is above each row's
     * time, {@code window_start} above it minus the size. Nothing when the time column is not
     * a watermarked table's watermark column read through projections and filters.
     *
     * @param out the translated scan: its last two fields are window_start and window_end
     */
    void windowScan(TableFunctionScan scan, StreamPlanBuilder.Translated out) {
        TimeWindows.TimeAndSize window = TimeWindows.timeAndSize(scan);
        TableDef table = watermarkedOrigin(scan.getInputs().get(0), window.timeColumn());
        if (table == null) {
            return;
        }
        int width = scan.getRowType().getFieldCount() - 2;
        Map<Integer, Bound> columns = bounds.computeIfAbsent(out.node(), n -> new HashMap<>());
        columns.put(out.columns()[width], new Bound(table.id(), window.sizeMillis() * 1000, true));
        columns.put(out.columns()[width + 1], new Bound(table.id(), 0, true));
    }

    /**
     * Records the time column of a scanned table with a watermark: a row's time is on time while
     * at least the watermark, so a time {@code t} gets no more rows once {@code t + 1 <= watermark}
     * (the table is append-only).
     *
     * @param source the scan's node, whose columns are the table's
     */
    void tableScan(TableDef table, StreamNode source) {
        WatermarkDef watermark = table.watermark();
        if (watermark != null) {
            bounds.computeIfAbsent(source, n -> new HashMap<>())
                    .put(watermark.column(), new Bound(table.id(), 1, false));
        }
    }

    /**
     * Records the session's last time of a SESSION expansion's last window node: the {@code max} of
     * the time over each session (its partition), which a projection turns into {@code window_end}.
     */
    void windowed(StreamNode node) {
        if (node instanceof OverWindowNode w
                && w.cleaning() != null
                && w.calls().size() == 1
                && w.calls().get(0).kind() == WindowKind.MAX
                && w.calls().get(0).arg() == w.cleaning().timeColumn()) {
            sessionLasts.put(w, new SessionLast(w.callColumns()[0], w.cleaning()));
        }
    }

    /**
     * Records the {@code window_end} columns of a projection over a session's last window node:
     * {@code REINTERPRET(last + gap)}, a TIMESTAMP in whole milliseconds. Its session is closed
     * once {@code window_end < floor(watermark / 1 ms)}, that is when {@code window_end + 1 ms <=
     * watermark}: the bound's lag is a millisecond.
     *
     * @param inColumns the stream column of each of the projection's input fields
     */
    void sessionEnds(StreamNode input, int[] inColumns, List<RexNode> projects, StreamNode output) {
        SessionLast last = sessionLasts.get(input);
        if (last == null || output == input) {
            return;
        }
        for (int k = 0; k < projects.size(); k++) {
            if (projects.get(k) instanceof RexCall reinterpret
                    && reinterpret.getKind() == SqlKind.REINTERPRET
                    && reinterpret.getOperands().get(0) instanceof RexCall plus
                    && plus.getKind() == SqlKind.PLUS
                    && plus.getOperands().get(0) instanceof RexInputRef ref
                    && inColumns[ref.getIndex()] == last.column()
                    && plus.getOperands().get(1) instanceof RexLiteral gap
                    && Long.valueOf(last.cleaning().gapMillis()).equals(gap.getValueAs(Long.class))) {
                bounds.computeIfAbsent(output, n -> new HashMap<>())
                        .put(k, new Bound(last.cleaning().relationId(), 1000, true));
            }
        }
    }

    /** Carries bounds through a projection's plain column copies. */
    void projected(StreamNode input, List<ScalarExpr> exprs, StreamNode output) {
        Map<Integer, Bound> in = bounds.get(input);
        if (in == null || output == input) {
            return;
        }
        for (int k = 0; k < exprs.size(); k++) {
            if (exprs.get(k) instanceof InputRef ref && in.containsKey(ref.index())) {
                bounds.computeIfAbsent(output, n -> new HashMap<>()).put(k, in.get(ref.index()));
            }
        }
    }

    /** Carries bounds through a filter, whose columns are its input's. */
    void filtered(StreamNode input, StreamNode output) {
        Map<Integer, Bound> in = bounds.get(input);
        if (in != null) {
            bounds.put(output, in);
        }
    }

    /**
     * Carries bounds through an aggregate: its output column i is group key {@code groupKeys[i]},
     * whose group gets no row once its window is finished, so the group's row no longer changes.
     */
    void aggregated(StreamNode input, int[] groupKeys, StreamNode output) {
        Map<Integer, Bound> in = bounds.get(input);
        if (in == null) {
            return;
        }
        for (int i = 0; i < groupKeys.length; i++) {
            Bound b = in.get(groupKeys[i]);
            if (b != null) {
                bounds.computeIfAbsent(output, n -> new HashMap<>()).put(i, b);
            }
        }
    }

    /**
     * How a join of {@code left} and {@code right} on {@code leftKeys[i] = rightKeys[i]} forgets
     * rows, or null when no pair is a window bound on both sides. Of several such pairs, the one
     * whose later side frees state soonest.
     */
    JoinCleaning joinCleaning(StreamNode left, int[] leftKeys, StreamNode right, int[] rightKeys) {
        Map<Integer, Bound> l = bounds.get(left);
        Map<Integer, Bound> r = bounds.get(right);
        if (l == null || r == null) {
            return null;
        }
        JoinCleaning best = null;
        for (int i = 0; i < leftKeys.length; i++) {
            Bound lb = l.get(leftKeys[i]);
            Bound rb = r.get(rightKeys[i]);
            if (lb != null
                    && rb != null
                    && lb.window()
                    && rb.window()
                    && (best == null
                            || Math.max(lb.lagMicros(), rb.lagMicros())
                                    < Math.max(best.leftLagMicros(), best.rightLagMicros()))) {
                best = new JoinCleaning(i, lb.relationId(), lb.lagMicros(), rb.relationId(), rb.lagMicros());
            }
        }
        return best;
    }

    /**
     * How a join of {@code left} and {@code right} whose condition bounds the distances {@code
     * distances} (fields as in the join's Calcite row, mapped to the sides' columns by {@code
     * leftColumns} and {@code rightColumns}) forgets rows, or null when no such pair is a bound on
     * both sides or the condition bounds neither side's matches. Of several, the one bounded on both
     * ends, then the narrowest.
     */
    IntervalJoinCleaning intervalCleaning(
            StreamNode left,
            int[] leftColumns,
            StreamNode right,
            int[] rightColumns,
            List<TimeDistances.Distance> distances) {
        Map<Integer, Bound> l = bounds.get(left);
        Map<Integer, Bound> r = bounds.get(right);
        if (l == null || r == null) {
            return null;
        }
        IntervalJoinCleaning best = null;
        for (TimeDistances.Distance d : distances) {
            int lc = leftColumns[d.left()];
            int rc = rightColumns[d.right() - leftColumns.length];
            Bound lb = l.get(lc);
            Bound rb = r.get(rc);
            if (lb == null || rb == null) {
                continue;
            }
            IntervalJoinCleaning c = new IntervalJoinCleaning(
                    lc, rc, lb.relationId(), lb.lagMicros(), rb.relationId(), rb.lagMicros(), d.min(), d.max());
            if (best == null || better(c, best)) {
                best = c;
            }
        }
        return best;
    }

    private static boolean better(IntervalJoinCleaning a, IntervalJoinCleaning b) {
        int sidesA = (a.cleansLeft() ? 1 : 0) + (a.cleansRight() ? 1 : 0);
        int sidesB = (b.cleansLeft() ? 1 : 0) + (b.cleansRight() ? 1 : 0);
        if (sidesA != sidesB) {
            return sidesA > sidesB;
        }
        return sidesA == 2
                && a.maxDifferenceMicros() - a.minDifferenceMicros()
                        < b.maxDifferenceMicros() - b.minDifferenceMicros();
    }

    /**
     * How an aggregate over {@code input} grouping by its columns {@code groupKeys} cleans its state,
     * or null when no group key is a window bound. The bound with the least lag frees state soonest.
     *
     * @param emitOnClose whether the aggregate emits each group once, when its window closes
     */
    WindowCleaning cleaning(StreamNode input, int[] groupKeys, boolean emitOnClose) {
        Map<Integer, Bound> in = bounds.get(input);
        if (in == null) {
            return null;
        }
        WindowCleaning best = null;
        for (int i = 0; i < groupKeys.length; i++) {
            Bound b = in.get(groupKeys[i]);
            if (b != null && b.window() && (best == null || b.lagMicros() < best.lagMicros())) {
                best = new WindowCleaning(i, b.relationId(), b.lagMicros(), emitOnClose);
            }
        }
        return best;
    }

    /**
     * The table whose watermark column field {@code column} of {@code rel} is, read through
     * projections (as a plain column reference) and filters; null otherwise.
     */
    static TableDef watermarkedOrigin(RelNode rel, int column) {
        while (true) {
            if (rel instanceof Project project) {
                if (!(project.getProjects().get(column) instanceof RexInputRef ref)) {
                    return null;
                }
                column = ref.getIndex();
                rel = project.getInput();
            } else if (rel instanceof Filter filter) {
                rel = filter.getInput();
            } else if (rel instanceof TableScan scan) {
                CatalogTable table = scan.getTable().unwrap(CatalogTable.class);
                if (table == null) {
                    return null;
                }
                WatermarkDef watermark = table.table().watermark();
                return watermark != null && table.columnIndexes()[column] == watermark.column() ? table.table() : null;
            } else {
                return null;
            }
        }
    }
}
