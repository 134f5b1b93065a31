package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ViewDef;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.WriteBuffer;
import java.util.List;

/**
 * {@code CREATE [OR REPLACE] VIEW} and {@code DROP VIEW} of plain (not materialized) views: only
 * their catalog records, each statement's in one epoch. Called by {@link DdlController} on session
 * threads; thread-safe (the catalog and the barrier manager are). Each method returns once its
 * epoch is durable.
 */
final class PlainViewDdl {
    private final CatalogService catalogService;
    private final BarrierManager barriers;

    PlainViewDdl(CatalogService catalogService, BarrierManager barriers) {
        this.catalogService = catalogService;
        this.barriers = barriers;
    }

    /**
     * Stores {@code view}'s record, replacing a view of that name when {@code orReplace} is set.
     *
     * @throws TributaryException 42P07 when a relation has the name, or a view has it and
     *     {@code orReplace} is not set
     */
    void create(ViewDef view, boolean orReplace) throws InterruptedException {
        ViewDef replaced = orReplace ? catalog().view(view.name()).orElse(null) : null;
        boolean replacing = replaced != null;
        if (!replacing) {
            catalogService.reserveName(view.name(), false);
        }
        try {
            ViewDef stored = replacing ? withCommentsOf(replaced, view) : view;
            barriers.awaitCommitted(barriers.stage(new NewView(stored, !replacing)));
        } catch (RuntimeException | InterruptedException e) {
            if (!replacing) {
                catalogService.releaseName(view.name());
            }
            throw e;
        }
    }

    /**
     * {@code view} with the comments of the view it replaces, as PostgreSQL keeps them: the
     * view's, and each column's by position (a replacing view keeps the columns it replaces).
     */
    private static ViewDef withCommentsOf(ViewDef replaced, ViewDef view) {
        List<io.tributary.catalog.ColumnDef> columns = new java.util.ArrayList<>(view.columns());
        for (int i = 0; i < columns.size() && i < replaced.columns().size(); i++) {
            columns.set(i, columns.get(i).withComment(replaced.columns().get(i).comment()));
        }
        return view.withComments(replaced.comment(), columns);
    }

    /** A plain view's record, published once durable. */
    private final class NewView implements EpochChange {
        private final ViewDef view;
        private final boolean reserved;

        NewView(ViewDef view, boolean reserved) {
            this.view = view;
            this.reserved = reserved;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            CatalogService.stageView(buffer, view);
        }

        @Override
        public void committed() {
            catalog().putView(view);
            if (reserved) {
                catalogService.releaseName(view.name());
            }
        }

        @Override
        public void failed() {
            if (reserved) {
                catalogService.releaseName(view.name());
            }
        }
    }

    /**
     * Removes the views' records in one epoch.
     *
     * @throws TributaryException 42P01 when one of them does not exist (nothing is removed)
     */
    void drop(List<String> names) throws InterruptedException {
        barriers.awaitCommitted(barriers.stage(new DroppedViews(List.copyOf(names))));
    }

    /** Plain views removed; gone from the catalog at once, back if the epoch fails. */
    private final class DroppedViews implements EpochChange {
        private final List<String> names;
        private final List<ViewDef> removed = new java.util.ArrayList<>();

        DroppedViews(List<String> names) {
            this.names = names;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            for (String name : names) {
                ViewDef view = catalog()
                        .view(name)
                        .orElseThrow(() -> new TributaryException(
                                io.tributary.common.SqlState.UNDEFINED_TABLE, "view \"" + name + "\" does not exist"));
                CatalogService.stageViewRemoval(buffer, name);
                removed.add(view);
            }
            removed.forEach(v -> catalog().removeView(v.name()));
        }

        @Override
        public void failed() {
            removed.forEach(v -> catalog().putView(v));
        }
    }

    private Catalog catalog() {
        return catalogService.catalog();
    }
}
