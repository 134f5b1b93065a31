package io.tributary.meta.write;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.codec.RowCodec;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.List;

/**
 * {@code TRUNCATE}: removes every row of some tables in one epoch. Staged at an epoch boundary
 * ({@code BarrierManager.stageAtBoundary}), so the committed store holds every row there is: each
 * is deleted by key, and when views read the table each is also sent to them as a delete, like a
 * DELETE of every row; so are its index entries. Deleting key by key (rather than one range delete) keeps the epoch's buffer
 * answering later reads of the same epoch correctly; it costs a scan of the table.
 */
public final class TableTruncation implements EpochChange {
    private final List<TableDef> tables;
    private final Catalog catalog;
    private final StateStore store;
    private final StreamRuntime streams;

    /** @param tables plain tables (not views, not fed by a connector), each once */
    public TableTruncation(List<TableDef> tables, Catalog catalog, StateStore store, StreamRuntime streams) {
        this.tables = tables;
        this.catalog = catalog;
        this.store = store;
        this.streams = streams;
    }

    /** @throws io.tributary.common.TributaryException 42P01 when a table was dropped meanwhile */
    @Override
    public void stage(WriteBuffer epoch) {
        for (TableDef table : tables) {
            if (catalog.table(table.name()).map(t -> t.id() != table.id()).orElse(true)) {
                throw Catalog.undefinedTable(table.name());
            }
        }
        java.util.Set<String> together = new java.util.HashSet<>();
        tables.forEach(t -> together.add(t.name()));
        for (TableDef table : tables) {
            for (TableDef referencing : ForeignKeyChecks.referencing(catalog, table)) {
                if (!together.contains(referencing.name())) {
                    throw new io.tributary.common.TributaryException(
                            io.tributary.common.SqlState.FEATURE_NOT_SUPPORTED,
                            "cannot truncate a table referenced in a foreign key constraint",
                            0,
                            "Table \"" + referencing.localName() + "\" references \"" + table.localName() + "\".",
                            "Truncate table \"" + referencing.localName()
                                    + "\" at the same time, or use TRUNCATE ... CASCADE.",
                            null);
                }
            }
        }
        try (ReadView committed = store.latest()) {
            for (TableDef table : tables) {
                truncate(table, committed, epoch);
                for (io.tributary.catalog.IndexDef index :
                        catalog.table(table.name()).orElseThrow().indexes()) {
                    deleteAll(index.id(), committed, epoch);
                }
            }
        }
    }

    /** Deletes every committed key of storage id {@code id} (an index's entries), key by key. */
    private static void deleteAll(int id, ReadView committed, WriteBuffer epoch) {
        try (KvIterator keys = committed.scan(Keyspace.DATA, TableKeys.tableStart(id), TableKeys.tableEnd(id))) {
            while (keys.next()) {
                epoch.delete(Keyspace.DATA, keys.key());
            }
        }
    }

    private void truncate(TableDef table, ReadView committed, WriteBuffer epoch) {
        boolean emit = streams.hasSubscribers(table.id());
        RowCodec codec = emit ? new RowCodec(table.columnTypes()) : null;
        Chunk.Builder chunk = new Chunk.Builder();
        try (KvIterator rows =
                committed.scan(Keyspace.DATA, TableKeys.tableStart(table.id()), TableKeys.tableEnd(table.id()))) {
            while (rows.next()) {
                epoch.delete(Keyspace.DATA, rows.key());
                if (emit) {
                    chunk.add(Op.DELETE, codec.decode(rows.value()));
                    if (chunk.isFull()) {
                        streams.emit(table.id(), chunk.build());
                    }
                }
            }
        }
        Chunk last = chunk.build();
        if (emit && last != null) {
            streams.emit(table.id(), last);
        }
        // after the deletes: an index build's watch drops them and starts over instead
        streams.truncated(table.id());
    }
}
