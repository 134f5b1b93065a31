package io.tributary.meta;

import io.tributary.common.VirtualNodes;
import io.tributary.meta.ddl.RemoteViewAdoption;
import io.tributary.meta.ddl.ViewSnapshotJob;
import io.tributary.storage.TableKeys;
import io.tributary.stream.backfill.SnapshotTakeover;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Which snapshot rows a view build resumed from a checkpoint still reads (docs/ARCHITECTURE.md,
 * Remote jobs, "Checkpoints and resume"): per relation and vnode, the rows after the key its
 * sources' positions stand at. A worker copies only those rows from the server into its scratch
 * database, so a retried attempt does not copy again what the checkpoint covers: the resumed
 * build reads from exactly those positions and nothing reads a relation's rows otherwise.
 *
 * <p>A relation read by several sources (a self-join) is copied from the earliest of their
 * positions; a vnode any source has not begun, or with no position, is copied whole; a vnode
 * every source reading it has read through is not copied. Immutable once built; any thread.
 */
public final class SnapshotResume {
    /** Per relation id, per vnode: the key to copy after; {@link #FROM_START}; or null for nothing to copy. */
    private final Map<Integer, byte[][]> after = new HashMap<>();

    private static final byte[] FROM_START = SnapshotTakeover.NOTHING_READ;

    private SnapshotResume() {}

    /**
     * Reads the positions of a checkpoint.
     *
     * @param positions the checkpoint's position pairs in commit order (keys of table {@link
     *     ViewSnapshotJob#POSITIONS_TABLE}; pairs of other tables are skipped; a null value deletes)
     * @param sourceRelations the relation id each source of the view's plan reads, by source
     *     ordinal ({@link ScratchViewBuild#sourceRelations})
     * @throws java.sql.SQLException when the positions cannot be read
     * @throws io.tributary.common.TributaryException 22023 when a position names a source the plan lacks
     */
    public static SnapshotResume of(RemoteViewAdoption.StagedState positions, int[] sourceRelations)
            throws java.sql.SQLException {
        // the latest value of each (vnode, source) position
        Map<java.nio.ByteBuffer, byte[]> latest = new HashMap<>();
        positions.read((key, value) -> {
            if (key.length >= TableKeys.PREFIX_LENGTH + 4
                    && java.nio.ByteBuffer.wrap(key, 0, 4).getInt() == ViewSnapshotJob.POSITIONS_TABLE) {
                latest.put(java.nio.ByteBuffer.wrap(key), value);
            }
        });
        // per source ordinal and vnode: where it goes on (null: read through), FROM_START when unknown
        byte[][][] bySource = new byte[sourceRelations.length][VirtualNodes.COUNT][];
        for (byte[][] vnodes : bySource) {
            Arrays.fill(vnodes, FROM_START);
        }
        latest.forEach((buffer, value) -> {
            byte[] key = buffer.array();
            int source = SnapshotTakeover.sourceOf(key);
            if (source < 0 || source >= sourceRelations.length) {
                throw new io.tributary.common.TributaryException(
                        io.tributary.common.SqlState.INVALID_PARAMETER_VALUE,
                        "a checkpoint holds the position of source " + source + " of a view that has "
                                + sourceRelations.length);
            }
            int vnode = TableKeys.vnodeOf(key);
            bySource[source][vnode] = value == null ? FROM_START : SnapshotTakeover.snapshotReadAfter(vnode, value);
        });
        SnapshotResume out = new SnapshotResume();
        for (int source = 0; source < sourceRelations.length; source++) {
            byte[][] mine = out.after.get(sourceRelations[source]);
            if (mine == null) {
                out.after.put(sourceRelations[source], bySource[source]);
                continue;
            }
            for (int vnode = 0; vnode < VirtualNodes.COUNT; vnode++) {
                mine[vnode] = earlier(mine[vnode], bySource[source][vnode]);
            }
        }
        return out;
    }

    /** Of two resume keys, the one that copies more (null copies nothing, FROM_START everything). */
    private static byte[] earlier(byte[] a, byte[] b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return Arrays.compareUnsigned(a, b) <= 0 ? a : b;
    }

    /** Whether vnode {@code vnode} of relation {@code relationId} has rows left to copy. */
    public boolean copies(int relationId, int vnode) {
        byte[][] vnodes = after.get(relationId);
        return vnodes == null || vnodes[vnode] != null;
    }

    /**
     * The primary key after which vnode {@code vnode} of relation {@code relationId} is copied;
     * null to copy it from its start. Only for a vnode that {@link #copies}.
     */
    public byte[] copyAfter(int relationId, int vnode) {
        byte[][] vnodes = after.get(relationId);
        byte[] key = vnodes == null ? FROM_START : vnodes[vnode];
        return key == null || key.length == 0 ? null : key;
    }
}
