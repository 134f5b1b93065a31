package io.tributary.catalog.pg;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of {@code pg_depend}, derived from the live {@link Catalog} at every scan, and the one
 * fixed row that makes schema {@code tributary_catalog} a member of extension {@code tributary}.
 * Owned by one {@link PgCatalog}.
 */
final class PgDependencies {
    /** The OID of {@code pg_attrdef}, as {@code pg_depend.classid}. */
    private static final long PG_ATTRDEF = 2604;

    private final Catalog catalog;
    private final PgRelations relations;

    PgDependencies(Catalog catalog, PgRelations relations) {
        this.catalog = catalog;
        this.relations = relations;
    }

    /**
     * A sequence depends on the column it numbers: automatically (SERIAL) or internally (identity).
     * A view or materialized view depends normally ({@code n}) on each relation it reads. PostgreSQL
     * records that through the view's {@code _RETURN} rule in {@code pg_rewrite}, which Tributary
     * does not have; pg_dump, which orders its output by these rows, reads both the same way.
     */
    List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        // schema tributary_catalog is a member ('e') of extension tributary, so pg_dump leaves it out
        rows.add(new Object[] {
            PgOids.PG_NAMESPACE,
            PgOids.TRIBUTARY_CATALOG_NAMESPACE,
            0,
            PgOids.PG_EXTENSION,
            PgOids.TRIBUTARY_EXTENSION,
            0,
            "e"
        });
        for (PgSequence q : relations.sequences()) {
            rows.add(
                    new Object[] {PgOids.PG_CLASS, q.oid(), 0, PgOids.PG_CLASS, q.table(), q.attnum(), q.dependency()});
            if (q.dependency().equals("a")) {
                // a SERIAL column's default calls nextval on the sequence; pg_dump sees the cycle
                // with the ownership above and sets the default after creating the sequence
                rows.add(new Object[] {
                    PG_ATTRDEF, PgOids.attributeDefault(q.table(), q.attnum()), 0, PgOids.PG_CLASS, q.oid(), 0, "n"
                });
            }
        }
        for (io.tributary.catalog.SequenceDef d : relations.createdSequences()) {
            PgSequence q = relations.created(d);
            if (q.attnum() > 0) {
                // OWNED BY: pg_dump writes ALTER SEQUENCE ... OWNED BY from this row
                rows.add(new Object[] {PgOids.PG_CLASS, q.oid(), 0, PgOids.PG_CLASS, q.table(), q.attnum(), "a"});
            }
        }
        java.util.Set<Integer> userTables = new java.util.HashSet<>();
        for (TableDef t : catalog.tables()) {
            if (!t.isInternal()) {
                userTables.add(t.id());
            }
        }
        for (TableDef t : catalog.tables()) {
            if (t.isView() && !t.isInternal()) {
                for (int read : t.dependsOn()) {
                    if (userTables.contains(read)) {
                        rows.add(readDependency(PgOids.relation(t.id()), PgOids.relation(read)));
                    }
                }
            }
        }
        for (ViewDef v : catalog.views()) {
            for (String read : v.reads()) {
                java.util.Optional<TableDef> table = catalog.table(read);
                if (table.isPresent()) {
                    rows.add(readDependency(
                            PgOids.view(v.name()), PgOids.relation(table.get().id())));
                } else if (catalog.view(read).isPresent()) {
                    rows.add(readDependency(PgOids.view(v.name()), PgOids.view(read)));
                }
            }
        }
        return rows;
    }

    private static Object[] readDependency(long view, long read) {
        return new Object[] {PgOids.PG_CLASS, view, 0, PgOids.PG_CLASS, read, 0, "n"};
    }
}
