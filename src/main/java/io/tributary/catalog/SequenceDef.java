package io.tributary.catalog;

/**
 * A sequence made by {@code CREATE SEQUENCE} (not one behind a SERIAL or identity column, which
 * belongs to its column). Its position is kept by the sequence store under {@code (id, 0)}; it
 * counts 1, 2, ... up to its type's bound, the only options Tributary takes.
 *
 * @param id its catalog id (from the relation id counter, so never a table's)
 * @param name the catalog's key, {@link Catalog#key}{@code (schema, local name)}
 * @param schema the schema holding it
 * @param type {@code smallint}, {@code integer} or {@code bigint}
 * @param ownedBy the column that owns it ({@code ALTER SEQUENCE ... OWNED BY}) as {@code
 *     table-key.column}, or null
 */
public record SequenceDef(int id, String name, String schema, String type, String ownedBy) {
    /** The same sequence owned by {@code column} (null: by none). */
    public SequenceDef ownedBy(String column) {
        return new SequenceDef(id, name, schema, type, column);
    }

    /** The relation's name within its schema. */
    public String localName() {
        return Catalog.localName(schema, name);
    }
}
