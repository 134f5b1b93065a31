package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Names the unnamed select items of derived tables (a sub-query in FROM, a WITH query, a plain
 * view's query once {@link ViewExpansion} made it one) as PostgreSQL does ({@link ColumnLabels}):
 * {@code SELECT * FROM (SELECT count(*) FROM t) x} reads a column {@code count}, where Calcite
 * would name it {@code EXPR$0}. A derived table with a column list ({@code x(a, b)}) keeps its
 * list. An item whose label another item of the same list already has keeps Calcite's name:
 * Tributary refuses a derived table's duplicate names as ambiguous. Applied by the front end after
 * view expansion, before the other rewrites change the items; one instance per statement.
 */
final class DerivedTableLabels extends StatementRewrite {
    /** Where the parsed tree's nodes are in the client's text ({@link ColumnLabels#of(SqlNode, StatementPositions)}); null when unknown. */
    private final StatementPositions positions;

    /** @param positions where the statement's parsed tree is in the client's text, or null */
    DerivedTableLabels(StatementPositions positions) {
        this.positions = positions;
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select && select.getFrom() != null) {
            fromItem(select.getFrom());
        } else if (call instanceof SqlWithItem item && item.columnList == null) {
            name(item.query);
        }
        return super.visit(call);
    }

    /** Names the derived tables of a FROM item, through its joins and aliases. */
    private void fromItem(SqlNode from) {
        if (from instanceof SqlJoin join) {
            fromItem(join.getLeft());
            fromItem(join.getRight());
        } else if (from.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) from;
            // AS(query, alias, columns...): a column list names the columns itself
            if (as.operandCount() == 2) {
                fromItem(as.operand(0));
            }
        } else if (from.getKind() == SqlKind.LATERAL) {
            fromItem(((SqlCall) from).operand(0));
        } else if (from.isA(SqlKind.QUERY)) {
            name(from);
        }
    }

    /** Gives the unnamed items of {@code query}'s leftmost select their PostgreSQL labels. */
    private void name(SqlNode query) {
        SqlNode node = ColumnLabels.leftmostQuery(query);
        if (!(node instanceof SqlSelect select)) {
            return;
        }
        List<String> labels = ColumnLabels.of(select, positions);
        if (labels == null) {
            return;
        }
        SqlNodeList items = select.getSelectList();
        Set<String> taken = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            if (named(items.get(i)) && labels.get(i) != null) {
                taken.add(labels.get(i));
            }
        }
        List<SqlNode> out = new ArrayList<>(items.size());
        boolean changed = false;
        for (int i = 0; i < items.size(); i++) {
            SqlNode item = items.get(i);
            String label = labels.get(i);
            if (!named(item) && label != null && taken.add(label)) {
                SqlParserPos pos = item.getParserPosition();
                out.add(SqlStdOperatorTable.AS.createCall(pos, item, new SqlIdentifier(label, pos)));
                changed = true;
            } else {
                out.add(item);
            }
        }
        if (changed) {
            select.setSelectList(new SqlNodeList(out, items.getParserPosition()));
            rewritten(select);
        }
    }

    /** Whether Calcite names {@code item} itself: a column, a star or an item with an alias. */
    private static boolean named(SqlNode item) {
        return item instanceof SqlIdentifier || item.getKind() == SqlKind.AS;
    }
}
