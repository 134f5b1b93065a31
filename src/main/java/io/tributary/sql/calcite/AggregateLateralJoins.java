package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code FROM a, LATERAL (SELECT sum(x) FROM b WHERE b.k = a.k) s} (or {@code CROSS JOIN LATERAL},
 * or {@code JOIN LATERAL ... ON true}) over a sub-query that aggregates without GROUP BY, each item
 * an aggregate call, as the equivalent {@code LEFT JOIN LATERAL ... ON true}. Such a sub-query gives exactly one row for every
 * row of {@code a}, so both joins keep every row of {@code a}; but Calcite decorrelates the inner
 * form into a join with the sub-query grouped by {@code b.k}, which has no row for a key without
 * matches, and so dropped the rows of {@code a} that PostgreSQL answers with NULL (it got it right
 * only when a count was among the aggregates). The outer form it decorrelates correctly.
 *
 * <p>Also refuses (0A000) a LATERAL sub-query whose select list has a window function and whose
 * conditions name a relation of the outer query ({@link OuterReferences}): Calcite's decorrelation computes
 * the window over all the sub-query's rows and applies the correlated condition afterwards, so
 * {@code row_number() OVER ()} numbered every row of the table rather than those of the outer row.
 */
final class AggregateLateralJoins extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.LATERAL && windowedSelect(call.operand(0)) != null) {
            SqlSelect select = windowedSelect(call.operand(0));
            if (OuterReferences.filtersByOuter(select)) {
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "window functions in a LATERAL sub-query whose conditions refer to the outer query are not supported");
            }
        }
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlJoin join && isInnerAlways(join) && isSingleGroupLateral(join.getRight())) {
            SqlParserPos pos = join.getParserPosition();
            return rewritten(new SqlJoin(
                    pos,
                    join.getLeft(),
                    SqlLiteral.createBoolean(false, pos),
                    JoinType.LEFT.symbol(pos),
                    join.getRight(),
                    JoinConditionType.ON.symbol(pos),
                    SqlLiteral.createBoolean(true, pos)));
        }
        return visited;
    }

    /** {@code node} (a LATERAL operand, perhaps under AS) when it is a SELECT with a window function in its list, else null. */
    private static SqlSelect windowedSelect(SqlNode node) {
        SqlNode inner = node;
        while (inner instanceof SqlCall call && call.getKind() == SqlKind.AS) {
            inner = call.operand(0);
        }
        if (inner instanceof SqlOrderBy orderBy) {
            inner = orderBy.query;
        }
        return inner instanceof SqlSelect select && hasOver(select.getSelectList()) ? select : null;
    }

    private static boolean hasOver(SqlNode node) {
        if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                if (item != null && hasOver(item)) {
                    return true;
                }
            }
            return false;
        }
        if (!(node instanceof SqlCall call) || node instanceof SqlSelect) {
            return false;
        }
        if (call.getKind() == SqlKind.OVER) {
            return true;
        }
        for (SqlNode operand : call.getOperandList()) {
            if (operand != null && hasOver(operand)) {
                return true;
            }
        }
        return false;
    }

    /** A join that keeps a pair of rows whatever they hold: comma, CROSS, or INNER ... ON true. */
    private static boolean isInnerAlways(SqlJoin join) {
        if (join.isNatural()) {
            return false;
        }
        return switch (join.getJoinType()) {
            case COMMA, CROSS -> true;
            case INNER ->
                join.getConditionType() == JoinConditionType.ON
                        && join.getCondition() instanceof SqlLiteral literal
                        && Boolean.TRUE.equals(literal.getValueAs(Boolean.class));
            default -> false;
        };
    }

    /** Whether {@code node} is {@code LATERAL (query) [AS alias]} over a query that always gives one row. */
    private static boolean isSingleGroupLateral(SqlNode node) {
        boolean lateral = false;
        SqlNode inner = node;
        while (inner instanceof SqlCall call && (call.getKind() == SqlKind.AS || call.getKind() == SqlKind.LATERAL)) {
            lateral |= call.getKind() == SqlKind.LATERAL;
            inner = call.operand(0);
        }
        if (inner instanceof SqlOrderBy orderBy && orderBy.fetch == null && orderBy.offset == null) {
            inner = orderBy.query;
        }
        return lateral && inner instanceof SqlSelect select && AggregateCalls.isPlainSingleGroup(select);
    }
}
