package io.tributary.stream.backfill;

import io.tributary.storage.TableKeys;
import java.nio.ByteBuffer;

/**
 * Where a backfill stands in one vnode of one upstream, as stored in the job's progress table:
 * key {@code [progress table][vnode][source ordinal]}, value {@code (phase, epoch, reading, rows,
 * log rows, last pk)}. In the snapshot phase it has read the snapshot up to {@code lastPk}; in the log phase
 * it has consumed every change through {@code epoch} and, when {@code reading} is not 0, the
 * changes of epoch {@code reading} up to {@code lastPk}. Mutable; owned by one actor thread.
 */
final class VnodeProgress {
    enum Phase {
        SNAPSHOT,
        LOG
    }

    final int vnode;
    Phase phase;
    long epoch;
    long reading;
    byte[] lastPk;
    long rows;
    /** Of {@code rows}, those read from the change log. */
    long logRows;
    /** Changed since it was last written. */
    boolean dirty;
    /**
     * Found nothing left to read (every committed epoch consumed) at some moment since the last
     * barrier; not stored, the actor's view of its lag between two barriers.
     */
    boolean reachedHead;

    /** A vnode not started yet: at the beginning of the snapshot of {@code snapshotEpoch}. */
    VnodeProgress(int vnode, long snapshotEpoch) {
        this.vnode = vnode;
        this.phase = Phase.SNAPSHOT;
        this.epoch = snapshotEpoch;
        this.dirty = true;
    }

    /** The epoch through which this vnode has consumed its upstream (the snapshot epoch until the snapshot is read). */
    long consumedThrough() {
        return epoch;
    }

    static byte[] key(int progressTableId, int vnode, int sourceOrdinal) {
        byte[] prefix = TableKeys.vnodeStart(progressTableId, vnode);
        return ByteBuffer.allocate(prefix.length + 4)
                .put(prefix)
                .putInt(sourceOrdinal)
                .array();
    }

    byte[] encode() {
        int pkLength = lastPk == null ? -1 : lastPk.length;
        ByteBuffer b = ByteBuffer.allocate(1 + 8 + 8 + 8 + 8 + 4 + Math.max(0, pkLength));
        b.put((byte) phase.ordinal())
                .putLong(epoch)
                .putLong(reading)
                .putLong(rows)
                .putLong(logRows)
                .putInt(pkLength);
        if (lastPk != null) {
            b.put(lastPk);
        }
        return b.array();
    }

    static VnodeProgress decode(int vnode, byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        VnodeProgress p = new VnodeProgress(vnode, 0);
        p.phase = Phase.values()[b.get()];
        p.epoch = b.getLong();
        p.reading = b.getLong();
        p.rows = b.getLong();
        p.logRows = b.getLong();
        int pkLength = b.getInt();
        if (pkLength >= 0) {
            p.lastPk = new byte[pkLength];
            b.get(p.lastPk);
        }
        p.dirty = false;
        return p;
    }
}
