package io.tributary.stream.runtime;

import io.tributary.common.VirtualNodes;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.storage.ChangeLogKeys;
import io.tributary.storage.ChangeLogOp;
import io.tributary.storage.ChangeLogWriter;
import io.tributary.storage.LoggedChange;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Records one sending slot of a relation's change feed into the relation's change log
 * ({@link ChangeLogKeys}): it subscribes to the slot like a job does, folds each epoch's changes
 * into one net change per key, and at the slot's barrier hands them over to be written in that
 * epoch's commit. Backfilling views read the log; the feed's senders never wait for them.
 *
 * <p>{@link #dispatch} and {@link #barrier} run on the slot's sending thread (DML under the barrier
 * lock for a table, a materializing actor for a view); {@link #drainInto} on the committing thread
 * once every actor has passed the epoch's barrier.
 */
final class ChangeLogRecorder implements Dispatcher {
    private final int relationId;
    private final int[] keyColumns;
    private final List<DataType> keyTypes;
    private final RowCodec codec;
    private final ByteWriter keyWriter = new ByteWriter(64);
    /** The open epoch's net change per key: {old row before the epoch, row now}, encoded. */
    private final Map<ByteBuffer, byte[][]> open = new HashMap<>();

    private final ConcurrentLinkedQueue<Closed> closed = new ConcurrentLinkedQueue<>();

    /** One epoch's net changes: per changed key its pk, and its rows before and after the epoch (null: absent). */
    private record Closed(long epoch, List<byte[]> pks, List<byte[][]> rows) {}

    ChangeLogRecorder(int relationId, int[] keyColumns, List<DataType> keyTypes, List<DataType> columnTypes) {
        this.relationId = relationId;
        this.keyColumns = keyColumns;
        this.keyTypes = keyTypes;
        this.codec = new RowCodec(columnTypes);
    }

    int relationId() {
        return relationId;
    }

    @Override
    public void dispatch(Chunk chunk) {
        for (int i = 0; i < chunk.size(); i++) {
            Object[] row = chunk.row(i);
            keyWriter.reset();
            KeyCodec.encode(keyWriter, keyTypes, row, keyColumns);
            ByteBuffer pk = ByteBuffer.wrap(keyWriter.toByteArray());
            byte[][] change = open.get(pk);
            if (chunk.op(i) == Op.DELETE) {
                if (change == null) {
                    open.put(pk, new byte[][] {codec.encode(row), null});
                } else {
                    change[1] = null;
                }
            } else if (change == null) {
                open.put(pk, new byte[][] {null, codec.encode(row)});
            } else {
                change[1] = codec.encode(row);
            }
        }
    }

    @Override
    public void barrier(Barrier barrier) {
        List<byte[]> pks = new ArrayList<>(open.size());
        List<byte[][]> rows = new ArrayList<>(open.size());
        for (Map.Entry<ByteBuffer, byte[][]> e : open.entrySet()) {
            pks.add(e.getKey().array());
            rows.add(e.getValue());
        }
        open.clear();
        closed.add(new Closed(barrier.epoch(), pks, rows));
    }

    /** Committing thread, after a failed epoch: drops everything recorded so far. */
    void reset() {
        open.clear();
        closed.clear();
    }

    /** Committing thread: drops what was recorded through {@code epoch}, which another recorder of the relation writes. */
    void discard(long epoch) {
        for (Closed c = closed.peek(); c != null && c.epoch() <= epoch; c = closed.peek()) {
            closed.poll();
        }
    }

    /**
     * Committing thread: writes the log of {@code epoch} (and of no later epoch) into {@code buffer}.
     *
     * @return whether it wrote any logged change
     */
    boolean drainInto(long epoch, WriteBuffer buffer) {
        boolean wrote = false;
        for (Closed c = closed.peek(); c != null && c.epoch() <= epoch; c = closed.peek()) {
            closed.poll();
            for (int i = 0; i < c.pks().size(); i++) {
                byte[] pk = c.pks().get(i);
                byte[][] change = c.rows().get(i);
                if (LoggedChange.net(change[0], change[1]) != null) {
                    ChangeLogWriter.append(
                            buffer,
                            relationId,
                            c.epoch(),
                            VirtualNodes.of(pk),
                            pk,
                            change[0] == null
                                    ? ChangeLogOp.INSERT
                                    : change[1] == null ? ChangeLogOp.DELETE : ChangeLogOp.UPDATE,
                            change[0],
                            change[1]);
                    wrote = true;
                }
            }
        }
        return wrote;
    }
}
