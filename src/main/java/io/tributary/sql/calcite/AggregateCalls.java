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
     * Whether {@code select} is an aggregate query with one group, whatever its FROM and WHERE
     * give: no GROUP BY (or {@code GROUP BY ()}), an aggregate call in its list or a HAVING, no
     * window function and no {@code *} in its list.
     */
    static boolean isSingleGroup(SqlSelect select) {
        if (!emptyGrouping(select.getGroup())) {
            return false;
        }
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlIdentifier id && id.isStar() || containsOver(item)) {
                return false;
            }
        }
        return select.getHaving() != null || containsAggregate(select.getSelectList());
    }

    private static boolean emptyGrouping(SqlNodeList group) {
        if (group == null) {
            return true;
        }
        for (SqlNode key : group) {
            boolean empty = key instanceof SqlNodeList list && list.isEmpty()
                    || key instanceof SqlCall call && call.operandCount() == 0;
            if (!empty) {
                return false;
            }
        }
        return true;
    }

    private static boolean containsOver(SqlNode node) {
        if (!(node instanceof SqlCall call) || node instanceof SqlSelect) {
            return false;
        }
        if (call.getKind() == SqlKind.OVER) {
            return true;
        }
        for (SqlNode operand : call.getOperandList()) {
            if (operand != null && containsOver(operand)) {
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
