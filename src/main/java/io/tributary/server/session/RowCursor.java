package io.tributary.server.session;

import java.util.List;

/**
 * A forward-only cursor over result rows, each an array of canonical values in column order.
 * Called from the session's thread only.
 */
public interface RowCursor extends AutoCloseable {
    /** Up to {@code maxRows} next rows (all remaining when maxRows is 0); empty when exhausted. */
    List<Object[]> fetch(int maxRows);

    /** True once every row has been fetched. */
    boolean exhausted();

    /** Releases the snapshot and resources behind the cursor; idempotent. */
    @Override
    void close();
}
