package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ForeignRelations;
import io.tributary.catalog.SchemaDef;
import io.tributary.catalog.TableDef;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * Another database of the cluster as the view planner sees it, so that a materialized view's query
 * can name {@code a.public.t} or {@code a.s.t} (docs/ARCHITECTURE.md, Cross-database views): each of
 * its schemas ({@code public} and those made by CREATE SCHEMA) lists that schema's tables, each under the {@linkplain ForeignRelations foreign
 * id} the reading database plans it with and named by its three-part name. Tables and materialized
 * views are listed (a view's change log is its job's output); plain views are not. Read from the other catalog at
 * every lookup; used by the view planner's thread only.
 */
final class ForeignDatabaseSchema extends AbstractSchema {
    private final Catalog peer;

    ForeignDatabaseSchema(Catalog peer) {
        this.peer = peer;
    }

    @Override
    protected Map<String, Schema> getSubSchemaMap() {
        Map<String, Schema> schemas = new LinkedHashMap<>();
        schemas.put(Catalog.SCHEMA, new InSchema(Catalog.SCHEMA));
        for (SchemaDef s : peer.schemas()) {
            schemas.put(s.name(), new InSchema(s.name()));
        }
        return schemas;
    }

    /** One schema of the other database: its tables and materialized views by their names in it. */
    private final class InSchema extends AbstractSchema {
        private final String schema;

        InSchema(String schema) {
            this.schema = schema;
        }

        @Override
        protected Map<String, Table> getTableMap() {
            Map<String, Table> map = new LinkedHashMap<>();
            int database = peer.databaseId();
            for (TableDef t : peer.tablesIn(schema)) {
                TableDef named = new TableDef(
                        ForeignRelations.id(database, t.id()),
                        peer.database() + "." + schema + "." + t.localName(),
                        t.columns(),
                        t.primaryKey(),
                        t.definition(),
                        t.kind(),
                        t.query(),
                        t.dependsOn(),
                        t.stateTableIds(),
                        t.parallelism(),
                        t.source());
                map.put(t.localName(), new CatalogTable(named, null, false, () -> peer.unreadable(t.id())));
            }
            return map;
        }
    }
}
