package io.tributary.catalog;

import java.util.List;

/**
 * A plain view ({@code CREATE VIEW}): a named query, expanded into every statement that reads it;
 * it holds no rows and runs no job. Immutable.
 *
 * @param query the query as the user wrote it (with a column list, wrapped so its columns carry
 *     those names)
 * @param definition the CREATE statement as the user wrote it
 * @param columns the query's columns as planned at CREATE (for the catalog's description)
 * @param reads the names of the relations and views the query reads directly, for dependency
 *     checks at DROP
 * @param schema the schema holding the view; records stored before schemas held relations have
 *     none and read as {@link Catalog#SCHEMA}. {@code name} is {@link Catalog#key}{@code (schema,
 *     localName())}
 * @param comment what {@code COMMENT ON VIEW} set; null without one (column comments are the
 *     columns')
 * @param describedOids per column, the PostgreSQL type OID the catalog shows where it is not its
 *     type's: {@code name} (19) for a column of {@code current_user} and its kin, held as text; 0
 *     for the others; null for views stored before this was recorded (their columns show their type)
 */
public record ViewDef(
        String name,
        String query,
        String definition,
        List<ColumnDef> columns,
        List<String> reads,
        String schema,
        String comment,
        List<Integer> describedOids) {
    public ViewDef {
        schema = schema == null ? Catalog.SCHEMA : schema;
    }

    /** A view without comments. */
    public ViewDef(
            String name,
            String query,
            String definition,
            List<ColumnDef> columns,
            List<String> reads,
            String schema,
            List<Integer> describedOids) {
        this(name, query, definition, columns, reads, schema, null, describedOids);
    }

    /** A view without comments, whose columns show their own types. */
    public ViewDef(
            String name, String query, String definition, List<ColumnDef> columns, List<String> reads, String schema) {
        this(name, query, definition, columns, reads, schema, null, null);
    }

    /** A view of schema {@code public}. */
    public ViewDef(String name, String query, String definition, List<ColumnDef> columns, List<String> reads) {
        this(name, query, definition, columns, reads, Catalog.SCHEMA);
    }

    /** This view with comment {@code newComment} and columns {@code newColumns}; COMMENT ON. */
    public ViewDef withComments(String newComment, List<ColumnDef> newColumns) {
        return new ViewDef(name, query, definition, List.copyOf(newColumns), reads, schema, newComment, describedOids);
    }

    /** The type OID the catalog shows for column {@code index}: {@link #describedOids}'s, else its type's. */
    public long columnOid(int index) {
        int described = describedOids == null || index >= describedOids.size() ? 0 : describedOids.get(index);
        return described != 0 ? described : columns.get(index).type().oid();
    }

    /** The view's name within its schema (what {@code pg_class.relname} shows). */
    public String localName() {
        return Catalog.localName(schema, name);
    }
}
