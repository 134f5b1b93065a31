package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.sql.SqlAggFunction;

/**
 * Window calls made through Calcite's thirteen-part {@link RexBuilder#makeOver}: a planning step's
 * copy of an existing {@link RexOver} with its partition keys or its function replaced, or a new
 * call over a window. Each is made as {@code SqlToRelConverter} makes a plain window call: partial
 * windows allowed and no NULL forced for an empty one (a CASE on the window's count), so a rewrite
 * changes only the parts it names. Used on the planning thread; stateless.
 */
final class WindowCalls {
    private WindowCalls() {}

    /** {@code over} partitioned by {@code partitionKeys}, all else kept. */
    static RexNode withPartitionKeys(RexBuilder rex, RexOver over, List<RexNode> partitionKeys) {
        RexWindow window = over.getWindow();
        return copied(
                rex,
                over,
                over.getAggOperator(),
                over.getOperands(),
                rex.makeWindow(
                        partitionKeys,
                        window.orderKeys,
                        window.getLowerBound(),
                        window.getUpperBound(),
                        window.isRows(),
                        window.getExclude()));
    }

    /** {@code over} calling {@code function} on {@code operands}, of the same type over the same window. */
    static RexNode withFunction(RexBuilder rex, RexOver over, SqlAggFunction function, List<RexNode> operands) {
        return copied(rex, over, function, operands, over.getWindow());
    }

    /**
     * {@code function(operands) OVER window} of {@code type}, neither DISTINCT nor IGNORE NULLS;
     * {@code window} is {@link RexBuilder#makeWindow}'s.
     */
    static RexNode over(
            RexBuilder rex, RelDataType type, SqlAggFunction function, List<RexNode> operands, RexWindow window) {
        return made(rex, type, function, operands, window, false, false);
    }

    /** {@code over}'s type, DISTINCT and IGNORE NULLS with the other parts given. */
    private static RexNode copied(
            RexBuilder rex, RexOver over, SqlAggFunction function, List<RexNode> operands, RexWindow window) {
        return made(rex, over.getType(), function, operands, window, over.isDistinct(), over.ignoreNulls());
    }

    private static RexNode made(
            RexBuilder rex,
            RelDataType type,
            SqlAggFunction function,
            List<RexNode> operands,
            RexWindow window,
            boolean distinct,
            boolean ignoreNulls) {
        return rex.makeOver(
                type,
                function,
                operands,
                window.partitionKeys,
                window.orderKeys,
                window.getLowerBound(),
                window.getUpperBound(),
                window.getExclude(),
                window.isRows(),
                true,
                false,
                distinct,
                ignoreNulls);
    }
}
