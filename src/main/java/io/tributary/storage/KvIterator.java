package io.tributary.storage;

/** A forward iterator over key-value pairs; one thread at a time. */
public interface KvIterator extends AutoCloseable {
    /** Advances to the next pair; false when there is none. Must be called before the first read. */
    boolean next();

    byte[] key();

    byte[] value();

    @Override
    void close();
}
