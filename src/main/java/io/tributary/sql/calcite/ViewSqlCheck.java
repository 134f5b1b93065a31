package io.tributary.sql.calcite;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
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

    @Override
    public Void visit(SqlCall call) {
        SqlOperator op = call.getOperator();
        if (call.getKind() == SqlKind.OVER) {
            throw UnsupportedInViews.error("window functions are");
        }
        if (op.isAggregator() && !AGGREGATES.contains(op.getKind())) {
            throw UnsupportedInViews.error(
                    "the aggregate function " + op.getName().toLowerCase(Locale.ROOT) + " is");
        }
        return super.visit(call);
    }
}
