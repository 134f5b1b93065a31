package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlNameMatchers;

/**
 * Refuses a window function inside an aggregate's arguments ({@code sum(row_number() OVER ())}) with
 * PostgreSQL's 42803, pointing at the window function. Calcite said 42601 (its nested aggregates'
 * message), and in a sub-query whose conditions name the outer query {@link CorrelatedWindowQueries}
 * refused it as unsupported (0A000), so it runs first. Aggregates are known by name, as the
 * statement is not yet validated. Called by {@link StatementRewrite#applyAll}; it changes nothing.
 */
final class WindowsInAggregates extends StatementRewrite {
    private static final SqlOperatorTable AGGREGATES =
            SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(SqlLibrary.STANDARD, SqlLibrary.POSTGRESQL);

    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() != SqlKind.OVER && aggregate(call.getOperator())) {
            for (SqlNode operand : call.getOperandList()) {
                SqlCall window = firstWindow(operand);
                if (window != null) {
                    throw PositionedError.at(
                            window.operand(0),
                            SqlState.GROUPING_ERROR,
                            "aggregate function calls cannot contain window function calls");
                }
            }
        }
        return super.visit(call);
    }

    private static boolean aggregate(SqlOperator operator) {
        if (!(operator instanceof SqlUnresolvedFunction unresolved)) {
            return operator.isAggregator();
        }
        List<SqlOperator> found = new ArrayList<>();
        AGGREGATES.lookupOperatorOverloads(
                unresolved.getSqlIdentifier(),
                SqlFunctionCategory.USER_DEFINED_FUNCTION,
                SqlSyntax.FUNCTION,
                found,
                SqlNameMatchers.withCaseSensitive(false));
        return found.stream().anyMatch(SqlOperator::isAggregator);
    }

    /** The first OVER call in {@code node}, not looking into sub-queries (a query level of their own); null if none. */
    private static SqlCall firstWindow(SqlNode node) {
        if (node == null) {
            return null;
        }
        SqlCall[] found = {null};
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (found[0] != null || call instanceof SqlSelect) {
                    return null;
                }
                if (call.getKind() == SqlKind.OVER) {
                    found[0] = call;
                    return null;
                }
                return super.visit(call);
            }
        });
        return found[0];
    }
}
