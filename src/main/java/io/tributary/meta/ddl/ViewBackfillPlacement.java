package io.tributary.meta.ddl;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.function.Consumer;

/**
 * Where a new materialized view's backfill asks to run: the creating session's {@code SET
 * remote_backfill} and {@code SET fallback_to_local}. Remote placement of a view's snapshot phase
 * is not built yet (workers run sink backfills only), so a view asking for it is backfilled in the
 * server with a NOTICE saying why when its fallback allows, and refused with 0A000 before anything
 * is created when it does not.
 *
 * @param remote the session asks for a worker ({@code remote_backfill})
 * @param fallbackToLocal it may run in the server when no worker can take it ({@code fallback_to_local})
 */
public record ViewBackfillPlacement(boolean remote, boolean fallbackToLocal) {
    /** The defaults: in the server. */
    public static final ViewBackfillPlacement LOCAL = new ViewBackfillPlacement(false, true);

    /** Why a view's backfill cannot run on a worker; named in the NOTICE and the 0A000. */
    static final String NOT_BUILT =
            "workers do not compute the snapshot phase of a view's backfill yet (they run sink backfills only)";

    /**
     * Decides, on the creating session's thread and before the view is created, that the backfill
     * of {@code view} runs in the server, telling {@code notices} why when it asked for a worker.
     *
     * @param remoteEnabled whether the server has a jobs database ({@code --jobs-url})
     * @throws TributaryException 0A000 when it asked for a worker without fallback to local and the
     *     server has a jobs database
     */
    void placeLocally(String view, boolean remoteEnabled, Consumer<String> notices) {
        if (!remote) {
            return;
        }
        if (!remoteEnabled) {
            notices.accept("materialized view \"" + view + "\" is backfilled in the server: remote_backfill needs a"
                    + " server started with --jobs-url");
            return;
        }
        if (!fallbackToLocal) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "remote backfill of materialized view \"" + view + "\" is not supported: " + NOT_BUILT,
                    0,
                    null,
                    "SET fallback_to_local = true to backfill it in the server, or SET remote_backfill = false.",
                    null);
        }
        notices.accept("materialized view \"" + view + "\" is backfilled in the server: " + NOT_BUILT);
    }
}
