package io.tributary.catalog.pg;

import io.tributary.catalog.CheckDef;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's CHECK constraints as the catalogs show them: {@code pg_constraint} rows ({@code
 * contype 'c'}), the texts {@code pg_get_constraintdef} returns, and {@code
 * information_schema.check_constraints}. Stateless; called while a catalog table is read.
 */
final class PgCheckRows {
    private PgCheckRows() {}

    /** {@code pg_constraint} rows, in {@link PgCatalog}'s column order. */
    static List<Object[]> constraints(PgRelation r) {
        List<Object[]> rows = new ArrayList<>(r.checks().size());
        for (int i = 0; i < r.checks().size(); i++) {
            CheckDef c = r.checks().get(i);
            List<Short> key = new ArrayList<>();
            for (String column : c.columns()) {
                key.add(r.attnum(column));
            }
            rows.add(new Object[] {
                r.checkOid(i),
                c.name(),
                r.namespace(),
                "c",
                false,
                false,
                true,
                r.oid(),
                0L,
                0L,
                0L,
                0L,
                " ",
                " ",
                " ",
                true,
                0,
                false,
                key,
                null,
                null
            });
        }
        return rows;
    }

    /** The hidden definitions relation's rows (oid, kind {@code c}, plain text, pretty text). */
    static List<Object[]> definitions(PgRelation r) {
        List<Object[]> rows = new ArrayList<>(r.checks().size());
        for (int i = 0; i < r.checks().size(); i++) {
            CheckDef c = r.checks().get(i);
            rows.add(new Object[] {r.checkOid(i), "c", c.definition(), c.prettyDefinition()});
        }
        return rows;
    }

    /**
     * {@code information_schema.check_constraints} rows (catalog, schema, name, clause): PostgreSQL
     * shows the deparsed condition without {@code CHECK}, as {@code (v > 0)}.
     */
    static List<Object[]> checkClauses(String database, PgRelation r) {
        List<Object[]> rows = new ArrayList<>(r.checks().size());
        for (CheckDef c : r.checks()) {
            rows.add(
                    new Object[] {database, r.schema(), c.name(), c.definition().substring("CHECK ".length())});
        }
        return rows;
    }
}
