package io.tributary.meta.system;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.WatermarkDef;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.meta.write.Watermarks;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tributary_catalog.watermarks}: one row per table declared with {@code WATERMARK FOR}: its
 * column, the delay, the committed watermark (NULL before the first row; a TIMESTAMPTZ column's
 * watermark shows in UTC) and how many late rows it dropped.
 */
final class WatermarksTable extends EngineStateTable {
    private final Catalog catalog;
    private final Watermarks watermarks;

    WatermarksTable(Catalog catalog, Watermarks watermarks) {
        super(
                "watermarks",
                new ColumnDef("table_name", DataType.TEXT, true, false),
                new ColumnDef("column_name", DataType.TEXT, true, false),
                new ColumnDef("delay", DataType.INTERVAL, true, false),
                new ColumnDef("watermark", DataType.TIMESTAMP, false, false),
                new ColumnDef("late_rows", DataType.BIGINT, true, false));
        this.catalog = catalog;
        this.watermarks = watermarks;
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (TableDef table : catalog.tables()) {
            WatermarkDef def = table.watermark();
            if (def != null) {
                rows.add(new Object[] {
                    table.name(),
                    table.columns().get(def.column()).name(),
                    new Interval(0, 0, def.delayMicros()),
                    watermarks.watermark(table),
                    watermarks.lateRows(table)
                });
            }
        }
        return rows;
    }
}
