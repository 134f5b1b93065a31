package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.RowCodec;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.SortedFile;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.runtime.StreamRuntime;

/**
 * A table's stored rows re-encoded for its new columns (ALTER TABLE ... ADD or DROP COLUMN) under
 * a new table id, as one change of an epoch staged at a boundary, where the store holds every
 * committed row. The rows are streamed in key order into a sorted file of the new id ({@link
 * StateStore#newSortedFile}) rather than the epoch's write buffer, so the rewrite holds one row at
 * a time whatever the table's size; the file, the new catalog record, the removal of the old id's
 * record and rows, and the moves of the old id's sequence positions and watermark go into that
 * epoch's one atomic commit (the store records the file's range before ingesting it and removes
 * it again at open when the epoch never committed). So after a crash the table is wholly the old
 * one or wholly the new one, and nothing of an unfinished rewrite remains. The epoch commits right
 * after this change ({@code BarrierManager.stageAlone}): its buffer cannot read the file's rows
 * back, so no statement may stage after it in the same epoch.
 *
 * <p>Refused at staging when the table changed since the statement read it (40001) or a job began
 * reading it (0A000): a job decodes the table's rows with the columns it was planned over.
 * Writers planned over the old columns fail at their own staging (see {@code StatementRows}).
 * Staged by {@link ColumnDdl} on a session thread; staged and failed under the barrier lock.
 */
final class TableRewrite implements EpochChange {
    private final CatalogService catalogService;
    private final StateStore store;
    private final StreamRuntime streams;
    private final TableDef before;
    /** The table's new record, under its new id. */
    private final TableDef after;
    /** Per column of {@link #after}: the column of {@link #before} holding its value, or -1 for {@link #added}. */
    private final int[] sources;
    /** The value every existing row takes in a column that is new (the DEFAULT evaluated once, or null). */
    private final Object added;
    /** Moves the old id's SERIAL/identity positions to the new id. */
    private final SequenceMove sequences;
    /** Moves the old id's watermark to the new id. */
    private final WatermarkMove watermarks;
    /** The statement's checks of other relations, repeated under the barrier lock; throws to refuse. */
    private final java.util.function.Consumer<Catalog> underLock;

    TableRewrite(
            CatalogService catalogService,
            StateStore store,
            StreamRuntime streams,
            TableDef before,
            TableDef after,
            int[] sources,
            Object added,
            SequenceMove sequences,
            WatermarkMove watermarks,
            java.util.function.Consumer<Catalog> underLock) {
        this.catalogService = catalogService;
        this.store = store;
        this.streams = streams;
        this.before = before;
        this.after = after;
        this.sources = sources;
        this.added = added;
        this.sequences = sequences;
        this.watermarks = watermarks;
        this.underLock = underLock;
    }

    @Override
    public void stage(WriteBuffer epoch) {
        Catalog catalog = catalogService.catalog();
        if (catalog.table(before.name()).map(t -> t != before).orElse(true)) {
            throw changedWhileRunning(before);
        }
        underLock.accept(catalog);
        // a materialized view created since the statement's check (WITH NO DATA: no job subscribes) counts too
        if (streams.hasSubscribers(before.id()) || catalog.tables().stream().anyMatch(t -> t.dependsOn(before.id()))) {
            throw TributaryException.notSupported(
                    "ALTER TABLE ... ADD or DROP COLUMN on table \"" + before.localName() + "\", which a job reads,");
        }
        SortedFile file = store.newSortedFile();
        try {
            long rows = rewriteInto(file);
            // the indexes the new record keeps stay where they are: their entries hold no table id
            CatalogService.stageRemoval(
                    epoch,
                    before.withIndexes(before.indexes().stream()
                            .filter(i -> !after.indexes().contains(i))
                            .toList()));
            catalogService.stageRecord(epoch, after);
            for (int c = 0; c < sources.length; c++) {
                if (sources[c] >= 0 && after.columns().get(c).identity() != null) {
                    sequences.moved(before.id(), sources[c], after.id(), c).stage(epoch);
                }
            }
            watermarks.moved(before.id(), after.id()).stage(epoch);
            if (rows > 0) {
                file.finish();
                epoch.putFile(file, TableKeys.tableStart(after.id()), TableKeys.tableEnd(after.id()));
                file = null;
            }
        } finally {
            if (file != null) {
                file.close();
            }
        }
        catalog.put(after);
    }

    /**
     * Writes every committed row of {@link #before}, re-encoded, under the new id into {@code
     * file}: the old keys with the new id in their first bytes, which keeps them ascending (the
     * vnode and key bytes after the id are unchanged). Returns how many rows it wrote.
     */
    private long rewriteInto(SortedFile file) {
        RowCodec oldRows = new RowCodec(before.columnTypes());
        RowCodec newRows = new RowCodec(after.columnTypes());
        ByteWriter scratch = new ByteWriter(64);
        Object[] row = new Object[sources.length];
        byte[] key = new byte[64];
        try (ReadView committed = store.latest();
                KvIterator it = committed.scan(
                        Keyspace.DATA, TableKeys.tableStart(before.id()), TableKeys.tableEnd(before.id()))) {
            while (it.next()) {
                if (file.pairs() == 0) {
                    refuseNullInNotNull();
                }
                Object[] old = oldRows.decode(it.value());
                for (int c = 0; c < sources.length; c++) {
                    row[c] = sources[c] < 0 ? added : old[sources[c]];
                }
                byte[] oldKey = it.key();
                if (key.length < oldKey.length) {
                    key = new byte[Math.max(oldKey.length, key.length * 2)];
                }
                System.arraycopy(oldKey, 0, key, 0, oldKey.length);
                TableKeys.fillPrefix(after.id(), key, oldKey.length);
                file.put(key, oldKey.length, newRows.encode(row, scratch));
            }
        }
        return file.pairs();
    }

    @Override
    public void failed() {
        catalogService.putBack(before, after);
    }

    /** PostgreSQL's 23502 for an added NOT NULL column whose value for the existing rows is NULL. */
    private void refuseNullInNotNull() {
        for (int c = 0; c < sources.length; c++) {
            ColumnDef column = after.columns().get(c);
            if (sources[c] < 0 && added == null && column.notNull()) {
                throw new TributaryException(
                        SqlState.NOT_NULL_VIOLATION,
                        "column \"" + column.name() + "\" of relation \"" + after.localName()
                                + "\" contains null values");
            }
        }
    }

    /** 40001: the relation was dropped, rebuilt or altered between the statement's look and its staging. */
    static TributaryException changedWhileRunning(TableDef relation) {
        return new TributaryException(
                SqlState.SERIALIZATION_FAILURE,
                "could not serialize access: relation \"" + relation.localName() + "\" changed while ALTER ran");
    }
}
