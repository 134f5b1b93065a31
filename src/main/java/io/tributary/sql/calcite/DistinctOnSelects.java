package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.util.Litmus;
import org.apache.calcite.util.Util;

/**
 * Gives {@code SELECT DISTINCT ON (a, b) ... ORDER BY ...} PostgreSQL's meaning in a parsed tree:
 * the first row of each group of rows equal on {@code a, b}, first in the query's ORDER BY. The
 * marker item {@link DistinctOnText} put first in the select list is taken out and becomes the
 * select's {@code QUALIFY row_number() OVER (PARTITION BY a, b ORDER BY <the query's ORDER BY>) =
 * 1}, which Calcite plans as a window and a filter; the ORDER BY itself stays. Output positions
 * ({@code ORDER BY 1}) and output names in the DISTINCT ON list and the ORDER BY mean the select
 * items they name, as in PostgreSQL. As PostgreSQL does, refuses with 42P10 an ORDER BY whose
 * leading items are not the DISTINCT ON expressions (matched as written, with a qualified column
 * matching the same unqualified name). Called on the session's (or the view planner's) thread
 * right after parsing, before labels are taken; changes the tree in place.
 */
final class DistinctOnSelects extends SqlBasicVisitor<Void> {
    private boolean changed;

    private DistinctOnSelects() {}

    /**
     * Rewrites every DISTINCT ON select of {@code node} in place.
     *
     * @return whether there was one
     * @throws TributaryException 42P10 as described above; 0A000 for an output position naming a
     *     column of a {@code *}
     */
    static boolean apply(SqlNode node) {
        if (node == null) {
            return false;
        }
        DistinctOnSelects pass = new DistinctOnSelects();
        node.accept(pass);
        return pass.changed;
    }

    @Override
    public Void visit(SqlCall call) {
        if (call instanceof SqlOrderBy orderBy && orderBy.query instanceof SqlSelect select) {
            rewrite(select, orderBy.orderList);
        } else if (call instanceof SqlSelect select) {
            rewrite(select, select.getOrderList());
        }
        return super.visit(call);
    }

    private void rewrite(SqlSelect select, SqlNodeList orderList) {
        SqlNodeList items = select.getSelectList();
        SqlNode first = items == null || items.isEmpty() ? null : items.get(0);
        if (!(first instanceof SqlCall as) || as.getKind() != SqlKind.AS || !isMarker(as.operand(0))) {
            return;
        }
        changed = true;
        List<SqlNode> outputs = new ArrayList<>(items.getList().subList(1, items.size()));
        SqlCall marker = as.operand(0);
        List<SqlNode> keys = new ArrayList<>();
        for (SqlNode key : marker.getOperandList()) {
            keys.add(resolve(key, outputs, "DISTINCT ON"));
        }
        List<SqlNode> order = new ArrayList<>();
        if (orderList != null) {
            for (SqlNode item : orderList) {
                order.add(resolveOrderItem(item, outputs));
            }
        }
        checkLeadingOrder(keys, order);
        SqlParserPos pos = marker.getParserPosition();
        SqlWindow window = SqlWindow.create(
                null,
                null,
                new SqlNodeList(keys, pos),
                new SqlNodeList(order, pos),
                SqlLiteral.createBoolean(false, pos),
                null,
                null,
                null,
                pos);
        SqlNode rowNumber =
                SqlStdOperatorTable.OVER.createCall(pos, SqlStdOperatorTable.ROW_NUMBER.createCall(pos), window);
        SqlNode firstOfGroup =
                SqlStdOperatorTable.EQUALS.createCall(pos, rowNumber, SqlLiteral.createExactNumeric("1", pos));
        select.setSelectList(new SqlNodeList(outputs, items.getParserPosition()));
        select.setQualify(
                select.getQualify() == null
                        ? firstOfGroup
                        : SqlStdOperatorTable.AND.createCall(pos, select.getQualify(), firstOfGroup));
    }

    private static boolean isMarker(SqlNode node) {
        return node instanceof SqlBasicCall call
                && call.getOperator().getName().equalsIgnoreCase(DistinctOnText.MARKER);
    }

