package io.tributary.storage;

/** A consistent, read-only view of the store at one committed epoch. Thread-safe; close once. */
public interface ReadView extends AutoCloseable {

    /** The value of {@code key}, or null when absent. */
    byte[] get(Keyspace keyspace, byte[] key);

    /**
     * The values of {@code keys} in their order, null where absent: as {@link #get} of each, in
     * one batched read where the store has one (far fewer native calls for many keys).
     */
    default java.util.List<byte[]> getAll(Keyspace keyspace, java.util.List<byte[]> keys) {
        java.util.List<byte[]> out = new java.util.ArrayList<>(keys.size());
        for (byte[] key : keys) {
            out.add(get(keyspace, key));
        }
        return out;
    }

    /** Keys in {@code [from, toExclusive)} in unsigned byte order; the caller closes the iterator. */
    KvIterator scan(Keyspace keyspace, byte[] from, byte[] toExclusive);

    @Override
    void close();
}
