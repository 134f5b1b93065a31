package io.tributary.meta.ingest;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.write.RowIdGenerator;
import io.tributary.meta.write.TableWriter;
import io.tributary.meta.write.Watermarks;
import io.tributary.storage.StateStore;
import io.tributary.stream.runtime.StreamRuntime;

/** What source threads write through: the same parts DML uses. Immutable. */
public record SourceEngine(
        Catalog catalog,
        BarrierManager barriers,
        StateStore store,
        StreamRuntime streams,
        RowIdGenerator rowIds,
        Watermarks watermarks) {
    /** A writer for one batch of {@code table}'s source, as DML gets one for a statement. */
    TableWriter newTableWriter(TableDef table) {
        return new TableWriter(table, rowIds, streams, barriers, catalog, store, watermarks, null, null);
    }
}
