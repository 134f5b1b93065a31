package io.tributary.stream;

/**
 * The net changes of one vnode of an upstream in one epoch, one per key, in primary-key order
 * (see {@link UpstreamTable}). Keys and rows are new arrays for each change, which the caller may
 * keep. One thread; close once.
 */
public interface ChangeStream extends AutoCloseable {
    /** Advances to the next change; false when there is none. Must be called before the first read. */
    boolean next();

    /** The changed key (memcomparable primary key): what a consumer checkpoints to resume after it. */
    byte[] pk();

    /** The key's row before the epoch, or null when the epoch inserted the key. */
    Object[] oldRow();

    /** The key's row after the epoch, or null when the epoch deleted the key. */
    Object[] newRow();

    @Override
    void close();
}
