package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;

/**
 * Refuses the window frames {@code RANGE BETWEEN offset PRECEDING/FOLLOWING} that Calcite's
 * generated code computes wrongly: over a date ordered by an interval it subtracts the interval's
 * milliseconds from the date's day number (so every row fell into every frame), over a
 * descending key it gives NULL sums or counts, over a timestamp by an interval of months it counts
 * a month as its milliseconds, and over numeric keys it does not compile. What it computes as
 * PostgreSQL does passes: an integer offset over one ascending integer key, and an interval of days
 * and time over one ascending timestamp ({@link MicrosecondPlans} gives the offset in the key's
 * microseconds). A negative offset is PostgreSQL's 22013. A NULL key value still fails when the
 * rows are read, which {@code SqlErrors} reports as 0A000.
 * Anything else is 0A000 rather than a wrong answer or an internal error. A planning step of ad-hoc
 * queries, run on the planning thread over the converted plan, where a window function is still a
 * {@link RexOver} in a projection; stateless. Materialized views refuse every RANGE offset on their
 * own ({@code WindowPlans}).
 */
final class RangeFrameCheck extends RelVisitor {
    private RangeFrameCheck() {}

    /** A planning step that throws 0A000 for a plan with a RANGE offset frame it cannot answer; else passes the plan on. */
    static Program step() {
        return (planner, rel, traits, materializations, lattices) -> {
            new RangeFrameCheck().go(rel);
            return rel;
        };
    }

    @Override
    public void visit(RelNode node, int ordinal, RelNode parent) {
        if (node instanceof Project project) {
            for (RexNode e : project.getProjects()) {
                e.accept(new RexVisitorImpl<Void>(true) {
                    @Override
                    public Void visitOver(RexOver over) {
                        check(over.getWindow());
                        return super.visitOver(over);
                    }
                });
            }
        }
        super.visit(node, ordinal, parent);
    }

    private static void check(RexWindow window) {
        if (window.isRows() || !(hasOffset(window.getLowerBound()) || hasOffset(window.getUpperBound()))) {
            return;
        }
        // Calcite's validator has refused any other number of ORDER BY columns (SqlErrors: 42P20)
        RexFieldCollation key = window.orderKeys.get(0);
        boolean integer = isInteger(key.left.getType());
        if (window.orderKeys.size() != 1
                || !(integer || isTimestamp(key.left.getType()))
                || key.getDirection().isDescending()) {
            throw TributaryException.notSupported(
                    "RANGE with offset PRECEDING/FOLLOWING over anything but one ascending integer or timestamp ORDER BY"
                            + " column (ROWS frames are supported)");
        }
        checkOffset(window.getLowerBound(), integer);
        checkOffset(window.getUpperBound(), integer);
    }

    private static void checkOffset(RexWindowBound bound, boolean integerKey) {
        if (!hasOffset(bound)) {
            return;
        }
        if (!(bound.getOffset() instanceof RexLiteral literal)) {
            throw TributaryException.notSupported("RANGE with an offset that is not a constant");
        }
        if (integerKey ? !isInteger(literal.getType()) : !isDayTimeInterval(literal.getType())) {
            throw TributaryException.notSupported(
                    integerKey
                            ? "RANGE with an offset that is not an integer over an integer column"
                            : "RANGE over a timestamp with an offset that is not an interval of days and time (no months)");
        }
        Number n = integerKey ? literal.getValueAs(Number.class) : literal.getValueAs(Long.class);
        if (n != null && n.longValue() < 0) {
            throw new TributaryException(
                    SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE,
                    "invalid preceding or following size in window function");
        }
    }

    private static boolean hasOffset(RexWindowBound bound) {
        return bound != null && !bound.isCurrentRow() && !bound.isUnbounded();
    }

    private static boolean isTimestamp(RelDataType type) {
        SqlTypeName name = type.getSqlTypeName();
        return name == SqlTypeName.TIMESTAMP || name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    private static boolean isDayTimeInterval(RelDataType type) {
        return SqlTypeName.DAY_INTERVAL_TYPES.contains(type.getSqlTypeName());
    }

    private static boolean isInteger(RelDataType type) {
        SqlTypeName name = type.getSqlTypeName();
        return name == SqlTypeName.TINYINT
                || name == SqlTypeName.SMALLINT
                || name == SqlTypeName.INTEGER
                || name == SqlTypeName.BIGINT;
    }
}
