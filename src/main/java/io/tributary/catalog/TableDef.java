package io.tributary.catalog;

import io.tributary.common.types.DataType;

import java.util.List;

/**
 * A table in the catalog. Immutable. {@code primaryKey} lists column indexes; for a table declared
 * without a primary key it is the hidden {@link #ROW_ID} column.
 *
 * @param id storage id; never reused, so a dropped table's leftovers can never be read as a new table's
 * @param definition the CREATE statement as the user wrote it
 */
public record TableDef(int id, String name, List<ColumnDef> columns, int[] primaryKey, String definition) {
    public static final String ROW_ID = "_row_id";

    public List<DataType> columnTypes() {
        return columns.stream().map(ColumnDef::type).toList();
    }

    public List<DataType> primaryKeyTypes() {
        return java.util.Arrays.stream(primaryKey).mapToObj(i -> columns.get(i).type()).toList();
    }

    /** True when the primary key is the generated row id. */
    public boolean hasRowId() {
        return primaryKey.length == 1 && columns.get(primaryKey[0]).hidden();
    }

    /** Index of the named column, or -1. */
    public int columnIndex(String columnName) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(columnName)) {
                return i;
            }
        }
        return -1;
    }
}
