package io.tributary.meta.system;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.metrics.MetricSet;
import io.tributary.storage.StateStore;
import io.tributary.storage.StoreStats;

/** The store engine's statistics and the approximate size of every materialized view's rows and state. */
final class StoreMetrics implements MetricSet {
    private final StateStore store;
    private final Catalog catalog;

    StoreMetrics(StateStore store, Catalog catalog) {
        this.store = store;
        this.catalog = catalog;
    }

    @Override
    public void sample(Samples out) {
        StoreStats s = store.stats();
        out.counter(
                "tributary_rocksdb_write_stall_seconds",
                "Time writes were delayed or stopped by RocksDB",
                s.writeStallMicros() / 1e6);
        out.gauge("tributary_rocksdb_write_stopped", "1 while RocksDB stops writes", s.writeStopped() ? 1 : 0);
        out.gauge(
                "tributary_rocksdb_compaction_pending_bytes",
                "Bytes RocksDB estimates compaction must rewrite",
                s.pendingCompactionBytes());
        out.gauge("tributary_rocksdb_memtable_bytes", "Memory held by RocksDB's memtables", s.memtableBytes());
        out.gauge("tributary_rocksdb_block_cache_bytes", "Memory held by RocksDB's block cache", s.blockCacheBytes());
        out.counter("tributary_rocksdb_block_cache_hits", "Block reads served by the block cache", s.blockCacheHits());
        out.counter("tributary_rocksdb_block_cache_misses", "Block reads that went to files", s.blockCacheMisses());
        long reads = s.blockCacheHits() + s.blockCacheMisses();
        out.gauge(
                "tributary_rocksdb_block_cache_hit_ratio",
                "Block cache hits over block reads since start (0 before the first read)",
                reads == 0 ? 0 : (double) s.blockCacheHits() / reads);
        for (TableDef t : catalog.tables()) {
            if (t.isView()) {
                out.gauge(
                        "tributary_view_state_bytes",
                        "Approximate bytes of a materialized view's rows and operator state",
                        viewBytes(store, t),
                        "view",
                        t.name());
            }
        }
    }

    /** The approximate bytes of a view's rows and every state table of its operators. */
    static long viewBytes(StateStore store, TableDef view) {
        long bytes = store.approximateBytes(view.id());
        for (int id : view.stateTableIds()) {
            bytes += store.approximateBytes(id);
        }
        return bytes;
    }
}
