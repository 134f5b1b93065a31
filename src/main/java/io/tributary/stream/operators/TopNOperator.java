package io.tributary.stream.operators;

import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.SortKey;
import io.tributary.plan.TopNNode;
import io.tributary.storage.ReadView;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.KeyOrder;
import io.tributary.stream.Op;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateTable;
import io.tributary.stream.StateWrites;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * {@code ORDER BY ... LIMIT limit OFFSET offset} over the whole input (one actor): after every
 * chunk its output is exactly the input rows ranked {@code offset + 1 .. offset + limit} in (sort
 * keys, stream key) order; the stream key makes the order total, so ties on the sort keys always
 * break the same way. Each sort key's direction and NULL placement are honored as given.
 *
 * <p>State table 0 holds every live input row, keyed by (sort columns in their {@link KeyOrder},
 * stream key columns), so its key order is the ranking. In memory the operator keeps only the
 * current output (the "range"), by state key. A chunk that changes nothing ranked up to
 * {@code offset + limit} (every change sorts after the range's last row, while the range is full)
 * costs no read; otherwise the first {@code offset + limit} state entries are read again and the
 * difference to the previous range is emitted: DELETEs of rows leaving (or changed), then INSERTs
 * of rows entering. Memory is bounded by {@code limit} rows, whatever the input size; a chunk's
 * cost is bounded by {@code offset + limit} reads, which is meant for the small limits of top-N
 * queries.
 *
 * <p>A restored operator reads its range from the committed state, emitting nothing: that range is
 * the output committed with the state.
 */
public final class TopNOperator implements Operator {
    private final long offset;
    private final long limit;
    /** Rank of the range's last row: offset + limit, saturated. */
    private final long end;
    /** Input columns forming the state key: sort columns, then stream key columns. */
    private final int[] keyColumns;

    private final StateTable rows;
    /** The rows currently emitted and not retracted, by state key: ranks offset + 1 .. end. */
    private NavigableMap<byte[], Object[]> range;

    /**
     * @param stateTableIds the node's state table ids; only the first is used
     * @param committed the latest committed state; not closed here
     */
    public TopNOperator(TopNNode node, int[] stateTableIds, ReadView committed) {
        if (node.offset() < 0 || node.limit() < 0) {
            throw new IllegalArgumentException("negative offset or limit");
        }
        this.offset = node.offset();
        this.limit = node.limit();
        this.end = offset + limit < 0 ? Long.MAX_VALUE : offset + limit;
        List<Field> fields = node.fields();
        List<SortKey> order = node.order();
        int[] streamKey = node.streamKey();
        this.keyColumns = new int[order.size() + streamKey.length];
        List<DataType> keyTypes = new ArrayList<>();
        List<KeyOrder> keyOrder = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            SortKey s = order.get(i);
            keyColumns[i] = s.column();
            keyTypes.add(fields.get(s.column()).type());
            keyOrder.add(new KeyOrder(s.descending(), s.nullsFirst()));
        }
        for (int i = 0; i < streamKey.length; i++) {
            keyColumns[order.size() + i] = streamKey[i];
            keyTypes.add(fields.get(streamKey[i]).type());
            keyOrder.add(KeyOrder.DEFAULT);
        }
        List<DataType> valueTypes = fields.stream().map(Field::type).toList();
        this.rows = new StateTable(stateTableIds[0], keyTypes, keyOrder, 0, valueTypes, committed);
        this.range = readRange();
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        boolean touched = false;
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = chunk.row(i);
            Object[] key = keyOf(row);
            // the range at the start of the chunk decides: changes after its last row cannot move any rank up to end
            touched = touched || touches(key);
            if (chunk.op(i) == Op.INSERT) {
                rows.put(key, row);
            } else {
                rows.delete(key);
            }
        }
        if (touched) {
            refresh(out);
        }
    }

    @Override
    public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
        rows.flush(writes);
    }

    /** Whether a change of the row with state key {@code key} may change the ranks 1 .. end. */
    private boolean touches(Object[] key) {
        if (limit == 0) {
            return false;
        }
        // a range short of limit rows means fewer than end rows exist: every change counts
        return range.size() < limit || Arrays.compareUnsigned(rows.storeKey(key), range.lastKey()) <= 0;
    }

    /** Reads the new range from state and emits its difference to the current one. */
    private void refresh(Output out) {
        NavigableMap<byte[], Object[]> next = readRange();
        for (Map.Entry<byte[], Object[]> e : range.entrySet()) {
            Object[] now = next.get(e.getKey());
            if (now == null || !Arrays.deepEquals(now, e.getValue())) {
                out.emit(Op.DELETE, e.getValue());
            } else {
                // keep the instance emitted, so a later DELETE carries exactly the row its INSERT did
                next.put(e.getKey(), e.getValue());
            }
        }
        for (Map.Entry<byte[], Object[]> e : next.entrySet()) {
            Object[] before = range.get(e.getKey());
            if (before != e.getValue()) {
                out.emit(Op.INSERT, e.getValue());
            }
        }
        range = next;
    }

    /** The state rows ranked offset + 1 .. end, by state key; reads at most end entries. */
    private NavigableMap<byte[], Object[]> readRange() {
        NavigableMap<byte[], Object[]> out = new TreeMap<>(Arrays::compareUnsigned);
        if (limit == 0) {
            return out;
        }
        long rank = 0;
        try (StateTable.ValueIterator it = rows.scan(new Object[0])) {
            while (rank < end && it.hasNext()) {
                Object[] row = it.next();
                if (rank >= offset) {
                    out.put(rows.storeKey(keyOf(row)), row);
                }
                rank++;
            }
        }
        return out;
    }

    private Object[] keyOf(Object[] row) {
        Object[] key = new Object[keyColumns.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[keyColumns[i]];
        }
        return key;
    }
}
