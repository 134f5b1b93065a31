package io.tributary.stream;

import io.tributary.storage.SortedFile;

/**
 * Receives one epoch's state changes from {@link StateTable#flush}: full store keys of the data
 * keyspace, applied in the epoch's atomic commit. Called on the flushing actor's thread.
 */
public interface StateWrites {
    void put(byte[] key, byte[] value);

    void delete(byte[] key);

    /**
     * Takes a finished file of puts (ownership passes: the receiver closes it), applied atomically
     * with these writes and before every put and delete of theirs, so of a key both write, the
     * put or delete here wins. Only a backfill checkpoint's writes take files; callers check
     * {@link #takesFiles} first.
     *
     * @throws UnsupportedOperationException when these writes take no files
     */
    default void ingest(SortedFile file) {
        throw new UnsupportedOperationException("these state writes take no files");
    }

    /** Whether {@link #ingest} may be called: the writes are a backfill checkpoint's. */
    default boolean takesFiles() {
        return false;
    }
}
