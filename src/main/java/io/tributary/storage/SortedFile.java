package io.tributary.storage;

/**
 * Puts of the data keyspace in ascending key order, written to a file as they come rather than
 * held in memory, and applied later by {@link StateStore#write(WriteBuffer, java.util.List)}
 * atomically with that write's buffer. A backfill's {@code SELECT *} view streams its snapshot
 * rows into one (docs/ARCHITECTURE.md, "Snapshot rows written to files"). Made by {@link
 * StateStore#newSortedFile}; used by one thread at a time.
 */
public interface SortedFile extends AutoCloseable {
    /**
     * Appends a put of the first {@code keyLength} bytes of {@code key}. The arrays are read at
     * once, not kept, so the caller may reuse them.
     *
     * @throws IllegalArgumentException when the key is not {@linkplain #above above} the last key put
     */
    default void put(byte[] key, int keyLength, byte[] value) {
        put(key, keyLength, value, value.length);
    }

    /** As {@link #put(byte[], int, byte[])} of the first {@code valueLength} bytes of {@code value}. */
    void put(byte[] key, int keyLength, byte[] value, int valueLength);

    /**
     * Hands every pair put to {@code sink} in key order, as new arrays: for a finished file that
     * will not be ingested after all, whose pairs go elsewhere. Only between {@link #finish} and
     * {@link #close}.
     */
    void forEach(java.util.function.BiConsumer<byte[], byte[]> sink);

    /** Whether the first {@code keyLength} bytes of {@code key} sort after every key put so far (unsigned). */
    boolean above(byte[] key, int keyLength);

    /** Puts so far. */
    long pairs();

    /** Completes the file and syncs it to disk; nothing may be put after it. */
    void finish();

    /**
     * Releases the file: deletes it unless a write ingested it (its name is stale then). Safe to
     * call more than once and on a file never finished, as a stopped job does.
     */
    @Override
    void close();
}
