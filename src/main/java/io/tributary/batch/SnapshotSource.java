package io.tributary.batch;

import io.tributary.storage.StateStore;

/** Opens {@link Snapshot}s of the last committed epoch. Thread-safe. */
public final class SnapshotSource {
    private final StateStore store;

    public SnapshotSource(StateStore store) {
        this.store = store;
    }

    /** A snapshot of the last committed epoch; the caller must close it. */
    public Snapshot open() {
        return new Snapshot(store.snapshot());
    }

    /**
     * A raw view of the last committed epoch, for a transaction that reads it across statements;
     * the caller must close it.
     */
    public io.tributary.storage.ReadView openView() {
        return store.snapshot();
    }
}
