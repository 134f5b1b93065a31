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
     * Whether {@code select} is an aggregate query without groups whose every select item is an
     * aggregate call (with FILTER, an alias, or both): no GROUP BY, HAVING, LIMIT or OFFSET. Such a
     * query gives exactly one row, whatever its FROM and WHERE give. Items that compute with the
     * aggregates ({@code coalesce(sum(x), 0)}) do not count: Calcite decorrelates those wrongly in
     * a LEFT JOIN LATERAL, which is what {@link AggregateLateralJoins} would make of them.
     */
    static boolean isPlainSingleGroup(SqlSelect select) {
        if (select.getGroup() != null
                || select.getHaving() != null
                || select.getFetch() != null
                || select.getOffset() != null) {
            return false;
        }
        for (SqlNode item : select.getSelectList()) {
            if (!isAggregateItem(item)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAggregateItem(SqlNode item) {
        SqlNode node = item;
        if (node instanceof SqlCall as && as.getKind() == SqlKind.AS) {
            node = as.operand(0);
        }
        if (node instanceof SqlCall filter && filter.getKind() == SqlKind.FILTER) {
            node = filter.operand(0);
        }
        return node instanceof SqlCall call && call.getKind() != SqlKind.OVER && isAggregate(call) && !nested(call);
    }

    /** Whether an operand of {@code call} holds another aggregate call or a sub-query. */
    private static boolean nested(SqlCall call) {
        for (SqlNode operand : call.getOperandList()) {
            if (operand instanceof SqlSelect || operand != null && containsAggregate(operand)) {
                return true;
            }
        }
        return false;
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
