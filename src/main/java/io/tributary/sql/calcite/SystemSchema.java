package io.tributary.sql.calcite;

import io.tributary.catalog.SystemTable;
import io.tributary.catalog.SystemTables;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * Schema {@link SystemTables#SCHEMA} for Calcite, read from the registry at every lookup so that
 * a table registered after the session started is seen by its next statement.
 */
final class SystemSchema extends AbstractSchema {
    private final SystemTables tables;

    SystemSchema(SystemTables tables) {
        this.tables = tables;
    }

    @Override
    protected Map<String, Table> getTableMap() {
        Map<String, Table> map = new LinkedHashMap<>();
        for (SystemTable t : tables.tables()) {
            map.put(t.name(), new SystemCalciteTable(t));
        }
        return map;
    }
}
