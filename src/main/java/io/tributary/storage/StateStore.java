package io.tributary.storage;

/**
 * The durable key-value store all state lives in.
 *
 * <p>Writes are staged in {@link WriteBuffer}s and become visible and durable only through
 * {@link #commit}, which applies one buffer and the epoch number in a single atomic, WAL-synced
 * write. Reads go through {@link ReadView}s, each a consistent point-in-time view of the last
 * committed epoch. All methods are thread-safe; callers serialize commits.
 */
public interface StateStore extends AutoCloseable {

    /** A consistent view of everything committed so far; the caller must close it. */
    ReadView snapshot();

    /**
     * A view that reads the latest committed state at each call (no snapshot is pinned), for
     * streaming operators reading back their own committed state; the caller must close it.
     */
    ReadView latest();

    /** An empty buffer whose reads fall through to the latest committed state. */
    WriteBuffer newWriteBuffer();

    /**
     * Atomically applies {@code buffer} and records {@code epoch} as committed; returns once the
     * write is synced to disk. The buffer must not be used afterwards except to close it.
     *
     * @param epoch must be greater than {@link #committedEpoch()}
     */
    void commit(long epoch, WriteBuffer buffer);

    /** The epoch of the last commit, surviving restarts; 0 on a fresh store. */
    long committedEpoch();

    @Override
    void close();
}
