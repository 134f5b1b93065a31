package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code LATERAL (SELECT sum(x) FROM b WHERE b.k = a.k)}, a LATERAL sub-query that aggregates with
 * one group (no GROUP BY, or {@code GROUP BY ()}), as {@code LATERAL (SELECT s FROM (SELECT sum(x) AS s,
 * count(*) FROM b WHERE b.k = a.k) one)}. Such a sub-query gives one row for every row of {@code a}
 * (or none that its HAVING rejects), but Calcite decorrelates it into a join with the sub-query
 * grouped by {@code b.k}, which has no row for a key without matches: the rows of {@code a} that
 * PostgreSQL answers with NULL were dropped, whatever joined the sub-query (comma, CROSS, JOIN ...
 * ON any condition, NATURAL), and HAVING, LIMIT or a UNION ALL of such queries did not help. Calcite
 * keeps those rows when the aggregates include a count, so each such query gets a count of its
 * own, which the derived table around it leaves out. The same holds for each branch of a set
 * operation, for a derived table the sub-query reads, and for a query with ORDER BY, LIMIT or
 * OFFSET, which the derived table keeps inside.
 */
final class AggregateLateralJoins extends StatementRewrite {
    /** The added count's name; {@code $} keeps it apart from anything a user writes unquoted. */
    private static final String COUNT = "$lateral_count";

    private static final String DERIVED = "$lateral_group";

    /** Whether {@link #counted} wrapped a query of the LATERAL sub-query it was last called for. */
    private boolean wrappedAny;

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlCall lateral && lateral.getKind() == SqlKind.LATERAL) {
            SqlNode operand = lateral.operand(0);
            wrappedAny = false;
            SqlNode counted = counted(operand);
            // a set operation or a derived table comes back as itself, with its branches replaced in
            // place: the statement changed all the same, and its text must be written again
            if (wrappedAny) {
                lateral.setOperand(0, counted);
                return rewritten(lateral);
            }
        }
        return visited;
    }

    /** {@code query} with its one-group aggregate queries counted, or {@code query} itself when it has none. */
    private SqlNode counted(SqlNode query) {
        if (query instanceof SqlSelect select) {
            if (AggregateCalls.isSingleGroup(select)) {
                return wrapped(select, select);
            }
            // SELECT * FROM (a UNION ALL b) x, as a set operation in LATERAL reaches here
            SqlNode from = select.getFrom();
            if (from != null && (from.isA(SqlKind.QUERY) || from.getKind() == SqlKind.AS)) {
                SqlNode replaced = counted(from);
                if (replaced != from) {
                    select.setFrom(replaced);
                    return select;
                }
            }
            return query;
        }
        if (query instanceof SqlOrderBy orderBy) {
            return orderBy.query instanceof SqlSelect select && AggregateCalls.isSingleGroup(select)
                    ? wrapped(select, orderBy)
                    : query;
        }
        if (query instanceof SqlCall call && (call.getKind() == SqlKind.AS || call.isA(SqlKind.SET_QUERY))) {
            boolean changed = false;
            int operands = call.getKind() == SqlKind.AS ? 1 : call.operandCount();
            for (int i = 0; i < operands; i++) {
                SqlNode operand = call.operand(i);
                SqlNode replaced = counted(operand);
                if (replaced != operand) {
                    call.setOperand(i, replaced);
                    changed = true;
                }
            }
            return changed ? call : query;
        }
        return query;
    }

    /**
     * {@code SELECT n1, ... FROM (whole) one} where {@code select} (the query of {@code whole}) has
     * its items named n1, ... (their own aliases, else generated names, which only a branch after
     * the first of a set operation, whose names nobody reads, or a duplicate label has) and a count.
     */
    private SqlNode wrapped(SqlSelect select, SqlNode whole) {
        wrappedAny = true;
        SqlParserPos pos = select.getParserPosition();
        List<SqlNode> inner = new ArrayList<>();
        List<SqlNode> outer = new ArrayList<>();
        SqlNodeList items = select.getSelectList();
        for (int i = 0; i < items.size(); i++) {
            SqlNode item = items.get(i);
            SqlParserPos itemPos = item.getParserPosition();
            String name;
            if (item.getKind() == SqlKind.AS) {
                name = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
                inner.add(item);
            } else {
                name = "$lateral_item" + i;
                inner.add(SqlStdOperatorTable.AS.createCall(itemPos, item, new SqlIdentifier(name, itemPos)));
            }
            outer.add(new SqlIdentifier(name, itemPos));
        }
        SqlCall count = SqlStdOperatorTable.COUNT.createCall(pos, SqlIdentifier.star(pos));
        inner.add(SqlStdOperatorTable.AS.createCall(pos, count, new SqlIdentifier(COUNT, pos)));
        select.setSelectList(new SqlNodeList(inner, items.getParserPosition()));
        SqlNode from = SqlStdOperatorTable.AS.createCall(pos, whole, new SqlIdentifier(DERIVED, pos));
        return new SqlSelect(
                pos, null, new SqlNodeList(outer, pos), from, null, null, null, null, null, null, null, null, null);
    }
}
