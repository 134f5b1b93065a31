package io.tributary.stream.upstream;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.VirtualNodes;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.storage.ChangeLogCursor;
import io.tributary.storage.ChangeLogReader;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.LoggedChange;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.stream.ChangeStream;
import io.tributary.stream.RowStream;
import io.tributary.stream.UpstreamTable;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A table or materialized view of this database as an {@link UpstreamTable}: its snapshot is a
 * {@linkplain StateStore#pin pinned snapshot} of the store, its changes the relation's change log
 * in the store ({@code io.tributary.storage.ChangeLogKeys}). Rows are read with the
 * {@link TableKeys} layout, values decoded with the relation's {@link RowCodec}.
 *
 * <p>The log must hold every change of the relation after the snapshot epoch: whoever pins the
 * snapshot makes the relation's writers log from the next epoch on, and nobody truncates the log
 * past a position a consumer has not reached. Thread-safe (see {@link UpstreamTable}).
 */
public final class LocalUpstreamTable implements UpstreamTable {
    private final StateStore store;
    private final long snapshotEpoch;
    private final int relationId;
    private final List<DataType> columnTypes;
    private final RowCodec codec;
    private final ReadView snapshot;
    /**
     * Holders of {@link #snapshot}: this table until {@link #close}, and a row count in progress
     * ({@link #estimatedSnapshotRows}, on a backfill's background thread that may still be counting
     * when the job has gone live and closed this); the last to let go closes the view, so the count
     * never reads a view, and its pin's database, that was closed under it. 0 once closed.
     */
    private final AtomicInteger snapshotHolders = new AtomicInteger(1);
    /** Set by {@link #close}: a count stops at its next vnode, and one not started yet does not start. */
    private volatile boolean closed;

    private final ReadView latest;
    private final ChangeLogReader log;

    private LocalUpstreamTable(
            StateStore store, long snapshotEpoch, int relationId, List<DataType> columnTypes, ReadView snapshot) {
        this.store = store;
        this.columnTypes = List.copyOf(columnTypes);
        this.snapshotEpoch = snapshotEpoch;
        this.relationId = relationId;
        this.codec = new RowCodec(this.columnTypes);
        this.snapshot = snapshot;
        this.latest = store.latest();
        this.log = new ChangeLogReader(latest);
    }

    /**
     * Opens relation {@code relationId} over {@code pin}, e.g. when a backfill starts or resumes
     * after a restart; the pin stays owned by the caller, who unpins it after closing this.
     *
     * @param columnTypes the relation's column types, which its rows are encoded with
     * @throws TributaryException XX000 when the store has no such pin
     */
    public static LocalUpstreamTable open(
            StateStore store, PinnedSnapshot pin, int relationId, List<DataType> columnTypes) {
        ReadView view = store.openPinned(pin.name())
                .orElseThrow(() -> new TributaryException(
                        SqlState.INTERNAL_ERROR, "the snapshot pinned as \"" + pin.name() + "\" is gone"));
        return new LocalUpstreamTable(store, pin.epoch(), relationId, columnTypes, view);
    }

    /**
     * Opens relation {@code relationId}'s change log after {@code snapshotEpoch}, without its
     * snapshot: for consumers every vnode of which has read the snapshot already (a cross-database
     * view once created), so that no pin has to hold the snapshot's files.
     */
    public static LocalUpstreamTable openLog(
            StateStore store, long snapshotEpoch, int relationId, List<DataType> columnTypes) {
        return new LocalUpstreamTable(store, snapshotEpoch, relationId, columnTypes, null);
    }

    /** The relation's column types: its snapshot's {@link RowStream#encodedRow} is the stored value. */
    @Override
    public List<DataType> storedTypes() {
        return columnTypes;
    }

    @Override
    public long snapshotEpoch() {
        return snapshotEpoch;
    }

    @Override
    public OptionalLong nextEpoch(long epoch) {
        // the committed epoch first: the log scan then sees every epoch up to it. A logged epoch
        // beyond it is left for the next call, as changeLog would refuse it until the store
        // reports it committed
        long committed = store.committedEpoch();
        if (committed <= epoch) {
            // nothing after epoch is committed: no log seek. Idle backfill inputs ask this for
            // every caught-up vnode on every step, and each seek was a RocksDB iterator over JNI
            return OptionalLong.empty();
        }
        OptionalLong changed = log.nextEpoch(relationId, epoch);
        if (changed.isPresent() && changed.getAsLong() <= committed) {
            return changed;
        }
        return OptionalLong.of(committed);
    }

    /** Reads at most this many changes of an epoch to tell its changed vnodes. */
    private static final int CHANGED_VNODES_SCAN_LIMIT = 4096;

    @Override
    public java.util.BitSet changedVnodes(long epoch) {
        if (epoch <= snapshotEpoch || epoch > store.committedEpoch()) {
            return null;
        }
        return log.changedVnodes(relationId, epoch, CHANGED_VNODES_SCAN_LIMIT);
    }

    /**
     * The first committed epoch after {@code epoch} whose log holds a change of the table; empty
     * when none has. Unlike {@link #nextEpoch}, an epoch that committed without changing the table
     * is skipped: this counts the reader's lag in changes, not in the upstream's idle commits.
     */
    public OptionalLong nextChangedEpoch(long epoch) {
        long committed = store.committedEpoch();
        if (committed <= epoch) {
            return OptionalLong.empty();
        }
        OptionalLong changed = log.nextEpoch(relationId, epoch);
        return changed.isPresent() && changed.getAsLong() <= committed ? changed : OptionalLong.empty();
    }

    /**
     * Rows counted before the count may stop and extrapolate: about a tenth of a second of key-only
     * iteration. A full count of a 2,000,000-row snapshot took 0.2-0.4 CPU s beside the job's own
     * 1.8 (a fifth of a {@code SELECT *} backfill's CPU, on a machine whose two cores the job
     * already fills).
     */
    static final long SAMPLE_ROWS = 100_000;

    /** Vnodes counted at least before the count may extrapolate, spread over the whole range. */
    static final int SAMPLE_VNODES = 16;

    /**
     * Counts the snapshot's rows vnode by vnode in {@link #spreadOrder} and, once it has counted
     * {@link #SAMPLE_ROWS} rows in at least {@link #SAMPLE_VNODES} vnodes, extrapolates to all: a
     * table's rows are spread over the vnodes by a hash of their keys, so the counted vnodes' share
     * is the share of the rows, within a fraction of a percent at that sample size. A smaller
     * snapshot is counted exactly.
     */
    @Override
    public long estimatedSnapshotRows() {
        if (snapshot == null) {
            return 0;
        }
        if (!holdSnapshot()) {
            return -1;
        }
        try {
            return countSnapshotRows();
        } finally {
            releaseSnapshot();
        }
    }

    /** {@link #estimatedSnapshotRows} with the snapshot held; -1 once the table is closed or the thread interrupted. */
    private long countSnapshotRows() {
        long rows = 0;
        int counted = 0;
        for (int i = 0; i < VirtualNodes.COUNT; i++) {
            if (rows >= SAMPLE_ROWS && counted >= SAMPLE_VNODES) {
                return Math.round((double) rows * VirtualNodes.COUNT / counted);
            }
            if (closed) {
                // the job no longer needs the count (it went live or stopped): let the snapshot go
                return -1;
            }
            int vnode = spreadOrder(i);
            try (KvIterator it = snapshot.scan(
                    Keyspace.DATA, TableKeys.vnodeStart(relationId, vnode), TableKeys.vnodeEnd(relationId, vnode))) {
                while (it.next()) {
                    // the count may be abandoned: the job is being stopped and its snapshot released
                    if ((++rows & 0xffff) == 0 && Thread.currentThread().isInterrupted()) {
                        return -1;
                    }
                }
            }
            counted++;
        }
        return rows;
    }

    /**
     * The {@code i}-th vnode to count: {@code i}'s bits reversed, so any first few are spread
     * evenly over the range rather than being its start.
     */
    static int spreadOrder(int i) {
        return Integer.reverse(i) >>> (Integer.SIZE - Integer.numberOfTrailingZeros(VirtualNodes.COUNT));
    }

    @Override
    public RowStream snapshot(int vnode, long epoch, byte[] startAfterPk) {
        if (epoch != snapshotEpoch) {
            throw new IllegalArgumentException("the snapshot is of epoch " + snapshotEpoch + ", not " + epoch);
        }
        if (snapshot == null) {
            throw new IllegalStateException("relation " + relationId + " was opened without its snapshot");
        }
        KvIterator it = snapshot.scan(
                Keyspace.DATA,
                TableKeys.resumeKey(relationId, vnode, startAfterPk),
                TableKeys.vnodeEnd(relationId, vnode));
        return new RowStream() {
            private byte[] pk;
            private byte[] value;
            /** {@link #value} decoded, on the first {@link #row()} call for it. */
            private Object[] row;

            @Override
            public boolean next() {
                row = null;
                if (!it.next()) {
                    pk = null;
                    value = null;
                    return false;
                }
                pk = TableKeys.pkOf(it.key());
                value = it.value();
                return true;
            }

            @Override
            public byte[] pk() {
                return pk;
            }

            @Override
            public Object[] row() {
                if (row == null && value != null) {
                    row = codec.decode(value);
                }
                return row;
            }

            @Override
            public byte[] encodedRow() {
                return value;
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }

    @Override
    public ChangeStream changeLog(int vnode, long epoch, byte[] startAfterPk) {
        if (epoch <= snapshotEpoch) {
            throw new IllegalArgumentException("epoch " + epoch + " is not after the snapshot's " + snapshotEpoch);
        }
        if (epoch > store.committedEpoch()) {
            // its log may still be coming: reading it now would miss changes
            throw new IllegalStateException("epoch " + epoch + " is not committed");
        }
        ChangeLogCursor cursor = log.scan(relationId, epoch, vnode, startAfterPk);
        return new ChangeStream() {
            private Object[] oldRow;
            private Object[] newRow;

            @Override
            public boolean next() {
                if (!cursor.next()) {
                    oldRow = null;
                    newRow = null;
                    return false;
                }
                LoggedChange change = cursor.change();
                oldRow = change.oldRow() == null ? null : codec.decode(change.oldRow());
                newRow = change.newRow() == null ? null : codec.decode(change.newRow());
                return true;
            }

            @Override
            public byte[] pk() {
                return cursor.pk();
            }

            @Override
            public Object[] oldRow() {
                return oldRow;
            }

            @Override
            public Object[] newRow() {
                return newRow;
            }

            @Override
            public void close() {
                cursor.close();
            }
        };
    }

    /** Takes a hold of {@link #snapshot} unless this table is closed; true when taken. */
    private boolean holdSnapshot() {
        while (true) {
            int n = snapshotHolders.get();
            if (n == 0 || closed) {
                return false;
            }
            if (snapshotHolders.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    private void releaseSnapshot() {
        if (snapshotHolders.decrementAndGet() == 0) {
            snapshot.close();
        }
    }

    /** Synchronized: a second close must not let go of a hold it does not have. */
    @Override
    public synchronized void close() {
        try {
            if (snapshot != null && !closed) {
                closed = true;
                releaseSnapshot();
            }
        } finally {
            latest.close();
        }
    }
}
