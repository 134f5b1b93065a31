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
        if (clauses == null || clauses.returning() == null) {
            return null;
        }
        int[] visible = table.targetColumns(List.of());
        String q = "SELECT " + clauses.returning() + " FROM " + WrittenRows.source(table, visible, 1, alias);
        return new StatementPlan.Returning(queries.plan(q), visible);
    }
}
