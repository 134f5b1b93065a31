package io.tributary.sql.calcite;

import static io.tributary.sql.calcite.CalciteFrontend.quote;
import static io.tributary.sql.calcite.CalciteFrontend.unparse;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.DmlClauses;
import io.tributary.sql.PreparedQuery;
import io.tributary.sql.StatementPlan;
import java.util.List;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;

/**
 * Plans UPDATE and DELETE statements for one session's {@link CalciteFrontend}: each becomes a
 * query over a schema that also shows hidden columns ({@link SessionSchemas#FULL_SCHEMA}),
 * returning the rows to change (and an UPDATE's new values), which the session applies. Owned by
 * one session; not thread-safe.
 */
final class UpdateDeletePlanner {
    private final DmlTargets tables;
    private final DmlQueries queries;

    UpdateDeletePlanner(DmlTargets tables, DmlQueries queries) {
        this.tables = tables;
        this.queries = queries;
    }

    /**
     * The plan of {@code update}, parsed from the client's statement {@code original} with its
     * parameters as {@code rewritten} numbered them, and its RETURNING list in {@code clauses} (null
     * without one): a query of the rows to change and their new values.
     *
     * @throws TributaryException 428C9 when it sets a GENERATED ALWAYS column
     */
    StatementPlan planUpdate(SqlUpdate update, ParameterRewriter rewritten, String original, DmlClauses clauses) {
        TableDef table = tables.table(update.getTargetTable());
        int[] targets = DmlTargets.columns(table, update.getTargetColumnList());
        for (int t : targets) {
            ColumnDef column = table.columns().get(t);
            if (column.identity() == ColumnDef.Identity.ALWAYS || column.generated() != null) {
                throw new TributaryException(
                        SqlState.GENERATED_ALWAYS,
                        "column \"" + column.name() + "\" can only be updated to DEFAULT",
                        0,
                        "Column \"" + column.name()
                                + (column.generated() != null
                                        ? "\" is a generated column."
                                        : "\" is an identity column defined as GENERATED ALWAYS."),
                        null,
                        null);
            }
        }
        String alias = update.getAlias() != null ? update.getAlias().getSimple() : table.localName();
        StringBuilder q = new StringBuilder("SELECT ").append(quote(alias)).append(".*");
        List<SqlNode> sources = update.getSourceExpressionList().getList();
        for (int i = 0; i < sources.size(); i++) {
            SqlNode expr = InsertSources.typedParameter(
                    sources.get(i), table.columns().get(targets[i]).type());
            q.append(", (").append(unparse(expr)).append(')');
        }
        appendFromWhere(q, table, alias, update.getCondition());
        StatementPlan.Returning returning = DmlReturning.plan(queries, clauses, table, alias);
        PreparedQuery query = queries.prepare(q.toString(), rewritten.order(), rewritten.parameterCount(), original);
        return new StatementPlan.Update(table, targets, query, returning);
    }

    /** The plan of {@code delete}, as {@link #planUpdate}'s: a query of the rows to delete. */
    StatementPlan planDelete(SqlDelete delete, ParameterRewriter rewritten, String original, DmlClauses clauses) {
        TableDef table = tables.table(delete.getTargetTable());
        String alias = delete.getAlias() != null ? delete.getAlias().getSimple() : table.localName();
        StringBuilder q = new StringBuilder("SELECT ").append(quote(alias)).append(".*");
        appendFromWhere(q, table, alias, delete.getCondition());
        StatementPlan.Returning returning = DmlReturning.plan(queries, clauses, table, alias);
        PreparedQuery query = queries.prepare(q.toString(), rewritten.order(), rewritten.parameterCount(), original);
        return new StatementPlan.Delete(table, query, returning);
    }

    private static void appendFromWhere(StringBuilder q, TableDef table, String alias, SqlNode condition) {
        q.append(" FROM ")
                .append(quote(SessionSchemas.FULL_SCHEMA))
                .append('.')
                .append(quote(table.name()))
                .append(" AS ")
                .append(quote(alias));
        if (condition != null) {
            q.append(" WHERE ").append(unparse(condition));
        }
    }
}
