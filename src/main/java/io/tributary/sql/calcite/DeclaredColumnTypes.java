package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.common.types.DataType;
import java.util.List;

/**
 * The declared type of the user relation's or plain view's column a result column is read from as it is, for the
 * modifiers Calcite's types leave out: a {@code timestamp(3)} column is Calcite's plain TIMESTAMP
 * ({@code TypeMapping.toRelType} drops time precisions so plans do not change), where PostgreSQL
 * describes the result with the column's typmod. One per session's frontend; reads the catalog
 * when a statement is prepared.
 */
final class DeclaredColumnTypes {
    private final Catalog catalog;
    private final SessionSchemas schemas;

    DeclaredColumnTypes(Catalog catalog, SessionSchemas schemas) {
        this.catalog = catalog;
        this.schemas = schemas;
    }

    /**
     * The type column {@code column} of relation {@code table} was declared with, or null when
     * Calcite's names trace to no user relation's or plain view's column (a catalog relation, a system table).
     *
     * @param schema the Calcite schema Calcite traces the column to ({@link SessionSchemas#catalogKey})
     */
    DataType of(String schema, String table, String column) {
        if (table == null || column == null) {
            return null;
        }
        String key = schemas.catalogKey(schema, table);
        List<ColumnDef> columns = catalog.table(key)
                .map(TableDef::columns)
                .orElseGet(() -> catalog.view(key).map(ViewDef::columns).orElse(List.of()));
        for (ColumnDef c : columns) {
            if (c.name().equals(column)) {
                return c.type();
            }
        }
        return null;
    }
}
