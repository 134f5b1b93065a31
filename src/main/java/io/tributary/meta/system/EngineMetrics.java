package io.tributary.meta.system;

import io.tributary.catalog.Catalog;
import io.tributary.common.metrics.MetricSets;
import io.tributary.meta.ddl.DdlController;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.storage.StateStore;

/** Registers the engine's metric sets (sources, backfill jobs, store); called once as the database opens. */
public final class EngineMetrics {
    private EngineMetrics() {}

    public static void register(
            MetricSets sets, Catalog catalog, DdlController ddl, SourceManager sources, StateStore store) {
        sets.register(new SourceMetrics(sources));
        sets.register(new BackfillMetrics(ddl));
        sets.register(new StoreMetrics(store, catalog));
    }
}
