package io.tributary.catalog;

import java.util.List;

/**
 * A table's secondary index as the catalog stores it: a UNIQUE constraint or a {@code CREATE
 * [UNIQUE] INDEX}. Its entries live in the store under their own id (see {@code
 * storage.IndexKeys}), written in the same epoch as the table's rows. Immutable.
 *
 * @param name the index's name, also the constraint's for a UNIQUE constraint ({@code t_c_key},
 *     {@code t_c_idx} by default, as PostgreSQL names them)
 * @param id the storage id of its entries; never reused
 * @param columns the indexed columns' names, in key order; by name so that ADD and DROP COLUMN,
 *     which renumber columns, leave the index as it is
 * @param unique whether two rows may not share the columns' values (NULLs are distinct)
 * @param constraint whether it is a UNIQUE constraint (dropped by DROP CONSTRAINT and shown in
 *     {@code pg_constraint}) rather than a plain index
 */
public record IndexDef(String name, int id, List<String> columns, boolean unique, boolean constraint) {
    public IndexDef {
        columns = List.copyOf(columns);
    }

    /** The same index under {@code newName} and storage id {@code newId}. */
    public IndexDef named(String newName, int newId) {
        return new IndexDef(newName, newId, columns, unique, constraint);
    }

    /** The same index with column {@code from} renamed {@code to}. */
    public IndexDef withColumnRenamed(String from, String to) {
        return new IndexDef(
                name, id, columns.stream().map(c -> c.equals(from) ? to : c).toList(), unique, constraint);
    }

    /** The indexed columns' positions in {@code table}, in key order (-1 for one it lacks). */
    public int[] positionsIn(TableDef table) {
        int[] out = new int[columns.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = table.columnIndex(columns.get(i));
        }
        return out;
    }

    /** The indexed columns' types in {@code table}, in key order. */
    public List<io.tributary.common.types.DataType> typesIn(TableDef table) {
        return columns.stream()
                .map(c -> table.columns().get(table.columnIndex(c)).type())
                .toList();
    }
}
