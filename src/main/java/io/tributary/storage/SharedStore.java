package io.tributary.storage;

import java.util.List;

/**
 * One durable store divided into namespaces, each a complete {@link StateStore} with its own
 * keyspaces, committed epoch and pins: the engine of several databases that share one RocksDB. A
 * namespace's commits and reads touch only its own keys, so namespaces commit independently and
 * concurrently. Beside the namespaces, one small <em>root record</em> (opaque bytes) says which
 * namespaces are in use; it is replaced whole in one synced write, so the list is atomic across
 * crashes.
 *
 * <p>Thread-safe. Namespace 0 always exists; it is the store's original keyspace, so a store made
 * before namespaces existed opens as namespace 0 unchanged.
 */
public interface SharedStore extends AutoCloseable {

    /**
     * The state store of namespace {@code id}, created empty when it does not exist. The caller
     * closes it before {@link #dropNamespace} and before closing this store; closing it leaves the
     * other namespaces open.
     *
     * @throws IllegalStateException when that namespace is open already
     */
    StateStore openNamespace(int id);

    /**
     * Removes namespace {@code id} and everything in it (keys, logs, pins). Its state store must be
     * closed. Does nothing when it does not exist, so clean-up after a crash can be repeated.
     *
     * @throws IllegalArgumentException for namespace 0, which cannot be removed
     */
    void dropNamespace(int id);

    /** The ids of the namespaces that hold keys or were opened, ascending; always includes 0. */
    List<Integer> namespaces();

    /** The root record as last written, or null on a new store. */
    byte[] readRoot();

    /** Replaces the root record; durable and atomic when this returns. */
    void writeRoot(byte[] record);

    /** Closes the engine; every namespace must be closed first. */
    @Override
    void close();
}
