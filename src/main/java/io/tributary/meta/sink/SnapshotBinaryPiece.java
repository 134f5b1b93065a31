package io.tributary.meta.sink;

/**
 * A piece of an exported sink snapshot in PostgreSQL's binary COPY format, as {@code COPY
 * tributary_snapshot(..., 'binary') TO STDOUT} serves it to a worker: header, one tuple per row
 * with {@link SnapshotChunk}'s columns (the target's, the operation, the primary key), trailer.
 *
 * @param fields the fields of each tuple
 * @param body the whole COPY data
 * @param rows the tuples in it
 */
public record SnapshotBinaryPiece(int fields, byte[] body, int rows) {}
