package io.tributary.meta.system;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SourceDef;
import io.tributary.common.types.DataType;
import io.tributary.meta.ingest.SourceManager;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tributary_catalog.source_progress}: one row per split of every running source (one row
 * without a split while a source is being opened or failed to open). {@code position} is the
 * committed position as the connector describes it, {@code rows_ingested} and
 * {@code skipped_inputs} count committed changes and skipped inputs since the table was created;
 * {@code phase} is the reader's ({@code snapshotting}, {@code streaming}, {@code finished}), or
 * {@code paused} at a rate limit of 0, {@code failed} once the source stopped on an error shown
 * in {@code last_error}. {@code lag_ms} and {@code rate_limit} are null when unknown or unlimited.
 */
final class SourceProgressTable extends EngineStateTable {
    private final SourceManager sources;

    SourceProgressTable(SourceManager sources) {
        super(
                "source_progress",
                new ColumnDef("table_name", DataType.TEXT, true, false),
                new ColumnDef("connector", DataType.TEXT, true, false),
                new ColumnDef("split", DataType.TEXT, true, false),
                new ColumnDef("phase", DataType.TEXT, true, false),
                new ColumnDef("position", DataType.TEXT, true, false),
                new ColumnDef("rows_ingested", DataType.BIGINT, true, false),
                new ColumnDef("skipped_inputs", DataType.BIGINT, true, false),
                new ColumnDef("lag_ms", DataType.BIGINT, false, false),
                new ColumnDef("rate_limit", DataType.BIGINT, false, false),
                new ColumnDef("last_error", DataType.TEXT, false, false));
        this.sources = sources;
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (SourceManager.SplitProgress p : sources.progress()) {
            rows.add(new Object[] {
                p.table(),
                p.connector(),
                p.split(),
                p.phase(),
                p.position(),
                p.rowsIngested(),
                p.skippedInputs(),
                p.lagMillis() < 0 ? null : p.lagMillis(),
                p.rateLimit() == SourceDef.UNLIMITED ? null : p.rateLimit(),
                p.lastError()
            });
        }
        return rows;
    }
}
