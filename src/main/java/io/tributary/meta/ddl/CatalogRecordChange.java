package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.WriteBuffer;
import java.util.function.Consumer;

/**
 * A relation's catalog record replaced without touching its rows (a RENAME): staged in an epoch
 * with {@code alongside} (say, a view's stored plan under its new name), so the record and what
 * goes with it commit together. The in-memory catalog changes at staging (the old name is gone
 * from then on) and is put back if the epoch fails. Staged under the barrier lock.
 */
final class CatalogRecordChange implements EpochChange {
    private final CatalogService catalogService;
    private final TableDef before;
    private final TableDef after;
    private final Consumer<WriteBuffer> alongside;

    CatalogRecordChange(
            CatalogService catalogService, TableDef before, TableDef after, Consumer<WriteBuffer> alongside) {
        this.catalogService = catalogService;
        this.before = before;
        this.after = after;
        this.alongside = alongside;
    }

    @Override
    public void stage(WriteBuffer epoch) {
        Catalog catalog = catalogService.catalog();
        if (catalog.table(before.name()).map(t -> t != before).orElse(true)) {
            throw TableRewrite.changedWhileRunning(before);
        }
        catalogService.stageRecord(epoch, after);
        alongside.accept(epoch);
        catalog.remove(before.name());
        catalog.put(after);
    }

    @Override
    public void failed() {
        catalogService.putBack(before, after);
    }
}
