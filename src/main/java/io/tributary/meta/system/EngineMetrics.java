package io.tributary.meta.system;

import io.tributary.catalog.Catalog;
import io.tributary.common.metrics.MetricSets;
import io.tributary.meta.ddl.DdlController;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.meta.sink.SinkManager;
import io.tributary.storage.StateStore;

/**
 * Registers the engine's metric sets (sources, backfill jobs, view operators, sinks, store); called
 * once as the database opens.
 */
public final class EngineMetrics {
    private EngineMetrics() {}

    public static void register(
            MetricSets sets,
            Catalog catalog,
            DdlController ddl,
            SourceManager sources,
            SinkManager sinks,
            StateStore store) {
        sets.register(new SourceMetrics(sources));
        sets.register(new BackfillMetrics(ddl));
        sets.register(new OperatorMetrics(ddl, catalog));
        sets.register(new SinkMetrics(sinks));
        sets.register(new StoreMetrics(store, catalog));
    }
}
