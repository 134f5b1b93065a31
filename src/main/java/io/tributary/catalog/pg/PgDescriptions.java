package io.tributary.catalog.pg;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SchemaDef;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of {@code pg_description}: PostgreSQL's built-in comments on schemas {@code pg_catalog}
 * and {@code public}, and
 * what COMMENT ON set on the catalog's schemas, relations and their columns (class {@code
 * pg_namespace} or {@code pg_class}; a column's {@code objsubid} is its attnum, hidden columns not
 * counted, as {@code pg_attribute} numbers them). Computed from the catalog at every read; any thread.
 */
final class PgDescriptions {
    private PgDescriptions() {}

    /** The rows as of now: objoid, classoid, objsubid, description. */
    static List<Object[]> rows(Catalog catalog) {
        List<Object[]> rows = new ArrayList<>();
        // PostgreSQL's built-in comments on the schemas Tributary has too (pg_dump dumps "COMMENT ON
        // SCHEMA public IS ''" when public's is missing)
        rows.add(row(PgOids.PG_CATALOG_NAMESPACE, PgOids.PG_NAMESPACE, 0, "system catalog schema"));
        rows.add(row(PgOids.PUBLIC_NAMESPACE, PgOids.PG_NAMESPACE, 0, "standard public schema"));
        for (SchemaDef s : catalog.schemas()) {
            if (s.comment() != null) {
                rows.add(row(PgOids.namespace(catalog, s.name()), PgOids.PG_NAMESPACE, 0, s.comment()));
            }
        }
        for (TableDef t : catalog.tables()) {
            if (!t.isInternal()) {
                relation(rows, PgOids.relation(t.id()), t.comment(), t.columns());
            }
        }
        for (ViewDef v : catalog.views()) {
            relation(rows, PgOids.view(v.name()), v.comment(), v.columns());
        }
        return rows;
    }

    private static void relation(List<Object[]> rows, long oid, String comment, List<ColumnDef> columns) {
        if (comment != null) {
            rows.add(row(oid, PgOids.PG_CLASS, 0, comment));
        }
        int attnum = 0;
        for (ColumnDef c : columns) {
            if (c.hidden()) {
                continue;
            }
            attnum++;
            if (c.comment() != null) {
                rows.add(row(oid, PgOids.PG_CLASS, attnum, c.comment()));
            }
        }
    }

    private static Object[] row(long objoid, long classoid, int objsubid, String description) {
        return new Object[] {objoid, classoid, objsubid, description};
    }
}
