package io.tributary.sql.calcite;

import io.tributary.catalog.pg.PgTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/** A schema of PostgreSQL's system catalog ({@code pg_catalog}, {@code information_schema}) for Calcite. */
final class PgCatalogSchema extends AbstractSchema {
    private final Supplier<List<PgTable>> tables;

    PgCatalogSchema(Supplier<List<PgTable>> tables) {
        this.tables = tables;
    }

    @Override
    protected Map<String, Table> getTableMap() {
        Map<String, Table> map = new LinkedHashMap<>();
        for (PgTable t : tables.get()) {
            map.put(t.name(), new PgCalciteTable(t));
        }
        return map;
    }
}
