package io.tributary.storage;

/**
 * Staged writes, indexed so they can be read back before they commit. Later writes to a key
 * replace earlier ones. Not thread-safe: one owner at a time.
 */
public interface WriteBuffer extends AutoCloseable {

    void put(Keyspace keyspace, byte[] key, byte[] value);

    void delete(Keyspace keyspace, byte[] key);

    /** Deletes every committed key in {@code [from, toExclusive)}; applied at commit, before the other writes. */
    void deleteRange(Keyspace keyspace, byte[] from, byte[] toExclusive);

    /** The value this buffer holds for {@code key}: null when the buffer has no put for it. */
    byte[] getBuffered(Keyspace keyspace, byte[] key);

    /** The value as it would be after commit: this buffer over the latest committed state. */
    byte[] getThrough(Keyspace keyspace, byte[] key);

    /** Marks a point {@link #rollbackToSavePoint()} returns to. */
    void setSavePoint();

    /** Undoes every write since the last save point (and removes that save point). */
    void rollbackToSavePoint();

    /** Drops the last save point, keeping the writes made since. */
    void popSavePoint();

    /** Visits the buffered puts and deletes of one keyspace in key order. */
    void forEach(Keyspace keyspace, EntryVisitor visitor);

    /** Number of buffered writes (puts, deletes, range deletes). */
    long size();

    @Override
    void close();

    /** Receives buffered entries; {@code value} is null for a delete. */
    @FunctionalInterface
    interface EntryVisitor {
        void visit(byte[] key, byte[] value);
    }
}
