package io.tributary.meta.system;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.types.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tributary_catalog.relations}: one row per table and materialized view in the live
 * catalog, in name order. {@code column_count} counts the columns {@code SELECT *} shows (not the
 * hidden row id or stream-key columns); {@code parallelism} is null for tables, which run no job.
 */
final class RelationsTable extends EngineStateTable {
    private final Catalog catalog;

    RelationsTable(Catalog catalog) {
        super(
                "relations",
                new ColumnDef("id", DataType.INTEGER, true, false),
                new ColumnDef("name", DataType.TEXT, true, false),
                new ColumnDef("kind", DataType.TEXT, true, false),
                new ColumnDef("column_count", DataType.INTEGER, true, false),
                new ColumnDef("parallelism", DataType.INTEGER, false, false),
                new ColumnDef("definition", DataType.TEXT, true, false));
        this.catalog = catalog;
    }

    /** Reads the catalog's current relations; the catalog is safe to read from any thread. */
    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (TableDef t : catalog.tables()) {
            int visible = (int) t.columns().stream().filter(c -> !c.hidden()).count();
            rows.add(new Object[] {
                t.id(), t.name(), t.kind().sqlName(), visible, t.isView() ? t.parallelism() : null, t.definition()
            });
        }
        return rows;
    }
}
