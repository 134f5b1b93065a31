package io.tributary.stream.backfill;

import io.tributary.common.VirtualNodes;
import io.tributary.plan.SourceNode;
import io.tributary.plan.StatePlan;
import io.tributary.plan.StreamNode;
import io.tributary.storage.Keyspace;
import io.tributary.storage.WriteBuffer;

/**
 * The backfill positions of a view whose snapshot phase was computed elsewhere (a remote worker):
 * every vnode of every source has read the snapshot of {@code E0} and goes on with the change log
 * after it. Written in the same atomic write as the operator state that snapshot produced, while
 * the job's actors are stopped; the job then starts from these positions as after a restart.
 * Stateless.
 */
public final class SnapshotTakeover {
    private SnapshotTakeover() {}

    /**
     * How many backfill sources a job of this plan has: its source leaves in plan order, a relation
     * read twice counting twice (the source ordinals {@code JobBuilder} gives).
     */
    public static int sources(StreamNode root) {
        int n = 0;
        for (StreamNode node : StatePlan.preOrder(root)) {
            if (node instanceof SourceNode) {
                n++;
            }
        }
        return n;
    }

    /**
     * Stages, in {@code buffer}, the position "snapshot of {@code snapshotEpoch} read, change log
     * next" for every vnode of sources {@code 0..sources-1} in progress table {@code progressTableId},
     * replacing whatever positions are stored there.
     */
    public static void stageSnapshotRead(WriteBuffer buffer, int progressTableId, int sources, long snapshotEpoch) {
        for (int source = 0; source < sources; source++) {
            for (int vnode = 0; vnode < VirtualNodes.COUNT; vnode++) {
                VnodeProgress p = new VnodeProgress(vnode, snapshotEpoch);
                p.phase = VnodeProgress.Phase.LOG;
                buffer.put(Keyspace.DATA, VnodeProgress.key(progressTableId, vnode, source), p.encode());
            }
        }
    }

    /**
     * A vnode position of a checkpoint taken against another copy of the same snapshot (a worker's
     * scratch database, whose epochs are its own), as a job whose snapshot epoch is {@code
     * snapshotEpoch} stores it: a vnode still reading the snapshot keeps how far it got; a vnode
     * past it has read exactly the snapshot (the scratch copy has no changes after it), so it goes
     * on with the change log after {@code snapshotEpoch}, as in {@link #stageSnapshotRead}.
     */
    public static byte[] rebase(int vnode, byte[] position, long snapshotEpoch) {
        VnodeProgress p = VnodeProgress.decode(vnode, position);
        if (p.phase == VnodeProgress.Phase.LOG) {
            p.rows -= p.logRows;
            p.logRows = 0;
            p.reading = 0;
            p.lastPk = null;
        }
        p.epoch = snapshotEpoch;
        return p.encode();
    }

    /** A position's snapshot read that has read none of the snapshot; see {@link #snapshotReadAfter}. */
    public static final byte[] NOTHING_READ = new byte[0];

    /**
     * Where a stored vnode position goes on reading the snapshot: the primary key of the last
     * snapshot row it read (it reads the rows after it), {@link #NOTHING_READ} when it has read
     * none, or null when it has read the whole snapshot (it is in the change log). A copy of the
     * snapshot that holds only the rows after this key serves the resumed read as the whole one.
     */
    public static byte[] snapshotReadAfter(int vnode, byte[] position) {
        VnodeProgress p = VnodeProgress.decode(vnode, position);
        if (p.phase == VnodeProgress.Phase.LOG) {
            return null;
        }
        return p.lastPk == null ? NOTHING_READ : p.lastPk;
    }

    /** The source ordinal of a position's key ({@code [progress table][vnode][source ordinal]}). */
    public static int sourceOf(byte[] positionKey) {
        return java.nio.ByteBuffer.wrap(positionKey, io.tributary.storage.TableKeys.PREFIX_LENGTH, 4)
                .getInt();
    }

    /** How many snapshot rows a stored vnode position has read. */
    public static long snapshotRows(int vnode, byte[] position) {
        VnodeProgress p = VnodeProgress.decode(vnode, position);
        return p.rows - p.logRows;
    }
}
