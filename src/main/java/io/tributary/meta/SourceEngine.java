package io.tributary.meta;

import io.tributary.catalog.Catalog;
import io.tributary.storage.StateStore;
import io.tributary.stream.runtime.StreamRuntime;

/** What source threads write through: the same parts DML uses. Immutable. */
record SourceEngine(CatalogService catalogService, BarrierManager barriers, StateStore store, StreamRuntime streams,
        RowIdGenerator rowIds) {
    Catalog catalog() {
        return catalogService.catalog();
    }
}
