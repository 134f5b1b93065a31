package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.OverWindowNode;
import io.tributary.plan.SortKey;
import io.tributary.plan.WindowCall;
import io.tributary.plan.WindowKind;
import io.tributary.storage.ReadView;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.KeyOrder;
import io.tributary.stream.Op;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateTable;
import io.tributary.stream.StateWrites;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Window functions over partitions ({@link OverWindowNode}), kept by recomputing each partition
 * an epoch changed: the first change of a partition in an epoch evaluates the partition's output
 * as it stands (what was emitted at the last barrier), and at the barrier the partition is
 * evaluated again and the difference emitted, DELETEs of changed rows before INSERTs. So a
 * partition's cost per epoch is one or two reads of it, whatever the number of changes: this
 * suits partitions of bounded size (per user, per window), not one huge partition.
 *
 * <p>A group top-N ({@code limitCall >= 0}) reads a partition only up to the last row whose rank
 * is within the limit (and its peers' first successor), so its cost per touched partition is
 * bounded by the limit, not the partition's size.
 *
 * <p>State table 0 holds every live input row keyed by (partition keys, order columns in their
 * {@link KeyOrder}, stream key), the partition keys being the distribution key: a scan of one
 * partition returns its rows in window order. In memory the operator keeps only the touched
 * partitions' previous output, between a partition's first change in an epoch and the barrier. A
 * restored operator holds nothing: its committed state is exactly what its output was computed
 * from.
 */
public final class OverWindowOperator implements Operator {
    private final int[] partition;
    private final int[] orderColumns;
    private final List<DataType> orderTypes;
    /** Input columns forming the state key: partition, order, then stream key columns. */
    private final int[] keyColumns;

    private final int limitCall;
    private final long limit;
    private final WindowKind limitKind;
    private final StateTable rows;
    private final WindowEvaluator evaluator;
    private final ByteWriter scratch = new ByteWriter(32);
    /** The partitions changed this epoch, by encoded partition key, with their output before the first change. */
    private final Map<ByteBuffer, Touched> touched = new LinkedHashMap<>();

    private record Touched(Object[] partition, NavigableMap<byte[], Object[]> before) {}

    /**
     * @param stateTableIds the node's state table ids; only the first is used
     * @param committed the latest committed state; not closed here
     */
    public OverWindowOperator(OverWindowNode node, int[] stateTableIds, ReadView committed) {
        List<Field> fields = node.input().fields();
        this.partition = node.partitionKeys().clone();
        List<SortKey> order = node.order();
        int[] streamKey = node.input().streamKey();
        this.orderColumns = order.stream().mapToInt(SortKey::column).toArray();
        this.orderTypes = order.stream().map(s -> fields.get(s.column()).type()).toList();
        this.keyColumns = new int[partition.length + order.size() + streamKey.length];
        List<DataType> keyTypes = new ArrayList<>();
        List<KeyOrder> keyOrder = new ArrayList<>();
        int k = 0;
        for (int c : partition) {
            keyColumns[k++] = c;
            keyTypes.add(fields.get(c).type());
            keyOrder.add(KeyOrder.DEFAULT);
        }
        for (SortKey s : order) {
            keyColumns[k++] = s.column();
            keyTypes.add(fields.get(s.column()).type());
            keyOrder.add(new KeyOrder(s.descending(), s.nullsFirst()));
        }
        for (int c : streamKey) {
            keyColumns[k++] = c;
            keyTypes.add(fields.get(c).type());
            keyOrder.add(KeyOrder.DEFAULT);
        }
        List<DataType> inputTypes = fields.stream().map(Field::type).toList();
        this.rows = new StateTable(stateTableIds[0], keyTypes, keyOrder, partition.length, inputTypes, committed);
        this.evaluator = new WindowEvaluator(node.frame(), node.calls(), inputTypes);
        this.limitCall = node.limitCall();
        this.limit = node.limit();
        this.limitKind = limitCall < 0 ? null : node.calls().get(limitCall).kind();
        if (limitKind != null && !node.calls().stream().map(WindowCall::kind).allMatch(WindowKind::isRanking)) {
            throw new IllegalArgumentException("a group top-N computes only ranking functions");
        }
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = chunk.row(i);
            Object[] p = new Object[partition.length];
            for (int j = 0; j < p.length; j++) {
                p[j] = row[partition[j]];
            }
            ByteBuffer id = ByteBuffer.wrap(rows.storeKey(p));
            if (!touched.containsKey(id)) {
                touched.put(id, new Touched(p, outputOf(p)));
            }
            Object[] key = keyOf(row);
            if (chunk.op(i) == Op.INSERT) {
                rows.put(key, row);
            } else {
                rows.delete(key);
            }
        }
    }

    @Override
    public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
        for (Touched t : touched.values()) {
            NavigableMap<byte[], Object[]> after = outputOf(t.partition());
            for (Map.Entry<byte[], Object[]> e : t.before().entrySet()) {
                Object[] now = after.get(e.getKey());
                if (now == null || !Arrays.deepEquals(now, e.getValue())) {
                    out.emit(Op.DELETE, e.getValue());
                }
            }
            for (Map.Entry<byte[], Object[]> e : after.entrySet()) {
                Object[] was = t.before().get(e.getKey());
                if (was == null || !Arrays.deepEquals(was, e.getValue())) {
                    out.emit(Op.INSERT, e.getValue());
                }
            }
        }
        touched.clear();
        rows.flush(writes);
    }

    /** The partition's output rows as its state now stands, by state key. */
    private NavigableMap<byte[], Object[]> outputOf(Object[] p) {
        List<Object[]> inputs = new ArrayList<>();
        List<byte[]> orderKeys = new ArrayList<>();
        try (StateTable.ValueIterator it = rows.scan(p)) {
            long rank = 0;
            long dense = 0;
            byte[] previous = null;
            while (it.hasNext()) {
                Object[] row = it.next();
                byte[] orderKey = orderKey(row);
                boolean peer = previous != null && Arrays.equals(previous, orderKey);
                if (!peer) {
                    rank = inputs.size() + 1;
                    dense++;
                }
                if (limitKind != null && beyondLimit(inputs.size() + 1, rank, dense)) {
                    break;
                }
                inputs.add(row);
                orderKeys.add(orderKey);
                previous = orderKey;
            }
        }
        int n = inputs.size();
        int[] peerStart = new int[n];
        int[] peerEnd = new int[n];
        for (int i = 0; i < n; i++) {
            peerStart[i] = i > 0 && Arrays.equals(orderKeys.get(i - 1), orderKeys.get(i)) ? peerStart[i - 1] : i;
        }
        for (int i = n - 1; i >= 0; i--) {
            peerEnd[i] = i < n - 1 && Arrays.equals(orderKeys.get(i + 1), orderKeys.get(i)) ? peerEnd[i + 1] : i;
        }
        Object[][] outputs = evaluator.evaluate(inputs, peerStart, peerEnd);
        NavigableMap<byte[], Object[]> byKey = new TreeMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < n; i++) {
            byKey.put(rows.storeKey(keyOf(inputs.get(i))), outputs[i]);
        }
        return byKey;
    }

    /** Whether a row with this row number, rank and dense rank falls outside a group top-N. */
    private boolean beyondLimit(long rowNumber, long rank, long dense) {
        return switch (limitKind) {
            case ROW_NUMBER -> rowNumber > limit;
            case RANK -> rank > limit;
            default -> dense > limit;
        };
    }

    /** The row's ORDER BY values, encoded so that peers have equal keys. */
    private byte[] orderKey(Object[] row) {
        scratch.reset();
        for (int i = 0; i < orderColumns.length; i++) {
            KeyCodec.encodeValue(scratch, orderTypes.get(i), row[orderColumns[i]]);
        }
        return scratch.toByteArray();
    }

    private Object[] keyOf(Object[] row) {
        Object[] key = new Object[keyColumns.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[keyColumns[i]];
        }
        return key;
    }
}
