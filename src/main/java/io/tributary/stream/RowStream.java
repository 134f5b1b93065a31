package io.tributary.stream;

/**
 * The rows of one vnode of an upstream snapshot, in primary-key order (see {@link UpstreamTable}).
 * One thread; close once.
 */
public interface RowStream extends AutoCloseable {
    /** Advances to the next row; false when there is none. Must be called before the first read. */
    boolean next();

    /**
     * The current row's memcomparable primary key: what a consumer checkpoints to resume after it.
     * Like {@link #row()}, a new array for each row that the caller may keep.
     */
    byte[] pk();

    /** The current row, full width, canonical values. */
    Object[] row();

    /**
     * The current row as the relation stores it (its {@code RowCodec} encoding), for a consumer
     * that re-encodes values without decoding them (a sink's binary COPY). Like {@link #pk()}, an
     * array the caller may keep.
     */
    byte[] encodedRow();

    @Override
    void close();
}
