package io.tributary.catalog;

import java.util.List;

/**
 * A schema made by {@code CREATE SCHEMA}, in one database. Immutable. Only {@link Catalog#SCHEMA}
 * holds relations so far: a user schema is a name that {@code search_path}, {@code pg_namespace}
 * and {@code DROP SCHEMA} see.
 *
 * @param name the schema's name
 * @param id taken from the relation id counter, so never reused and never any relation's id; its
 *     {@code pg_namespace} OID derives from it
 * @param comment what {@code COMMENT ON SCHEMA} set; null without one
 */
public record SchemaDef(String name, int id, String comment) {
    /** A schema without a comment. */
    public SchemaDef(String name, int id) {
        this(name, id, null);
    }

    /** This schema with comment {@code newComment} (null: none). */
    public SchemaDef withComment(String newComment) {
        return new SchemaDef(name, id, newComment);
    }

    /**
     * Schemas every database has without CREATE SCHEMA: {@code public}, {@code pg_catalog},
     * {@code information_schema} and the system tables' {@code tributary_catalog}.
     */
    public static final List<String> BUILT_IN =
            List.of(Catalog.SCHEMA, "pg_catalog", "information_schema", SystemTables.SCHEMA);
}
