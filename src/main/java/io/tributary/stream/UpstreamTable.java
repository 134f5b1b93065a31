package io.tributary.stream;

import java.util.OptionalLong;

/**
 * A relation a snapshot backfill reads (docs/ARCHITECTURE.md, Backfill): a fixed snapshot of it as of
 * {@link #snapshotEpoch()}, then its changes epoch by epoch. One interface so that a table of this
 * database, of another database or of another cluster can be an upstream alike.
 *
 * <p>A consumer keeps, per vnode, a position {@code (epoch, last pk)}. Reading
 * {@link #snapshot} of a vnode to its end brings the vnode to the relation's state as of the
 * snapshot epoch; from a vnode's state as of epoch {@code p}, reading {@link #changeLog} of the
 * epoch {@link #nextEpoch nextEpoch(p)} returns to its end brings it to the state as of that epoch.
 * Both read in primary-key order, so checkpointing the last pk read and passing it back as
 * {@code startAfterPk} resumes exactly where the consumer stopped, after a restart too.
 *
 * <p>Thread-safe: the actors of one job may share an instance; each stream is read by one
 * thread. Keys are the memcomparable primary keys of the relation's rows (without table id and
 * vnode); rows are full width with canonical values.
 */
public interface UpstreamTable extends AutoCloseable {

    /** The epoch whose committed state {@link #snapshot} reads. */
    long snapshotEpoch();

    /**
     * The epoch to read after having consumed the relation through {@code epoch}: a committed
     * epoch {@code e > epoch} such that no epoch strictly between the two changed the relation.
     * That is the first committed epoch after {@code epoch} that changed it, or, when none has,
     * the latest committed epoch (whose change log is then empty, and reading it moves the
     * consumer's position there). Empty when nothing after {@code epoch} is committed yet: the
     * consumer has caught up and asks again later. Never blocks, so an actor may call it between
     * barriers.
     *
     * @param epoch the snapshot epoch, or an epoch this method returned
     */
    OptionalLong nextEpoch(long epoch);

    /**
     * Which vnodes committed epoch {@code epoch} (one {@link #nextEpoch} returned) changed, so a
     * consumer of many vnodes moves the unchanged ones past it without reading their logs one
     * by one; null when unknown (the consumer reads each vnode's log). Never blocks.
     */
    default java.util.BitSet changedVnodes(long epoch) {
        return null;
    }

    /**
     * One vnode of the snapshot, in pk order, starting after {@code startAfterPk} (from the
     * first row when null). The caller closes the stream.
     *
     * @param epoch must be {@link #snapshotEpoch()}
     */
    RowStream snapshot(int vnode, long epoch, byte[] startAfterPk);

    /**
     * The net changes of one vnode in one committed epoch after the snapshot epoch, in pk order,
     * starting after {@code startAfterPk} (from the first change when null). The caller closes the
     * stream.
     *
     * @param epoch an epoch {@link #nextEpoch} returned
     */
    ChangeStream changeLog(int vnode, long epoch, byte[] startAfterPk);

    /**
     * How many rows the snapshot holds, for progress reports: exact for a small snapshot, else an
     * estimate from part of it (so rows read may end up a little above or below it). It may scan
     * the snapshot, so call it off the actors' threads.
     *
     * @return the estimate, or -1 when the calling thread was interrupted, or this table closed, before it was done
     */
    long estimatedSnapshotRows();

    /**
     * The column types of the relation's rows as {@link RowStream#encodedRow} gives them (its
     * {@code RowCodec}), when a snapshot's encoded rows are those stored under {@code TableKeys}'
     * layout, so a consumer storing the same rows the same way may copy them; null when not.
     */
    default java.util.List<io.tributary.common.types.DataType> storedTypes() {
        return null;
    }

    /**
     * Whether a consumer that has caught up may switch to the relation's live changes in its own
     * epochs. False for a relation of another database, whose epochs are not the consumer's: the
     * consumer stays a reader of its log for good, so the two databases never wait for each other.
     */
    default boolean joinsLive() {
        return true;
    }

    /** Releases what this instance holds open (not the upstream's snapshot or log themselves). */
    @Override
    void close();
}
