package io.tributary.storage;

/** A consistent, read-only view of the store at one committed epoch. Thread-safe; close once. */
public interface ReadView extends AutoCloseable {

    /** The value of {@code key}, or null when absent. */
    byte[] get(Keyspace keyspace, byte[] key);

    /** Keys in {@code [from, toExclusive)} in unsigned byte order; the caller closes the iterator. */
    KvIterator scan(Keyspace keyspace, byte[] from, byte[] toExclusive);

    @Override
    void close();
}
