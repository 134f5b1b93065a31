package io.tributary.sql.calcite;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.DmlClauses;
import io.tributary.sql.PreparedQuery;
import io.tributary.sql.StatementPlan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Plans UPDATE and DELETE statements for one session's {@link CalciteFrontend}: each becomes a
 * query over a schema that also shows hidden columns ({@link SessionSchemas#FULL_SCHEMA}),
 * returning the rows to change (and an UPDATE's new values), which the session applies. Owned by
 * one session; not thread-safe.
 */
final class UpdateDeletePlanner {
    private static final SqlParserPos POS = SqlParserPos.ZERO;

    private final DmlTargets tables;
    private final DmlQueries queries;

    UpdateDeletePlanner(DmlTargets tables, DmlQueries queries) {
        this.tables = tables;
        this.queries = queries;
    }

    /**
     * The plan of {@code update}, parsed from the client's statement {@code original} with its
     * parameters as {@code rewritten} numbered them, joined with the relations of {@code from}
     * (its FROM list; null without one), and its RETURNING list in {@code clauses} (null without
     * one): a query of the rows to change and their new values, then, with both a FROM list and
     * RETURNING, the FROM list's columns.
     *
     * <p>A SET value of {@code DEFAULT} ({@link UpdateDefaultText}) is the column's DEFAULT
     * expression, evaluated as the query's other values are (a volatile one per row, {@code now()}
     * the transaction's time), or NULL without one.
     *
     * @throws TributaryException 428C9 when it sets a GENERATED ALWAYS column to a value; 0A000 when
     *     it sets an identity, SERIAL or generated column to DEFAULT
     */
    StatementPlan planUpdate(
            SqlUpdate update, SqlNode from, ParameterRewriter rewritten, String original, DmlClauses clauses) {
        TableDef table = tables.table(update.getTargetTable());
        int[] targets = DmlTargets.columns(table, update.getTargetColumnList());
        List<SqlNode> sources = update.getSourceExpressionList().getList();
        for (int i = 0; i < targets.length; i++) {
            ColumnDef column = table.columns().get(targets[i]);
            if (UpdateDefaultText.isMarker(sources.get(i))) {
                update.getSourceExpressionList().set(i, defaultOf(column));
            } else if (column.identity() == ColumnDef.Identity.ALWAYS || column.generated() != null) {
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
        List<SqlNode> items = new ArrayList<>();
        items.add(rowOf(alias));
        for (int i = 0; i < sources.size(); i++) {
            items.add(InsertSources.typedParameter(
                    sources.get(i), table.columns().get(targets[i]).type()));
        }
        JoinedRelations joined = JoinedRelations.of(from, alias, clauses, queries);
        joined.addColumns(items);
        StatementPlan.Returning returning = DmlReturning.plan(queries, clauses, table, alias, joined);
        PreparedQuery query = queries.prepare(
                select(table, alias, items, from, update.getCondition()),
                rewritten.order(),
                rewritten.parameterCount(),
                rewritten.sql(),
                original);
        return new StatementPlan.Update(table, targets, query, returning, from != null);
    }

    /**
     * The expression an UPDATE's {@code SET column = DEFAULT} stands for.
     *
     * @throws TributaryException 0A000 for a column whose values come from its sequence or the
     *     engine, which the update's query cannot draw
     */
    private static SqlNode defaultOf(ColumnDef column) {
        if (column.identity() != null || column.generated() != null) {
            throw TributaryException.notSupported(
                    "UPDATE ... SET " + column.name() + " = DEFAULT of an identity, SERIAL or generated column");
        }
        return column.defaultExpr() == null
                ? SqlLiteral.createNull(POS)
                : InsertDefaults.expression(column.defaultExpr());
    }

    /** The plan of {@code delete}, as {@link #planUpdate}'s: a query of the rows to delete. */
    StatementPlan planDelete(
            SqlDelete delete, SqlNode from, ParameterRewriter rewritten, String original, DmlClauses clauses) {
        TableDef table = tables.table(delete.getTargetTable());
        String alias = delete.getAlias() != null ? delete.getAlias().getSimple() : table.localName();
        List<SqlNode> items = new ArrayList<>();
        items.add(rowOf(alias));
        JoinedRelations joined = JoinedRelations.of(from, alias, clauses, queries);
        joined.addColumns(items);
        StatementPlan.Returning returning = DmlReturning.plan(queries, clauses, table, alias, joined);
        PreparedQuery query = queries.prepare(
                select(table, alias, items, from, delete.getCondition()),
                rewritten.order(),
                rewritten.parameterCount(),
                rewritten.sql(),
                original);
        return new StatementPlan.Delete(table, query, returning, from != null);
    }

    /** {@code alias.*}: the target row in full, hidden columns too. */
    private static SqlNode rowOf(String alias) {
        return SqlIdentifier.star(List.of(alias, ""), POS, List.of(POS, POS));
    }

    /**
     * {@code SELECT items FROM [from, ] "$full".table AS alias [WHERE condition]}, built as a tree
     * rather than text because a condition printed alone loses the parentheses of a sub-query
     * ({@code WHERE EXISTS (SELECT ...)} would print as {@code EXISTS SELECT ...}).
     */
    private static SqlSelect select(
            TableDef table, String alias, List<SqlNode> items, SqlNode from, SqlNode condition) {
        SqlNode target = SqlStdOperatorTable.AS.createCall(
                POS,
                new SqlIdentifier(List.of(SessionSchemas.FULL_SCHEMA, table.name()), POS),
                new SqlIdentifier(alias, POS));
        // the target after the list: printed as "list, target", a join in the list keeps its
        // operands (after "target, u JOIN w USING (id)" is read as "(target, u) JOIN w")
        SqlNode relations = from == null
                ? target
                : new SqlJoin(
                        POS,
                        from,
                        SqlLiteral.createBoolean(false, POS),
                        JoinType.COMMA.symbol(POS),
                        target,
                        JoinConditionType.NONE.symbol(POS),
                        null);
        return new SqlSelect(
                POS,
                null,
                new SqlNodeList(items, POS),
                relations,
                condition,
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
