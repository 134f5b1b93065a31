package io.tributary.sql.calcite;

import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code percent_rank()} and {@code cume_dist()} over a window written in place, which Calcite
 * validates but cannot run (its enumerable windows have no implementation of either: an internal
 * error), as the window functions it runs, with PostgreSQL's definitions: {@code percent_rank} is
 * {@code (rank - 1) / (rows in the partition - 1)}, 0 for a partition of one row, and {@code
 * cume_dist} is the rows up to the current row's last peer over the rows in the partition, both
 * double precision; a window named in the WINDOW clause is read from there. Applied by {@link
 * StatementRewrite#applyAll} on the planning thread, one instance per statement.
 */
final class WindowDistributionCalls extends StatementRewrite {
    /** The WINDOW clauses of the SELECTs being visited, innermost first. */
    private final Deque<SqlNodeList> windowClauses = new ArrayDeque<>();

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select) {
            windowClauses.push(select.getWindowList());
            try {
                return super.visit(call);
            } finally {
                windowClauses.pop();
            }
        }
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall over)
                || over.getKind() != SqlKind.OVER
                || !(over.operand(0) instanceof SqlCall function)
                || function.operandCount() != 0) {
            return visited;
        }
        SqlWindow window = resolved(over.operand(1));
        if (window == null) {
            return visited;
        }
        SqlParserPos pos = over.getParserPosition();
        // before validation the call may be an unresolved function: known by its name
        String name = function.getOperator().getName();
        if (name.equalsIgnoreCase("percent_rank")) {
            if (window.getOrderList().size() == 0) {
                return rewritten(asDouble(SqlLiteral.createExactNumeric("0", pos), pos)); // every row is a peer
            }
            SqlNode rows = rowsInPartition(window, pos);
            SqlNode rank = SqlStdOperatorTable.OVER.createCall(
                    pos, SqlStdOperatorTable.RANK.createCall(pos), unframed(window, window.getOrderList(), pos));
            SqlNode fraction = SqlStdOperatorTable.DIVIDE.createCall(
                    pos,
                    asDouble(SqlStdOperatorTable.MINUS.createCall(pos, rank, one(pos)), pos),
                    SqlStdOperatorTable.MINUS.createCall(pos, rowsInPartition(window, pos), one(pos)));
            return rewritten(SqlStdOperatorTable.CASE.createCall(
                    null,
                    pos,
                    null,
                    SqlNodeList.of(SqlStdOperatorTable.GREATER_THAN.createCall(pos, rows, one(pos))),
                    SqlNodeList.of(fraction),
                    asDouble(SqlLiteral.createExactNumeric("0", pos), pos)));
        }
        if (name.equalsIgnoreCase("cume_dist")) {
            // the default frame of an ordered window ends at the current row's last peer
            SqlWindow upToPeers = unframed(window, window.getOrderList(), pos);
            SqlNode rowsUpToPeers = SqlStdOperatorTable.OVER.createCall(pos, countStar(pos), upToPeers);
            return rewritten(SqlStdOperatorTable.DIVIDE.createCall(
                    pos, asDouble(rowsUpToPeers, pos), rowsInPartition(window, pos)));
        }
        return visited;
    }

    /**
     * The window {@code spec} stands for, with its partition and order: written in place, named
     * in the WINDOW clause, or in place over a named one ({@code OVER (w ORDER BY x)}); null when
     * no WINDOW clause of the enclosing SELECTs declares the name, the declaration refers on, or
     * both order their rows.
     */
    private SqlWindow resolved(SqlNode spec) {
        if (spec instanceof SqlIdentifier name) {
            return declared(name);
        }
        if (!(spec instanceof SqlWindow window)) {
            return null;
        }
        if (window.getRefName() == null) {
            return window;
        }
        return over(declared(window.getRefName()), window);
    }

    /**
     * Window {@code w} written over {@code base}: its partition, and {@code w}'s order or else
     * {@code base}'s; null without a base, or when both order their rows (validation's 42P20).
     */
    private static SqlWindow over(SqlWindow base, SqlWindow w) {
        if (base == null || base.getOrderList().size() > 0 && w.getOrderList().size() > 0) {
            return null;
        }
        SqlNodeList order = w.getOrderList().size() > 0 ? w.getOrderList() : base.getOrderList();
        return unframed(base, order, w.getParserPosition());
    }

    /**
     * The window {@code name} declares in the innermost SELECT's WINDOW clause (a name is not seen
     * from a sub-query), one declared over another taking that one's partition and, unless it has
     * its own, order; null when none is declared, or both order their rows.
     */
    private SqlWindow declared(SqlIdentifier name) {
        SqlNodeList clause = windowClauses.peek();
        return clause == null ? null : declared(clause, name, clause.size());
    }

    /** {@link #declared(SqlIdentifier)} in {@code clause}, following at most {@code hops} more references (no cycles). */
    private static SqlWindow declared(SqlNodeList clause, SqlIdentifier name, int hops) {
        for (SqlNode node : clause) {
            if (!(node instanceof SqlWindow w)
                    || w.getDeclName() == null
                    || !w.getDeclName().getSimple().equals(name.getSimple())) {
                continue;
            }
            if (w.getRefName() == null) {
                return w;
            }
            return over(hops > 0 ? declared(clause, w.getRefName(), hops - 1) : null, w);
        }
        return null;
    }

    /** {@code count(*)} over {@code window}'s partition, unordered: the rows of the current row's partition. */
    private static SqlNode rowsInPartition(SqlWindow window, SqlParserPos pos) {
        return SqlStdOperatorTable.OVER.createCall(pos, countStar(pos), unframed(window, SqlNodeList.EMPTY, pos));
    }

    /**
     * {@code window}'s partition ordered by {@code order}, with no frame written: the function's own
     * definition ignores the frame, and Calcite refuses RANK with one.
     */
    private static SqlWindow unframed(SqlWindow window, SqlNodeList order, SqlParserPos pos) {
        return SqlWindow.create(
                null,
                null,
                window.getPartitionList().clone(pos),
                order.clone(pos),
                SqlLiteral.createBoolean(false, pos),
                null,
                null,
                null,
                pos);
    }

    private static SqlNode countStar(SqlParserPos pos) {
        return SqlStdOperatorTable.COUNT.createCall(pos, SqlIdentifier.star(pos));
    }

    private static SqlNode one(SqlParserPos pos) {
        return SqlLiteral.createExactNumeric("1", pos);
    }

    private static SqlNode asDouble(SqlNode value, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(
                pos, value, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DOUBLE, pos), pos));
    }
}
