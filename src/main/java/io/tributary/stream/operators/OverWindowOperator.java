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
import io.tributary.stream.WatermarkReader;
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
 *
 * <p>Session cleaning. With {@link OverWindowNode#cleaning()} (a step of a SESSION window over a
 * watermarked table), each live barrier (not a backfill's checkpoint) deletes from state the rows
 * of the sessions the watermark closed, after emitting the epoch's changes; their output rows stay
 * downstream. Of a partition that still has an open session it keeps the closed row just before
 * that session's first row in window order, so that row's {@code lag} stays what was emitted, and
 * every later retraction carries the row emitted before. Partitions are found through a {@link
 * SessionExpiry} index by their first open session's end, filled from the partitions each barrier
 * evaluates and, once, from the actor's vnodes of the committed state. Why the remaining rows'
 * values do not change is {@link io.tributary.plan.SessionCleaning}'s argument.
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

    /** With {@link OverWindowNode#cleaning()}: the partitions by first session end; else null. */
    private final SessionExpiry expiry;

    private final WatermarkReader watermarks;
    /** The watermarked table of {@link OverWindowNode#cleaning()}, -1 without. */
    private final int relationId;
    /** The vnodes whose stored partitions the expiry index reads at the first barrier, or null. */
    private final int[] ownedVnodes;

    private boolean storedIndexed;
    /** The watermark of the last cleaning, {@code Long.MIN_VALUE} before any. */
    private long cleanedAt = Long.MIN_VALUE;

    /**
     * An operator that never cleans (a test's, owning all it sees).
     *
     * @param stateTableIds the node's state table ids; only the first is used
     * @param committed the latest committed state; not closed here
     */
    public OverWindowOperator(OverWindowNode node, int[] stateTableIds, ReadView committed) {
        this(node, stateTableIds, committed, WatermarkReader.NONE, null);
    }

    /**
     * As {@link #OverWindowOperator(OverWindowNode, int[], ReadView)}, reading the watermark of a
     * node with {@link OverWindowNode#cleaning()} from {@code watermarks}; the partitions stored in
     * {@code ownedVnodes} (the actor's) are indexed at the first barrier, none when null.
     */
    public OverWindowOperator(
            OverWindowNode node,
            int[] stateTableIds,
            ReadView committed,
            WatermarkReader watermarks,
            int[] ownedVnodes) {
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
        this.expiry = node.cleaning() == null ? null : new SessionExpiry(node.cleaning());
        this.relationId = node.cleaning() == null ? -1 : node.cleaning().relationId();
        this.watermarks = watermarks;
        this.ownedVnodes = ownedVnodes;
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = chunk.row(i);
            Object[] p = partitionOf(row);
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
        if (expiry != null && !storedIndexed) {
            storedIndexed = true;
            indexStoredPartitions();
        }
        for (Map.Entry<ByteBuffer, Touched> touchedEntry : touched.entrySet()) {
            Touched t = touchedEntry.getValue();
            NavigableMap<byte[], Object[]> after = outputOf(t.partition());
            if (expiry != null) {
                expiry.track(touchedEntry.getKey(), t.partition(), after.values(), cleanedAt);
            }
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
        if (expiry != null && barrier.checkpoint() == null) {
            // not while backfilling: a session's snapshot rows may still be on their way
            forgetClosedSessions();
        }
        rows.flush(writes);
    }

    /**
     * Deletes the rows of every session the watermark closed (see {@link
     * io.tributary.plan.SessionCleaning}). The watermark read is the one every row of this epoch was
     * judged by, so no row of this epoch or a later one joins such a session.
     */
    private void forgetClosedSessions() {
        long watermark = watermarks.watermark(relationId);
        if (watermark == Long.MIN_VALUE) {
            return;
        }
        for (SessionExpiry.Indexed due : expiry.closing(watermark)) {
            List<Object[]> partitionRows = new ArrayList<>();
            try (StateTable.ValueIterator it = rows.scan(due.partition())) {
                while (it.hasNext()) {
                    partitionRows.add(it.next());
                }
            }
            long cut = expiry.closedUpTo(partitionRows, watermark);
            // the last closed row in window order stays while an open row follows it: that row's lag
            // reads it (the row it keeps is never emitted again: nothing can precede it any more)
            int predecessor = -1;
            boolean openRows = false;
            for (int i = 0; i < partitionRows.size(); i++) {
                if (expiry.time(partitionRows.get(i)) <= cut) {
                    predecessor = i;
                } else {
                    openRows = true;
                }
            }
            List<Object[]> kept = new ArrayList<>();
            for (int i = 0; i < partitionRows.size(); i++) {
                Object[] row = partitionRows.get(i);
                if (expiry.time(row) <= cut && !(openRows && i == predecessor)) {
                    rows.delete(keyOf(row));
                } else {
                    kept.add(row);
                }
            }
            expiry.track(due.id(), due.partition(), kept, watermark);
        }
        cleanedAt = watermark;
    }

    /** Indexes the partitions stored in the actor's vnodes, so a restored operator goes on forgetting them. */
    private void indexStoredPartitions() {
        if (ownedVnodes == null) {
            return;
        }
        for (int vnode : ownedVnodes) {
            try (StateTable.ValueIterator it = rows.scanCommittedVnode(vnode)) {
                ByteBuffer current = null;
                Object[] currentPartition = null;
                List<Object[]> partitionRows = new ArrayList<>();
                while (it.hasNext()) {
                    Object[] row = it.next();
                    Object[] p = partitionOf(row);
                    ByteBuffer id = ByteBuffer.wrap(rows.storeKey(p));
                    if (!id.equals(current)) {
                        if (current != null) {
                            expiry.track(current, currentPartition, partitionRows, cleanedAt);
                        }
                        current = id;
                        currentPartition = p;
                        partitionRows = new ArrayList<>();
                    }
                    partitionRows.add(row);
                }
                if (current != null) {
                    expiry.track(current, currentPartition, partitionRows, cleanedAt);
                }
            }
        }
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

    private Object[] partitionOf(Object[] row) {
        Object[] p = new Object[partition.length];
        for (int j = 0; j < p.length; j++) {
            p[j] = row[partition[j]];
        }
        return p;
    }

    private Object[] keyOf(Object[] row) {
        Object[] key = new Object[keyColumns.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[keyColumns[i]];
        }
        return key;
    }
}
