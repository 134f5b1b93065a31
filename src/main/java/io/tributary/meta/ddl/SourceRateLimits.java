package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SourceDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.storage.WriteBuffer;

/**
 * {@code ALTER TABLE name SET SOURCE_RATE_LIMIT}: a connector table's rate limit in its record and
 * in its running source. Called by {@link DdlController} on session threads; thread-safe.
 */
final class SourceRateLimits {
    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final SourceManager sources;

    SourceRateLimits(CatalogService catalogService, BarrierManager barriers, SourceManager sources) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.sources = sources;
    }

    /**
     * Sets table {@code name}'s limit to {@code rowsPerSecond} over all its splits ({@link
     * SourceDef#UNLIMITED} for none, 0 pauses); takes effect at once, returns once durable.
     *
     * @throws TributaryException 42P01 for an unknown table, 42809 for a view or a table without
     *     a source, 22023 for a negative rate
     */
    void set(String name, long rowsPerSecond) throws InterruptedException {
        if (rowsPerSecond < 0 && rowsPerSecond != SourceDef.UNLIMITED) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "SOURCE_RATE_LIMIT must be 0 (paused) or more rows per second, or DEFAULT");
        }
        barriers.awaitCommitted(barriers.stage(new NewSourceRate(name, rowsPerSecond)));
    }

    /**
     * A table's new source rate limit: in memory and applied to the running source at once (under
     * the barrier lock, like DROP, so a DROP staged later in the same epoch is not undone when this
     * commits); the old one comes back if the epoch fails.
     */
    private final class NewSourceRate implements EpochChange {
        private final String name;
        private final long rowsPerSecond;
        /** The definition replaced at staging; null until then. */
        private TableDef before;

        NewSourceRate(String name, long rowsPerSecond) {
            this.name = name;
            this.rowsPerSecond = rowsPerSecond;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            TableDef t = catalog().require(name);
            if (t.isView() || t.source() == null) {
                throw new TributaryException(
                        SqlState.WRONG_OBJECT_TYPE,
                        "\"" + name + "\" is not a table with a "
                                + "connector; SOURCE_RATE_LIMIT applies to tables created WITH (connector = '...')");
            }
            TableDef altered = t.withSource(t.source().withRateLimit(rowsPerSecond));
            catalogService.stageRecord(buffer, altered);
            catalog().put(altered);
            before = t;
            sources.setRateLimit(t.id(), rowsPerSecond);
        }

        @Override
        public void failed() {
            if (catalog().table(name).map(now -> now.id() == before.id()).orElse(false)) {
                catalog().put(before);
                sources.setRateLimit(before.id(), before.source().rateLimit());
            }
        }
    }

    private Catalog catalog() {
        return catalogService.catalog();
    }
}
