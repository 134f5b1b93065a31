package io.tributary.catalog;

/**
 * A sequence made by {@code CREATE SEQUENCE} (not one behind a SERIAL or identity column, which
 * belongs to its column). Its position is kept by the sequence store under {@code (id, 0)}.
 *
 * @param id its catalog id (from the relation id counter, so never a table's)
 * @param name the catalog's key, {@link Catalog#key}{@code (schema, local name)}
 * @param schema the schema holding it
 * @param type {@code smallint}, {@code integer} or {@code bigint}
 * @param ownedBy the column that owns it ({@code ALTER SEQUENCE ... OWNED BY}) as {@code
 *     table-key.column}, or null
 * @param options how it counts; null in records written before sequences took options, which
 *     counted 1, 2, ... (see {@link #counting})
 */
public record SequenceDef(int id, String name, String schema, String type, String ownedBy, SequenceOptions options) {
    /** The same sequence owned by {@code column} (null: by none). */
    public SequenceDef ownedBy(String column) {
        return new SequenceDef(id, name, schema, type, column, options);
    }

    /** The same sequence counting as {@code newOptions} say. */
    public SequenceDef withOptions(SequenceOptions newOptions) {
        return new SequenceDef(id, name, schema, type, ownedBy, newOptions);
    }

    /** How it counts: its options, or the defaults of its type for a record without them. */
    public SequenceOptions counting() {
        return options != null ? options : SequenceOptions.defaults(type);
    }

    /** The relation's name within its schema. */
    public String localName() {
        return Catalog.localName(schema, name);
    }
}
