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
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.List;

/**
 * A table's stored rows re-encoded for its new columns (ALTER TABLE ... ADD or DROP COLUMN) and
 * its new catalog record, as one change of an epoch staged at a boundary, where the store holds
 * every committed row. Keys do not change (key columns keep their values), so each row is put
 * again under its key; the record and the rows commit in that epoch's one atomic write, so after
 * a crash the table is wholly the old one or wholly the new one. The whole table passes through
 * the epoch's write buffer, so the rewrite needs memory for its rows.
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
    private final TableDef after;
    /** Per column of {@link #after}: the column of {@link #before} holding its value, or -1 for {@link #added}. */
    private final int[] sources;
    /** The value every existing row takes in a column that is new (the DEFAULT evaluated once, or null). */
    private final Object added;
    /** Changes committed in the same epoch after the rows (sequence positions that move). */
    private final List<EpochChange> alongside;

    TableRewrite(
            CatalogService catalogService,
            StateStore store,
            StreamRuntime streams,
            TableDef before,
            TableDef after,
            int[] sources,
            Object added,
            List<EpochChange> alongside) {
        this.catalogService = catalogService;
        this.store = store;
        this.streams = streams;
        this.before = before;
        this.after = after;
        this.sources = sources;
        this.added = added;
        this.alongside = alongside;
    }

    @Override
    public void stage(WriteBuffer epoch) {
        Catalog catalog = catalogService.catalog();
        if (catalog.table(before.name()).map(t -> t != before).orElse(true)) {
            throw changedWhileRunning(before);
        }
        if (streams.hasSubscribers(before.id())) {
            throw TributaryException.notSupported(
                    "ALTER TABLE ... ADD or DROP COLUMN on table \"" + before.localName() + "\", which a job reads,");
        }
        RowCodec oldRows = new RowCodec(before.columnTypes());
        RowCodec newRows = new RowCodec(after.columnTypes());
        ByteWriter scratch = new ByteWriter(64);
        Object[] row = new Object[sources.length];
        try (ReadView committed = store.latest();
                KvIterator it = committed.scan(
                        Keyspace.DATA, TableKeys.tableStart(before.id()), TableKeys.tableEnd(before.id()))) {
            boolean first = true;
            while (it.next()) {
                if (first) {
                    refuseNullInNotNull();
                    first = false;
                }
                Object[] old = oldRows.decode(it.value());
                for (int c = 0; c < sources.length; c++) {
                    row[c] = sources[c] < 0 ? added : old[sources[c]];
                }
                epoch.put(Keyspace.DATA, it.key().clone(), newRows.encode(row, scratch));
            }
        }
        catalogService.stageRecord(epoch, after);
        for (EpochChange c : alongside) {
            c.stage(epoch);
        }
        catalog.put(after);
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
