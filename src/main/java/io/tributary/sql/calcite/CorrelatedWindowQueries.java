package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Refuses (0A000) a query whose select list has a window function and whose conditions name a
 * relation of an outer query ({@link OuterReferences}): a LATERAL sub-query, a scalar sub-query in
 * a select list or WHERE, or a derived table inside one. Calcite's decorrelation computes the
 * window over all the query's rows and applies the correlated condition afterwards, so {@code
 * row_number() OVER (ORDER BY y)} numbered every row of the table rather than those of the outer
 * row, and {@code rank()} ranked them. Called by {@link StatementRewrite#applyAll} on the parsed
 * statement; it changes nothing.
 */
final class CorrelatedWindowQueries extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select
                && hasOver(select.getSelectList())
                && OuterReferences.filtersByOuter(select)) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "window functions in a sub-query whose conditions refer to the outer query are not supported");
        }
        return super.visit(call);
    }

    private static boolean hasOver(SqlNodeList items) {
        boolean[] found = {false};
        items.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.OVER) {
                    found[0] = true;
                } else if (!(call instanceof SqlSelect)) {
                    super.visit(call);
                }
                return null;
            }
        });
        return found[0];
    }
}
