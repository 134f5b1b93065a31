package io.tributary.meta.ddl;

import io.tributary.catalog.TableDef;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.storage.WriteBuffer;

/**
 * A new table's record, staged by {@link DdlController#createTable}; a connector's table starts its
 * source once it is durable. The hooks run as the epoch's hooks.
 */
final class NewTable implements EpochChange {
    private final CatalogService catalogService;
    private final SourceManager sources;
    private final TableDef table;
    private final SourceManager.PreparedSource source;

    /** @param source the table's prepared connector source, or null for a plain table */
    NewTable(
            CatalogService catalogService, SourceManager sources, TableDef table, SourceManager.PreparedSource source) {
        this.catalogService = catalogService;
        this.sources = sources;
        this.table = table;
        this.source = source;
    }

    @Override
    public void stage(WriteBuffer buffer) {
        catalogService.stageRecord(buffer, table);
    }

    @Override
    public void committed() {
        catalogService.catalog().put(table);
        catalogService.releaseName(table.name());
        if (source != null) {
            sources.start(source);
        }
    }

    @Override
    public void failed() {
        catalogService.releaseName(table.name());
        if (source != null) {
            sources.discard(source);
        }
    }
}
