package io.tributary.stream;

/**
 * Receives one epoch's state changes from {@link StateTable#flush}: full store keys of the data
 * keyspace, applied in the epoch's atomic commit. Called on the flushing actor's thread.
 */
public interface StateWrites {
    void put(byte[] key, byte[] value);

    void delete(byte[] key);
}
