package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Gives each sub-query that is an operand of an expression a shape Calcite writes back in parentheses.
 * Calcite unparses a plain SELECT operand in parentheses, but a query with ORDER BY, LIMIT or OFFSET
 * (a {@link SqlOrderBy}), a set operation or a WITH query bare under CASE and the infix cast: {@code
 * CASE WHEN c THEN (SELECT a FROM t LIMIT 1) END} came back as {@code CASE WHEN c THEN SELECT a FROM t
 * FETCH NEXT 1 ROWS ONLY END}, and {@code (SELECT a FROM t LIMIT 1)::oid} with the cast inside the
 * sub-query, neither of which parses again. psql's {@code \d} of a table with foreign keys sends such
 * queries. An ORDER BY over a SELECT becomes that SELECT's own ORDER BY, LIMIT and OFFSET (what Calcite's
 * validator does with it anyway); any other such query becomes {@code SELECT * FROM (query)}.
 *
 * <p>Used by {@link CalciteFrontend#unparse} on every tree written back to text; returns a copy where it
 * changes something and leaves the given tree as it was.
 */
final class QueryOperandParentheses extends SqlShuttle {
    private QueryOperandParentheses() {}

    /** {@code node} with its expression operands that are bare queries given their own SELECT. */
    static SqlNode apply(SqlNode node) {
        return node.accept(new QueryOperandParentheses());
    }

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall c) || isQueryPart(c)) {
            return visited;
        }
        List<SqlNode> operands = c.getOperandList();
        SqlCall copy = null;
        for (int i = 0; i < operands.size(); i++) {
            SqlNode operand = operands.get(i);
            if (writtenBare(operand)) {
                if (copy == null) {
                    copy = (SqlCall) c.clone(c.getParserPosition());
                }
                copy.setOperand(i, ownSelect(operand));
            }
        }
        return copy == null ? visited : copy;
    }

    /** A list of expressions (CASE's WHEN and THEN lists, a select list) with its bare queries given a SELECT. */
    @Override
    public SqlNode visit(SqlNodeList list) {
        SqlNode visited = super.visit(list);
        if (!(visited instanceof SqlNodeList items)) {
            return visited;
        }
        SqlNodeList copy = null;
        for (int i = 0; i < items.size(); i++) {
            if (writtenBare(items.get(i))) {
                if (copy == null) {
                    copy = new SqlNodeList(items.getList(), items.getParserPosition());
                }
                copy.set(i, ownSelect(items.get(i)));
            }
        }
        return copy == null ? visited : copy;
    }

    /** Calls whose query operands are written in their place: queries, set operations, FROM items. */
    private static boolean isQueryPart(SqlCall call) {
        return call.isA(SqlKind.QUERY)
                || call.getKind() == SqlKind.AS
                || call.getKind() == SqlKind.WITH_ITEM
                || call.getKind() == SqlKind.LATERAL
                || call.getKind() == SqlKind.COLLECTION_TABLE
                || call.getKind() == SqlKind.EXPLAIN
                || call.isA(SqlKind.DML);
    }

    /** A query that Calcite writes without parentheses of its own when it is an operand. */
    private static boolean writtenBare(SqlNode operand) {
        return operand != null && operand.isA(SqlKind.QUERY) && !(operand instanceof SqlSelect);
    }

    private static SqlNode ownSelect(SqlNode query) {
        SqlParserPos pos = query.getParserPosition();
        if (query instanceof SqlOrderBy orderBy
                && orderBy.query instanceof SqlSelect inner
                && inner.getOrderList() == null
                && inner.getOffset() == null
                && inner.getFetch() == null) {
            SqlSelect select = (SqlSelect) inner.clone(inner.getParserPosition());
            select.setOrderBy(orderBy.orderList.size() == 0 ? null : orderBy.orderList);
            select.setOffset(orderBy.offset);
            select.setFetch(orderBy.fetch);
            return select;
        }
        return new SqlSelect(
                pos,
                null,
                SqlNodeList.of(SqlIdentifier.star(pos)),
                query,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }
}
