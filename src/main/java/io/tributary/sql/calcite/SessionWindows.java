package io.tributary.sql.calcite;

import com.google.common.collect.ImmutableList;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBounds;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlWindowTableFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Turns Calcite's {@code SESSION} table function into window functions, so a view keeps sessions
 * with the window-function operator (its state, backfill and recovery) and an ad-hoc SELECT computes
 * the same rows with Calcite's window implementation. Within a partition, ordered by time, a row
 * starts a session when no earlier row is within the gap; a session is {@code [first time, last time
 * + gap)}, as in Flink and RisingWave. In window functions, per partition {@code p} and time {@code t}
 * (milliseconds):
 *
 * <ol>
 *   <li>{@code mark = CASE WHEN t - lag(t) OVER (p ORDER BY t) <= gap THEN NULL ELSE t END}: the
 *       time of a row that starts a session;
 *   <li>{@code window_start = max(mark) OVER (p ORDER BY t)}: the latest start at or before the row.
 *       Naming a session by its start (not by a running count) keeps an insert or delete from
 *       renaming every later session of the partition, so a view's changes stay near the edit;
 *   <li>{@code window_end = max(t) OVER (p, window_start) + gap}.
 * </ol>
 *
 * A row whose time is NULL is in no session. Called on the planning thread: by {@link ViewRewrites}
 * before the window rules, and by Calcite's planning of ad-hoc queries through {@link TimeWindows#expansion}.
 */
final class SessionWindows {
    private SessionWindows() {}

