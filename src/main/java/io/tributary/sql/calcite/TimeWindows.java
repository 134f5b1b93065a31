package io.tributary.sql.calcite;

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
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlWindowTableFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;

/**
 * Turns Calcite's time-window table functions into relational operators a view maintains without
 * state: {@code TUMBLE} is a projection adding {@code window_start} and {@code window_end};
 * {@code HOP} with {@code size = k * slide} is a UNION ALL of k such projections, the i-th giving
 * each row the window that starts i slides before the latest one containing it. A window starts at
 * {@code ts - ((ts - offset) mod slide)} (mod rounding down), as in RisingWave; a row whose time
 * is NULL is in no window. Called on the planning thread, by {@link StreamPlanBuilder} for views
 * and through {@link #expansion} by Calcite's planning of ad-hoc queries.
 */
final class TimeWindows {
    /**
     * The most windows a HOP may put a row in: each is a branch of the union, reading the input
     * once, so more would make plans (and work per row) grow without a bound the user sees.
     */
    static final int MAX_HOP_WINDOWS = 64;

    private TimeWindows() {}

    /**
     * A planning step for ad-hoc queries that replaces every window scan by {@link #expand} (SESSION
     * by {@link SessionWindows#expand}), so a SELECT gives the rows a view over the same query holds (Calcite's own HOP left out some of a row's windows in our tests).
     */
    static Program expansion() {
        return (planner, rel, traits, materializations, lattices) -> rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                if (visited instanceof TableFunctionScan scan && SessionWindows.isSession(scan)) {
                    return SessionWindows.expand(scan);
                }
                return visited instanceof TableFunctionScan scan && isWindow(scan)
                        ? expand(scan, scan.getCluster().getRexBuilder())
                        : visited;
            }
        });
    }

    /** Whether {@code scan} is a TUMBLE or HOP this class expands. */
    static boolean isWindow(TableFunctionScan scan) {
        return scan.getCall() instanceof RexCall call
                && call.getOperator() instanceof SqlWindowTableFunction
                && (isHop(call) || call.getOperator().getName().equalsIgnoreCase("TUMBLE"))
                && scan.getInputs().size() == 1;
    }

    private static boolean isHop(RexCall call) {
        return call.getOperator().getName().equalsIgnoreCase("HOP");
    }

    /**
     * The stateless equivalent of a window scan ({@link #isWindow}) over the same input.
     *
     * @throws TributaryException 42804 when the time column is not a timestamp, 22023 for a size
     *     that is not positive or (HOP) not a multiple of the slide, 0A000 for a HOP putting a row
     *     in more than {@link #MAX_HOP_WINDOWS} windows
     */
    static RelNode expand(TableFunctionScan scan, RexBuilder rexBuilder) {
        RexCall call = (RexCall) scan.getCall();
        boolean hop = isHop(call);
        String name = hop ? "hop" : "tumble";
        RelNode input = scan.getInputs().get(0);
        Operands operands = operands(call);
        RexInputRef time = operands.time();
        List<Long> millis = operands.millis();
        int sizes = hop ? 2 : 1;
        if (time == null || millis.size() < sizes) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, name + " needs a time column and constant sizes");
        }
        RelDataTypeField timeField = input.getRowType().getFieldList().get(time.getIndex());
        SqlTypeName timeType = timeField.getType().getSqlTypeName();
        if (timeType != SqlTypeName.TIMESTAMP && timeType != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            throw new TributaryException(
                    SqlState.DATATYPE_MISMATCH,
                    "the time column \"" + timeField.getName() + "\" of " + name + " is " + timeField.getType()
                            + ", not a timestamp");
        }
        long slide = millis.get(0);
        long size = hop ? millis.get(1) : slide;
        long offset = millis.size() > sizes ? millis.get(sizes) : 0;
        if (slide <= 0 || size <= 0) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, "the window size of " + name + " must be positive");
        }
        if (size % slide != 0) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, "the size of a hop window must be a multiple of its slide");
        }
        if (size / slide > MAX_HOP_WINDOWS) {
            throw TributaryException.notSupported(
                    "HOP with more than " + MAX_HOP_WINDOWS + " windows per row (size / slide)");
        }
        // window_start and window_end are NOT NULL: a row without a time is in no window
        RelNode timed = timeField.getType().isNullable()
                ? LogicalFilter.create(input, rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_NULL, time))
                : input;
        List<RelNode> branches = new ArrayList<>();
        for (long i = 0; i < size / slide; i++) {
            branches.add(windowed(scan, timed, time, rexBuilder, slide, size, offset, i * slide));
        }
        return branches.size() == 1 ? branches.get(0) : LogicalUnion.create(branches, true);
    }

    /** A window call's time column (null if missing) and its constant intervals in milliseconds, in order. */
    private record Operands(RexInputRef time, List<Long> millis) {}

    private static Operands operands(RexCall call) {
        RexInputRef time = null;
        List<Long> millis = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            if (operand instanceof RexCall d && d.getKind() == SqlKind.DESCRIPTOR) {
                time = (RexInputRef) d.getOperands().get(0);
            } else if (operand instanceof RexLiteral literal
                    && SqlTypeName.INTERVAL_TYPES.contains(literal.getTypeName())) {
                millis.add(literal.getValueAs(BigDecimal.class).longValueExact());
            }
        }
        return new Operands(time, millis);
    }

    /**
     * The time column (a field of the scan's input) of a window scan that {@link #expand} accepted,
     * and its window size in milliseconds (HOP's second interval, TUMBLE's first).
     */
    record TimeAndSize(int timeColumn, long sizeMillis) {}

    /** See {@link TimeAndSize}; call only after {@link #expand} succeeded on {@code scan}. */
    static TimeAndSize timeAndSize(TableFunctionScan scan) {
        RexCall call = (RexCall) scan.getCall();
        Operands operands = operands(call);
        return new TimeAndSize(operands.time().getIndex(), operands.millis().get(isHop(call) ? 1 : 0));
    }

    /** {@code input} with the window that starts {@code back} before the latest one holding each row. */
    private static RelNode windowed(
            TableFunctionScan scan,
            RelNode input,
            RexInputRef time,
            RexBuilder rex,
            long slide,
            long size,
            long offset,
            long back) {
        List<RelDataTypeField> out = scan.getRowType().getFieldList();
        RelDataType timeType =
                input.getRowType().getFieldList().get(time.getIndex()).getType();
        RelDataType bigint = rex.getTypeFactory()
                .createTypeWithNullability(
                        rex.getTypeFactory().createSqlType(SqlTypeName.BIGINT), timeType.isNullable());
        RexNode t = rex.makeReinterpretCast(bigint, time, rex.makeLiteral(false));
        RexNode shifted = minus(rex, t, offset);
        RexNode within = mod(rex, plus(rex, mod(rex, shifted, slide), slide), slide);
        RexNode start = minus(rex, rex.makeCall(SqlStdOperatorTable.MINUS, t, within), back);
        RexNode end = plus(rex, start, size);
        List<RexNode> exprs = new ArrayList<>();
        int width = input.getRowType().getFieldCount();
        for (int i = 0; i < width; i++) {
            exprs.add(rex.makeInputRef(input, i));
        }
        exprs.add(rex.makeReinterpretCast(out.get(width).getType(), start, rex.makeLiteral(false)));
        exprs.add(rex.makeReinterpretCast(out.get(width + 1).getType(), end, rex.makeLiteral(false)));
        return LogicalProject.create(input, List.of(), exprs, scan.getRowType().getFieldNames(), Set.of());
    }

    private static RexNode plus(RexBuilder rex, RexNode a, long b) {
        return rex.makeCall(SqlStdOperatorTable.PLUS, a, rex.makeBigintLiteral(BigDecimal.valueOf(b)));
    }

    private static RexNode minus(RexBuilder rex, RexNode a, long b) {
        return rex.makeCall(SqlStdOperatorTable.MINUS, a, rex.makeBigintLiteral(BigDecimal.valueOf(b)));
    }

    private static RexNode mod(RexBuilder rex, RexNode a, long b) {
        return rex.makeCall(SqlStdOperatorTable.MOD, a, rex.makeBigintLiteral(BigDecimal.valueOf(b)));
    }
}
