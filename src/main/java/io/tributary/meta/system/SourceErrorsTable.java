package io.tributary.meta.system;

import io.tributary.catalog.ColumnDef;
import io.tributary.common.types.DataType;
import io.tributary.meta.ingest.SourceManager;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tributary_catalog.source_errors}: input the sources skipped as malformed (with
 * {@code on_error = 'skip'}), the newest 1000 per table since the
 * server started: where it was (e.g. {@code orders.csv:17}), why, and when it was read.
 */
final class SourceErrorsTable extends EngineStateTable {
    private final SourceManager sources;

    SourceErrorsTable(SourceManager sources) {
        super(
                "source_errors",
                new ColumnDef("table_name", DataType.TEXT, true, false),
                new ColumnDef("split", DataType.TEXT, true, false),
                new ColumnDef("location", DataType.TEXT, true, false),
                new ColumnDef("reason", DataType.TEXT, true, false),
                new ColumnDef("at", DataType.TIMESTAMPTZ, true, false));
        this.sources = sources;
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (SourceManager.SourceError e : sources.errors()) {
            long micros = e.at().getEpochSecond() * 1_000_000L + e.at().getNano() / 1000;
            rows.add(new Object[] {e.table(), e.split(), e.location(), e.reason(), micros});
        }
        return rows;
    }
}
