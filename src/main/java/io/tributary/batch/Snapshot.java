package io.tributary.batch;

import io.tributary.catalog.TableDef;
import io.tributary.storage.ReadView;

/**
 * A consistent read of the last committed epoch, shared by all scans of one statement so that a
 * query joining several tables sees them at the same epoch. Close it when the statement's cursor
 * closes. Thread-safe.
 */
public final class Snapshot implements AutoCloseable {
    private final ReadView view;

    Snapshot(ReadView view) {
        this.view = view;
    }

    /** A scan over all rows of {@code table}; close it before closing the snapshot. */
    public TableScan scan(TableDef table) {
        return new TableScan(view, table);
    }

    @Override
    public void close() {
        view.close();
    }
}
