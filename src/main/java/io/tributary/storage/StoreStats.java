package io.tributary.storage;

/**
 * What the store engine reports about itself, for monitoring. Counters are totals since the store
 * was opened; a store that keeps no statistics reports {@link #NONE}.
 *
 * @param writeStallMicros time writes were delayed or stopped by the engine (too many memtables
 *     or level-0 files, or too much pending compaction)
 * @param writeStopped whether writes are stopped right now
 * @param pendingCompactionBytes the engine's estimate of the bytes compaction must rewrite to
 *     bring every level under its target size
 * @param memtableBytes the memory the memtables (active, immutable and pinned) hold
 * @param blockCacheHits block reads served by the block cache
 * @param blockCacheMisses block reads that went to files
 * @param blockCacheBytes the memory the block cache holds
 */
public record StoreStats(
        long writeStallMicros,
        boolean writeStopped,
        long pendingCompactionBytes,
        long memtableBytes,
        long blockCacheHits,
        long blockCacheMisses,
        long blockCacheBytes) {
    /** The statistics of a store that keeps none. */
    public static final StoreStats NONE = new StoreStats(0, false, 0, 0, 0, 0, 0);
}
