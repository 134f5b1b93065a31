package io.tributary.stream;

/**
 * Receives one epoch's state changes from {@link StateTable#flush}: full store keys of the data
 * keyspace, applied in the epoch's atomic commit. Called on the flushing actor's thread.
 */
public interface StateWrites {
    void put(byte[] key, byte[] value);

    void delete(byte[] key);

    /**
     * Flushing actor's thread: waits until the writes handed here are in the committed state its
     * state tables read. Writes of a live epoch are by the time the actor reads again (the next
     * epoch's input arrives after the commit), so by default this returns at once; a backfill
     * checkpoint's are once its coordinator has written them.
     *
     * @throws InterruptedException when the job is being stopped
     */
    default void awaitStored() throws InterruptedException {}
}
