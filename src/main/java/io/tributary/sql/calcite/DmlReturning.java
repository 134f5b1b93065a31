package io.tributary.sql.calcite;

import io.tributary.catalog.TableDef;
import io.tributary.sql.DmlClauses;
import io.tributary.sql.StatementPlan;
import java.util.List;

/** Plans the RETURNING list of an INSERT, UPDATE or DELETE. Stateless. */
final class DmlReturning {
    private DmlReturning() {}

    /**
     * The RETURNING list of {@code clauses}, planned over the rows the statement writes to
     * {@code table} (named {@code alias} in it); null without one.
     */
    static StatementPlan.Returning plan(DmlQueries queries, DmlClauses clauses, TableDef table, String alias) {
        return plan(queries, clauses, table, alias, JoinedRelations.of(null, alias, null, queries));
    }

    /**
     * As {@link #plan(DmlQueries, DmlClauses, TableDef, String)}, where the list may also name the
     * columns of the {@code joined} relations of an UPDATE's FROM or a DELETE's USING list.
     */
    static StatementPlan.Returning plan(
            DmlQueries queries, DmlClauses clauses, TableDef table, String alias, JoinedRelations joined) {
        if (clauses == null || clauses.returning() == null) {
            return null;
        }
        int[] visible = table.targetColumns(List.of());
        StringBuilder q = new StringBuilder("SELECT ")
                .append(clauses.returning())
                .append(" FROM ")
                .append(WrittenRows.source(table, visible, 1, alias));
        int parameter = 1 + visible.length;
        for (JoinedRelations.Relation r : joined.relations()) {
            q.append(", ").append(WrittenRows.source(r.alias(), r.columns(), parameter));
            parameter += r.columns().size();
        }
        return new StatementPlan.Returning(queries.plan(q.toString()), visible, joined.width());
    }
}
