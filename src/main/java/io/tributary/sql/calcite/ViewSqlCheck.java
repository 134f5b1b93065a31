package io.tributary.sql.calcite;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Rejects, on the validated query, the window functions and aggregate functions a view cannot
 * maintain, naming them as the user wrote them (the conversion to relational algebra renames some,
 * e.g. {@code string_agg} becomes {@code LISTAGG}). The stream planner checks again on what it
 * translates; this check only gives the better message.
 */
final class ViewSqlCheck extends SqlBasicVisitor<Void> {
    /** AVG is maintained as SUM / COUNT; BOOL_AND, EVERY and their kin are MIN and MAX over booleans. */
    private static final Set<SqlKind> AGGREGATES =
            EnumSet.of(SqlKind.COUNT, SqlKind.SUM, SqlKind.SUM0, SqlKind.MIN, SqlKind.MAX, SqlKind.AVG);

    /** What {@link WindowPlans} computes, besides the aggregates above. */
    private static final Set<SqlKind> WINDOW_FUNCTIONS = EnumSet.of(
            SqlKind.ROW_NUMBER,
            SqlKind.RANK,
            SqlKind.DENSE_RANK,
            SqlKind.LAG,
            SqlKind.LEAD,
            SqlKind.FIRST_VALUE,
            SqlKind.LAST_VALUE,
            SqlKind.COUNT,
            SqlKind.SUM,
            SqlKind.SUM0,
            SqlKind.MIN,
            SqlKind.MAX,
            SqlKind.AVG);

    private final StatementPositions positions;

    /** @param positions where the checked tree's nodes are in the client's text */
    ViewSqlCheck(StatementPositions positions) {
        this.positions = positions;
    }

    @Override
    public Void visit(SqlCall call) {
        SqlOperator op = call.getOperator();
        if (call.getKind() == SqlKind.OVER) {
            SqlCall functionCall = call.operand(0);
            if (functionCall.getKind() == SqlKind.IGNORE_NULLS) {
                throw UnsupportedInViews.error(
                        "IGNORE NULLS is", position(((SqlCall) functionCall.operand(0)).getParserPosition()));
            }
            SqlOperator function = functionCall.getOperator();
            if (functionCall.getFunctionQuantifier() != null
                    && functionCall.getFunctionQuantifier().getValue() == SqlSelectKeyword.DISTINCT) {
                // PostgreSQL refuses it too (0A000), pointing at the call
                throw UnsupportedInViews.error(
                        "DISTINCT in window functions is", position(functionCall.getParserPosition()));
            }
            if (!WINDOW_FUNCTIONS.contains(function.getKind())) {
                throw UnsupportedInViews.error(
                        "the window function " + function.getName().toLowerCase(Locale.ROOT) + " is",
                        position(functionCall.getParserPosition()));
            }
            if (call.operand(1) instanceof SqlWindow window) {
                checkFrame(window);
            }
            // the function itself is checked above, not as an aggregate: visit what it reads
            for (SqlNode operand : ((SqlCall) call.operand(0)).getOperandList()) {
                if (operand != null) {
                    operand.accept(this);
                }
            }
            return call.operand(1).accept(this);
        }
        // sum(interval), as IntervalCalls names it, is a stream aggregate (IntervalSumAccumulator)
        if (op.isAggregator()
                && !AGGREGATES.contains(op.getKind())
                && !op.getName().equalsIgnoreCase("pg_interval_sum")) {
            throw UnsupportedInViews.error(
                    "the aggregate function " + IntervalCalls.pgName(op.getName()) + " is",
                    position(call.getParserPosition()));
        }
        return super.visit(call);
    }

    /** A RANGE frame may only be bounded by UNBOUNDED and CURRENT ROW: offsets need ORDER BY arithmetic. */
    private void checkFrame(SqlWindow window) {
        SqlLiteral exclude = window.getExclude();
        if (exclude != null && !SqlWindow.isExcludeNoOthers(exclude)) {
            SqlParserPos at = exclude.getParserPosition().getLineNum() > 0
                    ? exclude.getParserPosition()
                    : window.getParserPosition();
            throw UnsupportedInViews.error("window frames with EXCLUDE are", position(at));
        }
        if (window.isRows()) {
            return;
        }
        for (SqlNode bound : new SqlNode[] {window.getLowerBound(), window.getUpperBound()}) {
            if (bound != null
                    && !SqlWindow.isUnboundedPreceding(bound)
                    && !SqlWindow.isUnboundedFollowing(bound)
                    && !SqlWindow.isCurrentRow(bound)) {
                throw UnsupportedInViews.error("RANGE frames with an offset are", position(bound.getParserPosition()));
            }
        }
    }

    private int position(SqlParserPos pos) {
        return positions.offset(pos);
    }
}
