package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ForeignKeyDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.StringJoiner;

/**
 * The FOREIGN KEY constraints other tables hold on a table, as DROP TABLE and ALTER TABLE ... DROP
 * COLUMN meet them: PostgreSQL's 2BP01, and the constraints CASCADE drops. Stateless; called on
 * the statement's thread or under the barrier lock.
 */
final class ForeignKeyDependents {
    private ForeignKeyDependents() {}

    /** The tables other than {@code table} with a constraint referencing it, oldest first. */
    static List<TableDef> referencing(Catalog catalog, TableDef table) {
        List<TableDef> out = new ArrayList<>();
        for (TableDef t : catalog.tables()) {
            if (t.id() != table.id()
                    && t.foreignKeys().stream().anyMatch(f -> f.parent().equals(table.name()))) {
                out.add(t);
            }
        }
        // in creation order, as PostgreSQL lists dependent objects
        out.sort(java.util.Comparator.comparingInt(TableDef::id));
        return out;
    }

    /** {@code referencing} without its constraints on {@code parent}. */
    static TableDef withoutReferences(TableDef referencing, TableDef parent) {
        return referencing.withForeignKeys(referencing.foreignKeys().stream()
                .filter(f -> !f.parent().equals(parent.name()))
                .toList());
    }

    /**
     * PostgreSQL's 2BP01 for ALTER TABLE ... DROP COLUMN of a column of {@code table} that a FOREIGN
     * KEY constraint references (other than one of {@code table}'s own on that same column, which
     * goes with it), naming the constraints in creation order; 0A000 under CASCADE, which would drop
     * constraints of other tables with the column (not built).
     */
    static void refuseDropColumn(Catalog catalog, TableDef table, String column, boolean cascade) {
        List<TableDef> holders = new ArrayList<>(referencing(catalog, table));
        holders.add(0, table); // a self reference's constraint is PostgreSQL's first dependent too
        StringJoiner detail = new StringJoiner("\n");
        for (TableDef t : holders) {
            for (ForeignKeyDef f : t.foreignKeys()) {
                if (f.parent().equals(table.name())
                        && f.parentColumns().contains(column)
                        && !(t.id() == table.id() && f.columns().contains(column))) {
                    detail.add("constraint " + f.name() + " on table " + t.localName() + " depends on column " + column
                            + " of table " + table.localName());
                }
            }
        }
        if (detail.length() == 0) {
            return;
        }
        if (cascade) {
            throw TributaryException.notSupported(
                    "ALTER TABLE ... DROP COLUMN ... CASCADE of a column a FOREIGN KEY constraint references");
        }
        throw new TributaryException(
                SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                "cannot drop column " + column + " of table " + table.localName()
                        + " because other objects depend on it",
                0,
                detail.toString(),
                "Use DROP ... CASCADE to drop the dependent objects too.",
                null);
    }

    /**
     * PostgreSQL's 2BP01 for DROP TABLE of {@code table} while a table outside {@code together}
     * (the statement's tables) references it.
     */
    static void refuseDrop(Catalog catalog, TableDef table, Collection<String> together) {
        StringJoiner detail = new StringJoiner("\n");
        for (TableDef t : referencing(catalog, table)) {
            if (together.contains(t.name())) {
                continue;
            }
            for (ForeignKeyDef f : t.foreignKeys()) {
                if (f.parent().equals(table.name())) {
                    detail.add("constraint " + f.name() + " on table " + t.localName() + " depends on table "
                            + table.localName());
                }
            }
        }
        if (detail.length() > 0) {
            throw new TributaryException(
                    SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                    "cannot drop table " + table.localName() + " because other objects depend on it",
                    0,
                    detail.toString(),
                    "Use DROP ... CASCADE to drop the dependent objects too.",
                    null);
        }
    }
}
