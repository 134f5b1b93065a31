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
 */
public record ViewDef(String name, String query, String definition, List<ColumnDef> columns, List<String> reads) {}
