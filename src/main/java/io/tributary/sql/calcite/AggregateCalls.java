package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlNameMatchers;

/**
 * Recognises aggregate function calls in a parsed, not yet validated statement, where a function
 * named by the user is still an unresolved call: it counts as an aggregate when Calcite's standard,
 * PostgreSQL or BigQuery library has an aggregate of that name. Stateless; any thread.
 */
final class AggregateCalls {
    private static final SqlOperatorTable FUNCTIONS = SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(
            SqlLibrary.STANDARD, SqlLibrary.POSTGRESQL, SqlLibrary.BIG_QUERY);

    private AggregateCalls() {}

    /** Whether {@code call} calls an aggregate function (windowed or not: the caller looks at OVER). */
    static boolean isAggregate(SqlCall call) {
        SqlOperator op = call.getOperator();
        if (op.isAggregator()) {
            return true;
        }
        if (op.getKind() != SqlKind.OTHER_FUNCTION) {
            return false;
        }
        List<SqlOperator> found = new ArrayList<>();
        FUNCTIONS.lookupOperatorOverloads(
                new SqlIdentifier(op.getName(), SqlParserPos.ZERO),
                SqlFunctionCategory.USER_DEFINED_FUNCTION,
                SqlSyntax.FUNCTION,
                found,
                SqlNameMatchers.withCaseSensitive(false));
        return found.stream().anyMatch(SqlOperator::isAggregator);
    }

    /**
     * Whether {@code select} is an aggregate query without groups: a select list with an aggregate
     * call (not one under OVER, not one in a sub-query), no GROUP BY and no HAVING. Such a query
     * gives exactly one row, whatever its FROM and WHERE give.
     */
    static boolean isSingleGroup(SqlSelect select) {
        return select.getGroup() == null
                && select.getHaving() == null
                && select.getFetch() == null
                && select.getOffset() == null
                && containsAggregate(select.getSelectList());
    }

    private static boolean containsAggregate(SqlNode node) {
        if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                if (item != null && containsAggregate(item)) {
                    return true;
                }
            }
            return false;
        }
        if (!(node instanceof SqlCall call) || node instanceof SqlSelect || call.getKind() == SqlKind.OVER) {
            return false;
        }
        if (isAggregate(call)) {
            return true;
        }
        for (SqlNode operand : call.getOperandList()) {
            if (operand != null && containsAggregate(operand)) {
                return true;
            }
        }
        return false;
    }
}
