package io.tributary.meta.ddl;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.function.Consumer;

/**
 * Where a new materialized view's backfill asks to run: the creating session's {@code SET
 * remote_backfill} and {@code SET fallback_to_local}. With a worker, the view's snapshot phase is
 * computed on a worker and taken over by the server, which then reads the change logs itself
 * ({@link RemoteViewSnapshots}). A view a worker cannot compute (no jobs database, or a view
 * reading another database) runs in the server with a NOTICE saying why when its fallback allows,
 * and is refused with 0A000 before anything is created when it does not.
 *
 * @param remote the session asks for a worker ({@code remote_backfill})
 * @param fallbackToLocal it may run in the server when no worker can take it ({@code fallback_to_local})
 */
public record ViewBackfillPlacement(boolean remote, boolean fallbackToLocal) {
    /** The defaults: in the server. */
    public static final ViewBackfillPlacement LOCAL = new ViewBackfillPlacement(false, true);

    /**
     * Decides, on the creating session's thread and before the view is created, whether the
     * backfill of {@code view} may ask for a worker, telling {@code notices} why not when it asked.
     *
     * @param remoteEnabled whether the server has a jobs database ({@code --jobs-url})
     * @return this placement when it may, {@link #LOCAL} when it runs in the server
     */
    ViewBackfillPlacement place(String view, boolean remoteEnabled, Consumer<String> notices) {
        if (!remote) {
            return LOCAL;
        }
        if (!remoteEnabled) {
            notices.accept("materialized view \"" + view + "\" is backfilled in the server: remote_backfill needs a"
                    + " server started with --jobs-url");
            return LOCAL;
        }
        return this;
    }

    /**
     * Decides, once the view is planned, whether a worker can compute its snapshot phase.
     *
     * @param readsOtherDatabases the view reads relations of other databases (a worker cannot: their
     *     snapshots are pinned by those databases)
     * @return this placement, or null when the backfill runs in the server (with a NOTICE)
     * @throws TributaryException 0A000 when a worker cannot and fallback to local is not allowed
     */
    ViewBackfillPlacement forPlan(String view, boolean readsOtherDatabases, Consumer<String> notices) {
        if (!readsOtherDatabases) {
            return this;
        }
        String why = "workers do not compute the snapshot phase of a view reading other databases";
        if (!fallbackToLocal) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "remote backfill of materialized view \"" + view + "\" is not supported: " + why,
                    0,
                    null,
                    "SET fallback_to_local = true to backfill it in the server, or SET remote_backfill = false.",
                    null);
        }
        notices.accept("materialized view \"" + view + "\" is backfilled in the server: " + why);
        return null;
    }
}
