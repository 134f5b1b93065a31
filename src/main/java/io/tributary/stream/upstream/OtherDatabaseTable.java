package io.tributary.stream.upstream;

import io.tributary.stream.ChangeStream;
import io.tributary.stream.RowStream;
import io.tributary.stream.UpstreamTable;
import java.util.OptionalLong;

/**
 * A table of another database of the cluster as an {@link UpstreamTable} (docs/ARCHITECTURE.md,
 * Cross-database views): read exactly as a table of this database is ({@link LocalUpstreamTable}
 * over the other database's store, its pin and change log), except that it never
 * {@linkplain #joinsLive joins}: the other database commits its own epochs, so a consumer reads its
 * log epoch by epoch for good, and neither database waits for the other's barriers. Thread-safe.
 */
public final class OtherDatabaseTable implements UpstreamTable {
    private final LocalUpstreamTable table;

    /** @param table the relation over the other database's store; closed with this */
    public OtherDatabaseTable(LocalUpstreamTable table) {
        this.table = table;
    }

    @Override
    public long snapshotEpoch() {
        return table.snapshotEpoch();
    }

    @Override
    public OptionalLong nextEpoch(long epoch) {
        return table.nextEpoch(epoch);
    }

    @Override
    public java.util.BitSet changedVnodes(long epoch) {
        return table.changedVnodes(epoch);
    }

    @Override
    public RowStream snapshot(int vnode, long epoch, byte[] startAfterPk) {
        return table.snapshot(vnode, epoch, startAfterPk);
    }

    @Override
    public ChangeStream changeLog(int vnode, long epoch, byte[] startAfterPk) {
        return table.changeLog(vnode, epoch, startAfterPk);
    }

    @Override
    public long estimatedSnapshotRows() {
        return table.estimatedSnapshotRows();
    }

    @Override
    public boolean joinsLive() {
        return false;
    }

    @Override
    public void close() {
        table.close();
    }
}