    /**
     * Replaces every SESSION scan under {@code rel} by its expansion for a view: where the time
     * column is a watermarked table's watermark column (read through projections and filters), the
     * window functions are {@link SessionCalls}, so the view's nodes forget closed sessions.
     */
    static RelNode expandAll(RelNode rel) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                return visited instanceof TableFunctionScan scan && isSession(scan) ? expand(scan, true) : visited;
            }
        });
    }

    /** Whether {@code scan} is Calcite's SESSION over one input. */
    static boolean isSession(TableFunctionScan scan) {
        return scan.getCall() instanceof RexCall call
                && call.getOperator() instanceof SqlWindowTableFunction
                && call.getOperator().getName().equalsIgnoreCase("SESSION")
                && scan.getInputs().size() == 1;
    }

    /**
     * The window-function equivalent of a SESSION scan over the same input.
     *
     * @throws TributaryException 42804 when the time column is not a timestamp, 22023 for a gap that
     *     is not a positive constant
     */
    static RelNode expand(TableFunctionScan scan) {
        return expand(scan, false);
    }

    /** As {@link #expand(TableFunctionScan)}; {@code forView} marks the calls of a watermarked session. */
    private static RelNode expand(TableFunctionScan scan, boolean forView) {
        RexBuilder rex = scan.getCluster().getRexBuilder();
        RexCall call = (RexCall) scan.getCall();
        RelNode input = scan.getInputs().get(0);
        List<RexInputRef> descriptors = new ArrayList<>();
        List<RexInputRef> keys = new ArrayList<>();
        Long gap = null;
        for (RexNode operand : call.getOperands()) {
            if (operand instanceof RexCall d && d.getKind() == SqlKind.DESCRIPTOR) {
                for (RexNode column : d.getOperands()) {
                    (descriptors.isEmpty() ? descriptors : keys).add((RexInputRef) column);
                }
            } else if (operand instanceof RexLiteral literal
                    && SqlTypeName.INTERVAL_TYPES.contains(literal.getTypeName())) {
                gap = literal.getValueAs(BigDecimal.class).longValueExact();
            }
        }
        if (descriptors.size() != 1 || gap == null || gap <= 0) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, "session needs a time column and a positive constant gap");
        }
        int width = input.getRowType().getFieldCount();
        RexInputRef time = descriptors.get(0);
        RelDataTypeField timeField = input.getRowType().getFieldList().get(time.getIndex());
        SqlTypeName timeType = timeField.getType().getSqlTypeName();
        if (timeType != SqlTypeName.TIMESTAMP && timeType != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            throw new TributaryException(
                    SqlState.DATATYPE_MISMATCH,
                    "the time column \"" + timeField.getName() + "\" of session is " + timeField.getType()
                            + ", not a timestamp");
        }
        TableDef watermarked = forView ? WindowBounds.watermarkedOrigin(input, time.getIndex()) : null;
        long gapMillis = gap;
        SqlAggFunction lagFunction =
                watermarked == null ? SqlStdOperatorTable.LAG : new SessionCalls.Lag(gapMillis, watermarked.id());
        SqlAggFunction startFunction =
                watermarked == null ? SqlStdOperatorTable.MAX : new SessionCalls.Max(gapMillis, watermarked.id(), true);
        SqlAggFunction lastFunction = watermarked == null
                ? SqlStdOperatorTable.MAX
                : new SessionCalls.Max(gapMillis, watermarked.id(), false);
        RelNode timed = timeField.getType().isNullable()
                ? LogicalFilter.create(input, rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, time))
                : input;
        RelDataType bigint = rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
        RelDataType nullableBigint = rex.getTypeFactory().createTypeWithNullability(bigint, true);
        RexNode gapLiteral = rex.makeBigintLiteral(BigDecimal.valueOf(gap));

        // columns, t (ms)
        List<RexNode> millis = columns(rex, timed, width);
        millis.add(rex.makeReinterpretCast(bigint, rex.makeInputRef(timed, time.getIndex()), rex.makeLiteral(false)));
        RelNode withMillis = project(timed, millis, width, "t");
        RexNode t = rex.makeInputRef(withMillis, width);
        ImmutableList<RexFieldCollation> byTime = ImmutableList.of(new RexFieldCollation(t, Set.of()));

        // columns, t, mark
        RexNode lag = over(rex, nullableBigint, lagFunction, List.of(t), keys, byTime, true);
        RexNode within = rex.makeCall(
                SqlStdOperatorTable.LESS_THAN_OR_EQUAL, rex.makeCall(SqlStdOperatorTable.MINUS, t, lag), gapLiteral);
        List<RexNode> marked = columns(rex, withMillis, width + 1);
        marked.add(rex.makeCall(
                SqlStdOperatorTable.CASE,
                within,
                rex.makeNullLiteral(nullableBigint),
                rex.makeCast(nullableBigint, t)));
        RelNode withMark = project(withMillis, marked, width + 1, "mark");

        // columns, t, start
        RexNode mark = rex.makeInputRef(withMark, width + 1);
        List<RexNode> started = columns(rex, withMark, width + 1);
        started.add(over(rex, nullableBigint, startFunction, List.of(mark), keys, byTime, false));
        RelNode withStart = project(withMark, started, width + 1, "start");

        // columns, window_start, window_end
        RexNode start = rex.makeInputRef(withStart, width + 1);
        List<RexNode> sessionKeys = new ArrayList<>(keys);
        sessionKeys.add(start);
        RexNode last = over(
                rex,
                nullableBigint,
                lastFunction,
                List.of(rex.makeInputRef(withStart, width)),
                sessionKeys,
                ImmutableList.of(),
                false);
        List<RelDataTypeField> out = scan.getRowType().getFieldList();
        List<RexNode> result = columns(rex, withStart, width);
        result.add(rex.makeReinterpretCast(out.get(width).getType(), start, rex.makeLiteral(false)));
        result.add(rex.makeReinterpretCast(
                out.get(width + 1).getType(),
                rex.makeCall(SqlStdOperatorTable.PLUS, last, gapLiteral),
                rex.makeLiteral(false)));
        return LogicalProject.create(
                withStart, List.of(), result, scan.getRowType().getFieldNames(), Set.of());
    }

    private static List<RexNode> columns(RexBuilder rex, RelNode input, int count) {
        List<RexNode> refs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            refs.add(rex.makeInputRef(input, i));
        }
        return refs;
    }

    /** {@code input}'s first {@code kept} columns (named as in the input) and the last of {@code exprs} as {@code name}. */
    private static RelNode project(RelNode input, List<RexNode> exprs, int kept, String name) {
        List<String> names = new ArrayList<>(input.getRowType().getFieldNames().subList(0, kept));
        names.add("$session_" + name);
        return LogicalProject.create(input, List.of(), exprs, names, Set.of());
    }

    /**
     * {@code function(args) OVER (PARTITION BY partition ORDER BY order)}, the frame running up to
     * the current row's peers when ordered, else the whole partition.
     */
    private static RexNode over(
            RexBuilder rex,
            RelDataType type,
            SqlAggFunction function,
            List<RexNode> args,
            List<? extends RexNode> partition,
            ImmutableList<RexFieldCollation> order,
            boolean rows) {
        boolean ordered = !order.isEmpty();
        return WindowCalls.over(
                rex,
                type,
                function,
                args,
                rex.makeWindow(
                        List.copyOf(partition),
                        order,
                        RexWindowBounds.UNBOUNDED_PRECEDING,
                        ordered ? RexWindowBounds.CURRENT_ROW : RexWindowBounds.UNBOUNDED_FOLLOWING,
                        rows && ordered));
    }
}
