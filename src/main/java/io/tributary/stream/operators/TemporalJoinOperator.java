package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.JoinKind;
import io.tributary.plan.TemporalJoinNode;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateTable;
import io.tributary.stream.StateWrites;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A processing-time temporal join ({@link TemporalJoinNode}): a left insert looks its right row up
 * by primary key in the right table's committed rows, the table as of the last committed epoch, so
 * the row joins the version current when it was processed; the table's later changes reach no
 * emitted row. The right table has no state here: its rows are read where the table keeps them
 * (docs/ARCHITECTURE.md, Temporal joins). The memo (state table 0, keyed by the left stream key)
 * keeps the right row each left row was joined with, so a left delete retracts exactly the row its
 * insert emitted, whatever the right table holds by then. An inner join memoizes matched rows only;
 * a left row without a memo entry was unmatched (NULL-padded in a LEFT join, absent otherwise). Over
 * an append-only left side ({@link TemporalJoinNode#memoized()} false) nothing is memoized.
 *
 * <p>Calls as in {@link Operator}, on the actor thread. The lookups of a chunk's inserts are one
 * batched read.
 */
public final class TemporalJoinOperator implements Operator {
    private final TemporalJoinNode node;
    private final boolean leftJoin;
    private final ReadView committed;
    private final RowCodec rightRows;
    private final List<DataType> keyTypes;
    private final int[] lookupColumns;
    private final int[] streamKey;
    private final int leftWidth;
    private final int rightWidth;
    private final StateTable memo;
    private final ExprEvaluator evaluator;
    /** Where a lookup key is encoded before its exact-size copy. */
    private final ByteWriter keyWriter = new ByteWriter(32);

    /**
     * @param stateTableIds the node's one state table id (the memo)
     * @param committed the latest committed state, where both the right table's rows and the memo
     *     are read; not closed here
     */
    public TemporalJoinOperator(TemporalJoinNode node, int[] stateTableIds, ReadView committed) {
        this.node = node;
        this.leftJoin = node.kind() == JoinKind.LEFT;
        this.committed = committed;
        List<DataType> rightTypes = node.rightFields().stream().map(Field::type).toList();
        this.rightRows = new RowCodec(rightTypes);
        this.keyTypes = Arrays.stream(node.rightKey()).mapToObj(rightTypes::get).toList();
        this.lookupColumns = node.lookupColumns();
        this.streamKey = node.streamKey();
        this.leftWidth = node.left().fields().size();
        this.rightWidth = rightTypes.size();
        List<DataType> leftTypes =
                node.left().fields().stream().map(Field::type).toList();
        List<DataType> memoKey =
                Arrays.stream(streamKey).mapToObj(leftTypes::get).toList();
        this.memo = new StateTable(stateTableIds[0], memoKey, null, memoKey.size(), rightTypes, committed);
        this.evaluator = new ExprEvaluator("temporal join with " + node.rightTableName());
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        int n = chunk.size();
        int[] lookup = new int[n];
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            lookup[i] = chunk.op(i) == Op.INSERT ? keyOf(chunk.row(i), keys) : -1;
        }
        List<byte[]> found = keys.isEmpty() ? List.of() : committed.getAll(Keyspace.DATA, keys);
        for (int i = 0; i < n; i++) {
            Object[] row = chunk.row(i);
            if (chunk.op(i) == Op.INSERT) {
                byte[] stored = lookup[i] < 0 ? null : found.get(lookup[i]);
                Object[] right = stored == null ? null : rightRows.decode(stored);
                Object[] joined = right == null ? null : joined(row, right);
                if (joined != null
                        && node.condition() != null
                        && !Boolean.TRUE.equals(evaluator.eval(node.condition(), joined))) {
                    joined = null;
                }
                if (joined != null) {
                    if (node.memoized()) {
                        memo.put(memoKey(row), right);
                    }
                    out.emit(Op.INSERT, joined);
                } else if (leftJoin) {
                    out.emit(Op.INSERT, joined(row, null));
                }
            } else {
                if (!node.memoized()) {
                    // the plan found the left side append-only; a retraction would go unmatched
                    throw new IllegalStateException("a delete reached the temporal join with " + node.rightTableName()
                            + " over an append-only input");
                }
                Object[] key = memoKey(row);
                Object[] right = memo.get(key);
                if (right != null) {
                    memo.delete(key);
                    out.emit(Op.DELETE, joined(row, right));
                } else if (leftJoin) {
                    out.emit(Op.DELETE, joined(row, null));
                }
            }
        }
    }

    /**
     * Adds the right table's row key for {@code row} to {@code keys} and returns its index there,
     * or -1 when a key column is NULL (no row can match).
     */
    private int keyOf(Object[] row, List<byte[]> keys) {
        for (int c : lookupColumns) {
            if (row[c] == null) {
                return -1;
            }
        }
        keyWriter.reset();
        keyWriter.skip(TableKeys.PREFIX_LENGTH);
        KeyCodec.encode(keyWriter, keyTypes, row, lookupColumns);
        keys.add(TableKeys.fillPrefix(node.rightTableId(), keyWriter.toByteArray()));
        return keys.size() - 1;
    }

    private Object[] memoKey(Object[] row) {
        Object[] key = new Object[streamKey.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[streamKey[i]];
        }
        return key;
    }

    /** The left row then the right row's columns; NULLs for a missing right row. */
    private Object[] joined(Object[] left, Object[] right) {
        Object[] out = Arrays.copyOf(left, leftWidth + rightWidth);
        if (right != null) {
            System.arraycopy(right, 0, out, leftWidth, rightWidth);
        }
        return out;
    }

    @Override
    public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
        memo.flush(writes);
    }
}
