package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.ForeignKeyDef;
import io.tributary.catalog.IndexDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks and names the FOREIGN KEY constraints a statement adds to a table, as PostgreSQL's
 * {@code ATAddForeignKeyConstraint} does: the referenced table is a plain table, the referenced
 * columns are its primary key or a UNIQUE constraint's columns (the primary key when none are
 * named), the paired columns' types compare, and an unnamed constraint is named {@code
 * <table>_<columns>_fkey}. Called by {@link DdlController} on the statement's thread; stateless.
 */
final class ForeignKeyResolution {
    /** PostgreSQL's NAMEDATALEN - 1: the longest name, in bytes. */
    private static final int MAX_NAME_BYTES = 63;

    private ForeignKeyResolution() {}

    /**
     * @param catalog the catalog the referenced tables are looked up in
     * @param table the referencing table, with the constraints it already has ({@code table} itself
     *     when a constraint references it)
     * @param added the new constraints as parsed
     * @return {@code table} with the new constraints, resolved and named
     * @throws TributaryException 42P01 for a missing table, 42809 for a view, 0A000 for a
     *     connector's table, 42703 for a missing column, 42830 for referenced columns that are no
     *     key, 42804 for types that do not compare, 42710 for a name the table already uses
     */
    static TableDef withForeignKeys(Catalog catalog, TableDef table, List<ForeignKeyDef> added) {
        if (added.isEmpty()) {
            return table;
        }
        if (table.source() != null) {
            throw TributaryException.notSupported("FOREIGN KEY constraints on a table fed by a connector");
        }
        Set<String> used = usedNames(catalog, table);
        List<ForeignKeyDef> all = new ArrayList<>(table.foreignKeys());
        for (ForeignKeyDef fk : added) {
            TableDef parent = fk.parent().equals(table.name()) ? table : parentTable(catalog, fk.parent());
            for (String c : fk.columns()) {
                column(table, c);
            }
            List<String> parentColumns = fk.parentColumns().isEmpty() ? primaryKey(parent) : fk.parentColumns();
            for (String c : parentColumns) {
                column(parent, c);
            }
            if (parentColumns.size() != fk.columns().size()) {
                throw new TributaryException(
                        SqlState.INVALID_FOREIGN_KEY,
                        "number of referencing and referenced columns for foreign key disagree");
            }
            if (!isKey(parent, parentColumns)) {
                throw new TributaryException(
                        SqlState.INVALID_FOREIGN_KEY,
                        "there is no unique constraint matching given keys for referenced table \"" + parent.localName()
                                + "\"");
            }
            String name = fk.name();
            if (name == null) {
                name = choose(table.localName(), String.join("_", fk.columns()), used);
            } else if (used.contains(name)) {
                throw new TributaryException(
                        SqlState.DUPLICATE_OBJECT,
                        "constraint \"" + name + "\" for relation \"" + table.localName() + "\" already exists");
            }
            for (int i = 0; i < parentColumns.size(); i++) {
                ColumnDef child = column(table, fk.columns().get(i));
                ColumnDef referenced = column(parent, parentColumns.get(i));
                if (!compatible(child.type(), referenced.type())) {
                    throw new TributaryException(
                            SqlState.DATATYPE_MISMATCH,
                            "foreign key constraint \"" + name + "\" cannot be implemented",
                            0,
                            "Key columns \"" + child.name() + "\" and \"" + referenced.name()
                                    + "\" are of incompatible types: "
                                    + child.type().sqlName() + " and "
                                    + referenced.type().sqlName() + ".",
                            null,
                            null);
                }
            }
            used.add(name);
            all.add(fk.resolved(name, parent.name(), parentColumns));
        }
        return table.withForeignKeys(all);
    }

    private static TableDef parentTable(Catalog catalog, String key) {
        if (catalog.view(key).isPresent()) {
            throw notATable(key);
        }
        TableDef parent = catalog.require(key);
        if (parent.isView()) {
            throw notATable(parent.localName());
        }
        if (parent.source() != null || parent.isSource()) {
            throw TributaryException.notSupported(
                    "a FOREIGN KEY constraint referencing \"" + parent.localName() + "\", a table fed by a connector");
        }
        return parent;
    }

