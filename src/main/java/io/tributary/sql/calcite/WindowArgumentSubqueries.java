package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.util.Util;

/**
 * Refuses a sub-query inside a window function's call, in its arguments, its FILTER or its
 * window's PARTITION BY or ORDER BY ({@code count(*) FILTER (WHERE id IN (SELECT 1)) OVER ()}),
 * with 0A000 naming the construct: PostgreSQL answers it, but Calcite's conversion of a windowed
 * aggregate finds no plan for a sub-query among its operands and failed with an internal error. Rewrites nothing. One instance per statement; applied before
 * {@link WindowAggregateFilters}, which moves a FILTER's condition into the arguments.
 */
final class WindowArgumentSubqueries extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.OVER && holdsQuery(call)) {
            throw TributaryException.notSupported("a sub-query in a window function's arguments, FILTER or window");
        }
        return super.visit(call);
    }

    private static boolean holdsQuery(SqlNode node) {
        try {
            node.accept(new SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlCall call) {
                    if (call.getKind().belongsTo(SqlKind.QUERY)) {
                        throw Util.FoundOne.NULL;
                    }
                    return super.visit(call);
                }
            });
            return false;
        } catch (Util.FoundOne found) {
            return true;
        }
    }
}
