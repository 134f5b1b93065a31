package io.tributary.storage;

import java.util.List;

/**
 * Staged writes of one epoch, applied by {@link StateStore#commit} in one atomic write. Later
 * writes to a key replace earlier ones. Not thread-safe: one owner at a time (the barrier manager
 * hands it to one stager at a time).
 */
public interface WriteBuffer extends AutoCloseable {

    void put(Keyspace keyspace, byte[] key, byte[] value);

    void delete(Keyspace keyspace, byte[] key);

    /**
     * Puts every pair of {@code run}, as {@link #put} of each would. The buffer holds the run
     * until it is applied: the caller adds nothing to it afterwards.
     */
    void putRun(Keyspace keyspace, KeyValueRun run);

    /**
     * Puts every pair of the finished {@code file} into the data keyspace when this buffer is
     * committed, atomically with its other writes (after a crash, all of them or none): the pairs
     * bypass memory, so a whole table rewritten into a file (a new table id's rows) costs no heap.
     * Every key of the file lies in {@code [from, toExclusive)}, a range that holds no committed
     * key and that no other write of this buffer touches; this buffer's reads ({@link #exists},
     * {@link #get}) do not see the file's pairs. The buffer takes the file over and
     * closes it when it is applied or closed. Only for buffers of a store whose {@link
     * StateStore#newSortedFile} made the file.
     *
     * @throws UnsupportedOperationException when this buffer's store takes no sorted files
     */
    default void putFile(SortedFile file, byte[] from, byte[] toExclusive) {
        throw new UnsupportedOperationException("this store takes no sorted files");
    }

    /**
     * The position in {@code run} of a key that will exist after commit (see {@link #exists}), or
     * -1 when none does: the uniqueness check of a bulk load, answered by one seek when no
     * committed key lies between the run's least and greatest keys.
     */
    int firstExisting(Keyspace keyspace, KeyValueRun run);

    /**
     * Deletes every committed key in {@code [from, toExclusive)}, in order with the other writes.
     * {@link #exists} does not account for it: callers never reuse a range they delete (table ids
     * are never reused).
     */
    void deleteRange(Keyspace keyspace, byte[] from, byte[] toExclusive);

    /** Whether {@code key} will exist after commit: this buffer's last write to it, else the committed state. */
    boolean exists(Keyspace keyspace, byte[] key);

    /** {@link #exists} for many keys at once (one batched read of the committed state). */
    boolean[] existAll(Keyspace keyspace, List<byte[]> keys);

    /** The value {@code key} will have after commit (this buffer's last write, else committed), or null. */
    byte[] get(Keyspace keyspace, byte[] key);

    /** {@link #get} for many keys at once (one batched read of the committed state). */
    List<byte[]> getAll(Keyspace keyspace, List<byte[]> keys);

    /**
     * Hands {@code action} every key in {@code [from, toExclusive)} this buffer wrote (by put,
     * delete or run; not by {@link #deleteRange} or {@link #putFile}), in no order, with its value
     * after this buffer (null: deleted): with a scan of the committed state, what a scan of the
     * state after commit would see. For checks that must read a whole table under the barrier
     * lock (a FOREIGN KEY's referencing rows).
     */
    void forEachWritten(
            Keyspace keyspace, byte[] from, byte[] toExclusive, java.util.function.BiConsumer<byte[], byte[]> action);

    /** Marks a point {@link #rollbackToSavePoint()} returns to; one save point at a time. */
    void setSavePoint();

    /** Undoes every write since the save point and removes it. */
    void rollbackToSavePoint();

    /** Removes the save point, keeping the writes made since. */
    void releaseSavePoint();

    /** Number of buffered writes. */
    long size();

    @Override
    void close();
}
