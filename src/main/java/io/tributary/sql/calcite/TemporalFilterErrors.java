package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Positions for the refusals of the current time in a view ({@link ExpressionCompiler}'s "now other
 * than in a temporal filter", {@link TemporalFilters}' intervals of months): they are found on the
 * relational plan, which has no positions, so the construct is looked up in the view's parsed
 * tree. A position is given only when the tree has exactly one candidate (one current-time call,
 * one year-month interval), so it is never a guess. Called by {@link CalciteViewPlanner} on the
 * planning thread.
 */
final class TemporalFilterErrors {
    /** The current-time functions as Calcite names them, upper case; also what {@link ExpressionCompiler} refuses. */
    static final Set<String> CURRENT_TIME = Set.of(
            "NOW",
            "CURRENT_TIMESTAMP",
            "LOCALTIMESTAMP",
            "CURRENT_TIME",
            "LOCALTIME",
            "CURRENT_DATE",
            "TRANSACTION_TIMESTAMP",
            "STATEMENT_TIMESTAMP",
            "CLOCK_TIMESTAMP");

    private TemporalFilterErrors() {}

    /**
     * {@code e} pointing at the construct it refuses when it is one of these refusals without a
     * position and {@code tree} holds one candidate; else {@code e} itself.
     */
    static TributaryException located(TributaryException e, SqlNode tree, StatementPositions positions) {
        if (e.position() > 0 || !e.sqlState().equals(SqlState.FEATURE_NOT_SUPPORTED) || tree == null) {
            return e;
        }
        String message = String.valueOf(e.getMessage());
        Predicate<SqlNode> candidate;
        if (message.startsWith("temporal filters with intervals of months or years")) {
            candidate = node -> node instanceof SqlIntervalLiteral literal
                    && literal.getValue() instanceof SqlIntervalLiteral.IntervalValue value
                    && value.getIntervalQualifier().isYearMonth();
        } else if (message.contains(" other than in a temporal filter")) {
            candidate = node -> node instanceof SqlCall call
                    && CURRENT_TIME.contains(call.getOperator().getName().toUpperCase(Locale.ROOT));
        } else {
            return e;
        }
        List<SqlNode> found = new ArrayList<>();
        tree.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (candidate.test(call)) {
                    found.add(call);
                }
                return super.visit(call);
            }

            @Override
            public Void visit(SqlLiteral literal) {
                if (candidate.test(literal)) {
                    found.add(literal);
                }
                return null;
            }
        });
        int position = found.size() == 1 ? positions.offset(found.get(0).getParserPosition()) : 0;
        return position == 0
                ? e
                : new TributaryException(e.sqlState(), message, position, e.detail(), e.hint(), e.getCause());
    }
}
