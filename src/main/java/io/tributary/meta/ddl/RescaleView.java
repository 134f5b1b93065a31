package io.tributary.meta.ddl;

import io.tributary.catalog.TableDef;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * A view's new parallelism at an epoch boundary: its job and the jobs of the views reading it
 * stop and restart from their committed state, and the new definition is in memory at once;
 * the old definition comes back if the epoch fails (the failure rebuilds every job anyway).
 */
final class RescaleView implements EpochChange {
    private final String name;
    private final int parallelism;
    private final CatalogService catalogService;
    private final StreamRuntime runtime;
    private final ViewJobRecovery recovery;
    private final Function<String, TableDef> requireView;
    private final Function<TableDef, List<TableDef>> dependentsOf;
    /** The definition replaced at staging; null until then. */
    private TableDef before;

    /**
     * @param requireView the view of a name, or 42P01/42809
     * @param dependentsOf every view reading a relation, directly or through other views
     */
    RescaleView(
            String name,
            int parallelism,
            CatalogService catalogService,
            StreamRuntime runtime,
            ViewJobRecovery recovery,
            Function<String, TableDef> requireView,
            Function<TableDef, List<TableDef>> dependentsOf) {
        this.name = name;
        this.parallelism = parallelism;
        this.catalogService = catalogService;
        this.runtime = runtime;
        this.recovery = recovery;
        this.requireView = requireView;
        this.dependentsOf = dependentsOf;
    }

    @Override
    public void stage(WriteBuffer buffer) {
        TableDef view = requireView.apply(name);
        TableDef rescaled = new TableDef(
                        view.id(),
                        view.name(),
                        view.columns(),
                        view.primaryKey(),
                        view.definition(),
                        view.kind(),
                        view.query(),
                        view.dependsOn(),
                        view.stateTableIds(),
                        parallelism)
                .inSchema(view.schema())
                .withComment(view.comment());
        // an unpopulated dependent has no job to restart; REFRESH creates it
        List<TableDef> restarted = new ArrayList<>(dependentsOf.apply(view).stream()
                .filter(d -> !UnpopulatedViews.isUnpopulated(catalogService.catalog(), d.id()))
                .toList());
        restarted.add(rescaled);
        restarted.sort(Comparator.comparingInt(TableDef::id).reversed());
        for (TableDef r : restarted) {
            runtime.stop(r.id());
        }
        catalogService.stageRecord(buffer, rescaled);
        catalogService.catalog().put(rescaled);
        before = view;
        restarted.sort(Comparator.comparingInt(TableDef::id));
        for (TableDef r : restarted) {
            recovery.resume(r);
        }
    }

    @Override
    public void failed() {
        catalogService.catalog().put(before);
    }
}
