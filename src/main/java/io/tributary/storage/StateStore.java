package io.tributary.storage;

import java.util.List;
import java.util.Optional;

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

    /**
     * Atomically applies {@code buffer} and syncs it, without committing an epoch: for state that
     * is consistent on its own and independent of the epochs, such as the checkpoint of a view
     * being backfilled, which must not wait for (nor slow down) the epoch commits. May run
     * concurrently with {@link #commit}; the writes of the two must touch different keys.
     */
    void write(WriteBuffer buffer);

    /**
     * As {@link #write(WriteBuffer)}, applying the puts of {@code files} first, in list order, then
     * {@code buffer}'s writes, all in one atomic write: where two of them write one key, the later
     * wins. The files must be finished ({@link SortedFile#finish}) and {@code buffer} must hold puts
     * and deletes of the data keyspace only. The caller still closes the files.
     *
     * @throws UnsupportedOperationException when {@code files} is not empty and this store makes no
     *     sorted files ({@link #newSortedFile} answers null)
     */
    default void write(WriteBuffer buffer, List<SortedFile> files) {
        if (!files.isEmpty()) {
            throw new UnsupportedOperationException("this store takes no sorted files");
        }
        write(buffer);
    }

    /**
     * A new, empty file of sorted puts for {@link #write(WriteBuffer, List)}, or null when this
     * store does not take such files (a worker's recording store hears every write as it happens,
     * so it keeps them in its write buffers). Any thread.
     */
    default SortedFile newSortedFile() {
        return null;
    }

    /** The epoch of the last commit, surviving restarts; 0 on a fresh store. */
    long committedEpoch();

    /**
     * Pins the committed state as it is now under {@code name}: it stays readable through
     * {@link #openPinned} whatever is committed later, across restarts and crashes, until
     * {@link #unpin}. Called by the committing thread right after a commit and never concurrently
     * with one, so the pin holds exactly {@link #committedEpoch()}; it is durable when this returns.
     * Costs about a memtable flush: pin once per consumer (a backfill at its start), not per epoch.
     *
     * @param name 1 to 128 characters, each a letter, digit, {@code _} or {@code -}
     * @return the pin and the epoch it holds
     * @throws IllegalArgumentException when the name is malformed
     * @throws IllegalStateException when a pin of that name exists, or was unpinned but is still
     *     being read
     */
    PinnedSnapshot pin(String name);

    /**
     * Writes what the store holds in memory to files, so that a {@link #pin} soon after has little
     * left to flush and holds up the committing thread only briefly. Any thread; may take a while;
     * never needed for correctness.
     */
    void flushMemory();

    /**
     * A read-only view of a pinned state, or empty when no pin of that name exists (never pinned,
     * or unpinned). Thread-safe; the caller closes the view and every iterator it opened. Views of
     * one pin share its resources, which may stay ready between views until it is unpinned: a pin
     * read piece by piece (one view per piece) need not be opened anew for each.
     */
    Optional<ReadView> openPinned(String name);

    /**
     * Removes a pin: from now on it is not listed and cannot be opened, and the storage it holds is
     * released once the last view of it and the last iterator over it are closed (at the next open
     * of the store, if the process ends first). Does nothing when no pin of that name exists, so
     * clean-up after a crash can simply be repeated. Any thread.
     */
    void unpin(String name);

    /** The names of the current pins, sorted. Any thread. */
    List<String> pinned();

    /** The engine's statistics as of now, for monitoring; any thread, cheap (no I/O). */
    default StoreStats stats() {
        return StoreStats.NONE;
    }

    /**
     * Roughly how many bytes the rows of relation or state table {@code tableId} take, in files
     * and memtables: an estimate from the engine's index, without reading the rows. Any thread;
     * 0 for an empty or unknown table, or a store that cannot estimate.
     */
    default long approximateBytes(int tableId) {
        return 0;
    }

    @Override
    void close();
}