    /** An ORDER BY item with its expression resolved, keeping DESC and NULLS FIRST/LAST around it. */
    private static SqlNode resolveOrderItem(SqlNode item, List<SqlNode> outputs) {
        if (item instanceof SqlCall call
                && (call.getKind() == SqlKind.DESCENDING
                        || call.getKind() == SqlKind.NULLS_FIRST
                        || call.getKind() == SqlKind.NULLS_LAST)) {
            return call.getOperator().createCall(call.getParserPosition(), resolveOrderItem(call.operand(0), outputs));
        }
        return resolve(item, outputs, "ORDER BY");
    }

    /** The expression {@code node} means: a select item for an output position or name, else itself. */
    private static SqlNode resolve(SqlNode node, List<SqlNode> outputs, String clause) {
        if (node instanceof SqlNumericLiteral number && number.isInteger()) {
            java.math.BigDecimal position = number.bigDecimalValue();
            int index = position.intValueExact() - 1;
            for (int i = 0; i <= index && i < outputs.size(); i++) {
                if (outputs.get(i) instanceof SqlIdentifier id && id.isStar()) {
                    throw TributaryException.notSupported("a position after * in DISTINCT ON or its ORDER BY");
                }
            }
            if (index < 0 || index >= outputs.size()) {
                throw new TributaryException(
                        SqlState.INVALID_COLUMN_REFERENCE,
                        clause + " position " + position.toPlainString() + " is not in select list");
            }
            return expression(outputs.get(index));
        }
        if (node instanceof SqlIdentifier id && id.isSimple()) {
            for (SqlNode output : outputs) {
                if (output instanceof SqlCall as
                        && as.getKind() == SqlKind.AS
                        && ((SqlIdentifier) as.operand(1)).getSimple().equals(id.getSimple())) {
                    return as.operand(0);
                }
            }
        }
        return node;
    }

    private static SqlNode expression(SqlNode output) {
        return output instanceof SqlCall as && as.getKind() == SqlKind.AS ? as.operand(0) : output;
    }

    /**
     * PostgreSQL's rule: the ORDER BY items that are DISTINCT ON expressions come before any that
     * is not, and when one is not, every DISTINCT ON expression is among the ORDER BY items.
     */
    private static void checkLeadingOrder(List<SqlNode> keys, List<SqlNode> order) {
        boolean skipped = false;
        boolean[] ordered = new boolean[keys.size()];
        for (SqlNode item : order) {
            int key = indexOf(keys, unwrap(item));
            if (key < 0) {
                skipped = true;
            } else if (skipped) {
                throw mismatch();
            } else {
                ordered[key] = true;
            }
        }
        for (int k = 0; k < keys.size(); k++) {
            if (skipped && !ordered[k] && indexOf(keys.subList(0, k), keys.get(k)) < 0) {
                throw mismatch();
            }
        }
    }

    private static TributaryException mismatch() {
        return new TributaryException(
                SqlState.INVALID_COLUMN_REFERENCE,
                "SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
    }

    private static SqlNode unwrap(SqlNode item) {
        SqlNode node = item;
        while (node instanceof SqlCall call
                && (call.getKind() == SqlKind.DESCENDING
                        || call.getKind() == SqlKind.NULLS_FIRST
                        || call.getKind() == SqlKind.NULLS_LAST)) {
            node = call.operand(0);
        }
        return node;
    }

    private static int indexOf(List<SqlNode> keys, SqlNode node) {
        for (int i = 0; i < keys.size(); i++) {
            if (same(keys.get(i), node)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean same(SqlNode a, SqlNode b) {
        if (a instanceof SqlIdentifier x && b instanceof SqlIdentifier y && !x.isStar() && !y.isStar()) {
            return (x.isSimple() || y.isSimple())
                    ? Util.last(x.names).equals(Util.last(y.names))
                    : x.names.equals(y.names);
        }
        return a.equalsDeep(b, Litmus.IGNORE);
    }
}
