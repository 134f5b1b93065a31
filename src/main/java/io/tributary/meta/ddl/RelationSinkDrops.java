package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.SinkDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.sink.SinkManager;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The sinks a {@code DROP TABLE | MATERIALIZED VIEW} meets: it refuses them, or with {@code
 * CASCADE} drops them first. Called by {@link DdlController#drop} on session threads, before the
 * relations are dropped; thread-safe.
 */
final class RelationSinkDrops {
    private final CatalogService catalogService;
    private final SinkManager sinks;

    RelationSinkDrops(CatalogService catalogService, SinkManager sinks) {
        this.catalogService = catalogService;
        this.sinks = sinks;
    }

    /**
     * Before dropping relations: without {@code cascade}, refuses (2BP01) when a sink delivers one of
     * them; with it, drops the sinks of them and of the views the drop cascades to, each in its own
     * epoch before the relations' (a crash in between leaves the relations without those sinks).
     */
    void dropSinksOf(List<String> names, RelationKind kind, boolean cascade, Consumer<String> notices)
            throws InterruptedException {
        Set<Integer> doomed = new HashSet<>();
        for (String name : names) {
            catalog().table(name).filter(t -> t.kind() == kind).ifPresent(t -> collect(t.id(), cascade, doomed));
        }
        for (int id : doomed) {
            for (SinkDef sink : sinks.sinksOn(id)) {
                if (!cascade) {
                    throw new TributaryException(
                            SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                            "cannot drop " + kind.sqlName() + " " + sink.relationName()
                                    + " because other objects depend on it",
                            0,
                            "sink " + sink.name() + " depends on " + sink.relationName(),
                            "Use DROP ... CASCADE to drop the dependent objects too.",
                            null);
                }
            }
        }
        for (int id : doomed) {
            for (SinkDef sink : sinks.sinksOn(id)) {
                notices.accept("drop cascades to sink " + sink.name());
                sinks.drop(sink.name(), true);
            }
        }
    }

    /** Adds {@code id} and, when cascading, every view reading it (transitively) to {@code out}. */
    private void collect(int id, boolean cascade, Set<Integer> out) {
        if (!out.add(id) || !cascade) {
            return;
        }
        for (TableDef t : catalog().tables()) {
            if (t.dependsOn(id)) {
                collect(t.id(), true, out);
            }
        }
    }

    private Catalog catalog() {
        return catalogService.catalog();
    }
}
