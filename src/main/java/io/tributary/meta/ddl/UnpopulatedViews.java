package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.WriteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Materialized views created {@code WITH NO DATA} and not refreshed since. Such a view is its
 * catalog record and a marker, nothing more: no job, no pinned snapshot, no change-log recorders and
 * no state, so the tables it reads can still be altered (pg_dump adds their primary keys after the
 * views) and other views can be created over it {@code WITH NO DATA}. REFRESH plans its query again
 * and creates it as {@code CREATE MATERIALIZED VIEW} would ({@link ViewDdl#refresh}).
 *
 * <p>The marker is durable (a catalog key, committed with the record and deleted in the epoch that
 * starts the view's job or drops it); {@link Catalog#unreadable} holds it in memory, as {@link
 * #unreadable}, from creation or startup until then.
 */
final class UnpopulatedViews {
    private UnpopulatedViews() {}

    private static byte[] key(int viewId) {
        return ("view-unpopulated/" + viewId).getBytes(StandardCharsets.UTF_8);
    }

    /** Stages the marker of view {@code viewId}, with its catalog record. */
    static void stage(WriteBuffer buffer, int viewId) {
        buffer.put(Keyspace.CATALOG, key(viewId), new byte[0]);
    }

    /** Stages the removal of view {@code viewId}'s marker, if it has one (REFRESH or DROP). */
    static void stageRemoval(WriteBuffer buffer, int viewId) {
        buffer.delete(Keyspace.CATALOG, key(viewId));
    }

    /** Whether view {@code viewId} was committed unpopulated and not refreshed since; at startup. */
    static boolean isStored(ReadView committed, int viewId) {
        return committed.get(Keyspace.CATALOG, key(viewId)) != null;
    }

    /** Whether {@code catalog} holds view {@code viewId} as not populated; any thread. */
    static boolean isUnpopulated(Catalog catalog, int viewId) {
        return catalog.unreadable(viewId).map(Catalog.Unreadable::awaitsRefresh).orElse(false);
    }

    /** Marks {@code view} in {@code catalog} as not populated: reading it fails with PostgreSQL's 55000. */
    static void markUnreadable(Catalog catalog, TableDef view) {
        // by id, so that the message names the view as renamed since
        catalog.creating(view.id(), () -> new Catalog.Unreadable(message(current(catalog, view)), HINT, true));
    }

    /** PostgreSQL's 55000 for reading or building on {@code view}, which is not populated. */
    static TributaryException notPopulated(TableDef view) {
        return new TributaryException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, message(view), 0, null, HINT, null);
    }

    private static final String HINT = "Use the REFRESH MATERIALIZED VIEW command.";

    private static TableDef current(Catalog catalog, TableDef view) {
        return catalog.tables().stream()
                .filter(t -> t.id() == view.id())
                .findFirst()
                .orElse(view);
    }

    private static String message(TableDef view) {
        return "materialized view \"" + view.localName() + "\" has not been populated";
    }
}