    private static TributaryException notATable(String name) {
        return new TributaryException(
                SqlState.WRONG_OBJECT_TYPE,
                "referenced relation \"" + name.substring(name.lastIndexOf('.') + 1) + "\" is not a table");
    }

    private static ColumnDef column(TableDef table, String name) {
        int at = table.columnIndex(name);
        if (at < 0 || table.columns().get(at).hidden()) {
            throw new TributaryException(
                    SqlState.UNDEFINED_COLUMN,
                    "column \"" + name + "\" referenced in foreign key constraint does not exist");
        }
        return table.columns().get(at);
    }

    private static List<String> primaryKey(TableDef parent) {
        if (parent.hasRowId()) {
            throw new TributaryException(
                    SqlState.UNDEFINED_OBJECT,
                    "there is no primary key for referenced table \"" + parent.localName() + "\"");
        }
        List<String> out = new ArrayList<>();
        for (int c : parent.primaryKey()) {
            out.add(parent.columns().get(c).name());
        }
        return out;
    }

    /** Whether {@code columns}, in any order and each once, are the primary key's or a UNIQUE index's. */
    private static boolean isKey(TableDef parent, List<String> columns) {
        Set<String> wanted = new HashSet<>(columns);
        if (wanted.size() != columns.size()) {
            return false;
        }
        if (!parent.hasRowId() && wanted.equals(new HashSet<>(primaryKeyNames(parent)))) {
            return true;
        }
        for (IndexDef index : parent.indexes()) {
            if (index.unique() && wanted.equals(new HashSet<>(index.columns()))) {
                return true;
            }
        }
        return false;
    }

    private static List<String> primaryKeyNames(TableDef parent) {
        List<String> out = new ArrayList<>();
        for (int c : parent.primaryKey()) {
            out.add(parent.columns().get(c).name());
        }
        return out;
    }

    /**
     * Whether a referencing value of type {@code child} can be looked up among referenced values of
     * type {@code parent}: the same type, two integer types, or text and varchar.
     */
    static boolean compatible(DataType child, DataType parent) {
        if (child.kind() == TypeKind.ARRAY || parent.kind() == TypeKind.ARRAY) {
            return child.equals(parent);
        }
        return child.kind() == parent.kind()
                || integer(child.kind()) && integer(parent.kind())
                || text(child.kind()) && text(parent.kind());
    }

    private static boolean integer(TypeKind kind) {
        return kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
    }

    private static boolean text(TypeKind kind) {
        return kind == TypeKind.TEXT || kind == TypeKind.VARCHAR;
    }

    /** The table's constraint names and the foreign keys' names of its schema, which a new name may not take. */
    private static Set<String> usedNames(Catalog catalog, TableDef table) {
        Set<String> used = new HashSet<>();
        if (!table.hasRowId()) {
            used.add(table.localName() + "_pkey");
        }
        table.checks().forEach(c -> used.add(c.name()));
        table.indexes().forEach(i -> used.add(i.name()));
        for (TableDef t : catalog.tablesIn(table.schema())) {
            t.foreignKeys().forEach(f -> used.add(f.name()));
        }
        table.foreignKeys().forEach(f -> used.add(f.name()));
        return used;
    }

    /** {@code <table>_<columns>_fkey[N]}, each part shortened as PostgreSQL's makeObjectName does, the first not in {@code used}. */
    private static String choose(String table, String columns, Set<String> used) {
        for (int pass = 0; ; pass++) {
            String label = pass == 0 ? "fkey" : "fkey" + pass;
            String a = table;
            String b = columns;
            while (bytes(a) + bytes(b) + label.length() + 2 > MAX_NAME_BYTES) {
                if (bytes(a) > bytes(b)) {
                    a = a.substring(0, a.length() - 1);
                } else {
                    b = b.substring(0, b.length() - 1);
                }
            }
            String name = a + "_" + b + "_" + label;
            if (!used.contains(name)) {
                return name;
            }
        }
    }

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
