package io.tributary.meta.sink;

import io.tributary.common.types.DataType;
import java.util.List;

/**
 * A piece of an exported sink snapshot, as {@code COPY tributary_snapshot(...) TO STDOUT} serves
 * it to a worker: the target's columns, then the operation ({@code U}, the staging table's {@code
 * tributary_op}), then the row's primary key (bytea, memcomparable: where the next piece resumes).
 * Rows are in key order within one vnode.
 */
public record SnapshotChunk(List<String> names, List<DataType> types, List<Object[]> rows) {}
