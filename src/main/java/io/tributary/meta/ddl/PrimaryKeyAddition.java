package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.IndexDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.meta.sink.SinkManager;
import io.tributary.storage.IndexKeys;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * {@code ALTER TABLE t ADD [CONSTRAINT name] PRIMARY KEY (cols)} on a table created without a key
 * (the form pg_dump writes after a table's {@code COPY}): the table is rebuilt under the new key in
 * one epoch, staged at an epoch boundary. The rebuilt table gets a new id; its rows are re-keyed
 * and written under it, each UNIQUE constraint's and index's entries are rewritten under a new id
 * of their own, the old ids' entries are deleted, and the catalog record and the positions of
 * its SERIAL/identity sequences move with it, all in that epoch's one atomic write. So after a
 * crash the table is either wholly the old one or wholly the new one. The whole table passes
 * through the epoch's write buffer, so the rebuild needs memory for its rows.
 *
 * <p>Writers prepared against the old table fail at staging with 42P01 (its id is gone), as after
 * a DROP. Called on session threads; thread-safe.
 */
public final class PrimaryKeyAddition {
    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final StateStore store;
    private final StreamRuntime streams;
    private final SinkManager sinks;
    private final SequenceMove sequences;

    public PrimaryKeyAddition(
            CatalogService catalogService,
            BarrierManager barriers,
            StateStore store,
            StreamRuntime streams,
            SinkManager sinks,
            SequenceMove sequences) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.store = store;
        this.streams = streams;
        this.sinks = sinks;
        this.sequences = sequences;
    }

    /**
     * Adds the key; returns once the rebuilt table is durable.
     *
     * @param constraint the constraint's name as written, null for none ({@code <table>_pkey});
     *     it names the index in a 23505 (the catalog always shows {@code <table>_pkey})
     *
     * @throws TributaryException 42P01 unknown table; 42809 for a materialized view; 42P16 when the
     *     table has a key; 42703 unknown column; 42701 a column named twice; 23502 NULL in a key
     *     column; 23505 a key value twice (nothing changed after any of these); 0A000 for a table
     *     fed by a connector or with a watermark, or one that views, sinks or other jobs read
     */
    public void add(String tableName, String constraint, List<String> columnNames) throws InterruptedException {
        Catalog catalog = catalogService.catalog();
        TableDef table = catalog.require(tableName);
        if (table.isView()) {
            throw new TributaryException(SqlState.WRONG_OBJECT_TYPE, "\"" + table.localName() + "\" is not a table");
        }
        if (!table.hasRowId()) {
            throw new TributaryException(
                    SqlState.INVALID_TABLE_DEFINITION,
                    "multiple primary keys for table \"" + table.localName() + "\" are not allowed");
        }
        if (table.source() != null || table.watermark() != null) {
            throw TributaryException.notSupported("ALTER TABLE ... ADD PRIMARY KEY on a table "
                    + (table.source() != null ? "fed by a connector" : "with a watermark"));
        }
        refuseReaders(catalog, table);
        int[] key = keyColumns(table, columnNames);
        // index entries end with (or hold) the row's key, which the rebuild replaces: each index is
        // rewritten under a new storage id, and the old ids' entries go with the old table
        List<IndexDef> indexes = new ArrayList<>();
        for (IndexDef index : table.indexes()) {
            indexes.add(index.named(index.name(), catalogService.allocateIds(1)));
        }
        barriers.awaitCommitted(barriers.stageAtBoundary(new Rebuild(
                table,
                rekeyed(table, key, catalogService.allocateIds(1), indexes),
                constraint == null ? table.localName() + "_pkey" : constraint)));
    }

    /**
     * 0A000 naming the materialized views and sinks that read the table. Unpopulated views do not
     * count: they hold no state built over the old key, and REFRESH plans them over the new one.
     */
    private void refuseReaders(Catalog catalog, TableDef table) {
        StringJoiner readers = new StringJoiner(", ");
        for (TableDef t : catalog.tables()) {
            if (t.dependsOn(table.id()) && !UnpopulatedViews.isUnpopulated(catalog, t.id())) {
                readers.add("materialized view " + t.localName());
            }
        }
        sinks.sinksOn(table.id()).forEach(s -> readers.add("sink " + s.name()));
        if (readers.length() > 0) {
            throw readBy(table, readers.toString());
        }
    }

    private static TributaryException readBy(TableDef table, String readers) {
        return TributaryException.notSupported("ALTER TABLE ... ADD PRIMARY KEY on table \"" + table.localName()
                + "\", which " + readers + " read (rebuilding a table that jobs read),");
    }

    private static int[] keyColumns(TableDef table, List<String> names) {
        int[] key = new int[names.size()];
        for (int i = 0; i < key.length; i++) {
            int c = table.columnIndex(names.get(i));
            if (c < 0 || table.columns().get(c).hidden()) {
                throw new TributaryException(
                        SqlState.UNDEFINED_COLUMN,
                        "column \"" + names.get(i) + "\" of relation \"" + table.localName() + "\" does not exist");
            }
            for (int j = 0; j < i; j++) {
                if (key[j] == c) {
                    throw new TributaryException(
                            SqlState.DUPLICATE_COLUMN,
                            "column \"" + names.get(i) + "\" appears twice in primary key constraint");
                }
            }
            key[i] = c;
        }
        return key;
    }

    /**
     * The table under its new key: the hidden row id (the last column) is gone, the key columns
     * are NOT NULL; user columns keep their positions, so sequences keep their column numbers.
     */
    private static TableDef rekeyed(TableDef table, int[] key, int newId, List<IndexDef> indexes) {
        List<ColumnDef> columns =
                new ArrayList<>(table.columns().subList(0, table.columns().size() - 1));
        for (int c : key) {
            ColumnDef d = columns.get(c);
            columns.set(c, d.withNotNull(true));
        }
        return new TableDef(
                newId,
                table.name(),
                List.copyOf(columns),
                key.clone(),
                table.definition(),
                table.kind(),
                table.query(),
                table.dependsOn(),
                table.stateTableIds(),
                table.parallelism(),
                null,
                null,
                table.schema(),
                table.checks(),
                indexes,
                table.foreignKeys(),
                table.comment());
    }

    /** The rebuild, as one change of an epoch staged at a boundary (the store holds every row). */
    private final class Rebuild implements EpochChange {
        private final TableDef before;
        private final TableDef after;
        private final String indexName;
        /** The unpopulated views reading the table, as they were before staging moved them to its new id. */
        private final List<TableDef> movedReaders = new ArrayList<>();
        /** The same views as staging moved them, in the same order. */
        private final List<TableDef> moved = new ArrayList<>();

        Rebuild(TableDef before, TableDef after, String indexName) {
            this.before = before;
            this.indexName = indexName;
            this.after = after;
        }

        @Override
        public void stage(WriteBuffer epoch) {
            Catalog catalog = catalogService.catalog();
            if (catalog.table(before.name()).map(t -> t.id() != before.id()).orElse(true)) {
                throw Catalog.undefinedTable(before.name());
            }
            if (streams.hasSubscribers(before.id())) {
                throw readBy(before, "a job");
            }
            refuseReaders(catalog, before);
            RowCodec oldRows = new RowCodec(before.columnTypes());
            RowCodec newRows = new RowCodec(after.columnTypes());
            ByteWriter keyWriter = new ByteWriter(64);
            ByteWriter indexScratch = new ByteWriter(64);
            List<IndexDef> indexes = after.indexes();
            int[][] indexColumns = new int[indexes.size()][];
            List<List<DataType>> indexTypes = new ArrayList<>();
            for (int i = 0; i < indexes.size(); i++) {
                indexColumns[i] = indexes.get(i).positionsIn(after);
                indexTypes.add(indexes.get(i).typesIn(after));
            }
            Object[] row = new Object[after.columns().size()];
            try (ReadView committed = store.latest();
                    KvIterator rows = committed.scan(
                            Keyspace.DATA, TableKeys.tableStart(before.id()), TableKeys.tableEnd(before.id()))) {
                while (rows.next()) {
                    System.arraycopy(oldRows.decode(rows.value()), 0, row, 0, row.length);
                    checkNotNull(row);
                    keyWriter.reset();
                    keyWriter.skip(TableKeys.PREFIX_LENGTH);
                    KeyCodec.encode(keyWriter, after.primaryKeyTypes(), row, after.primaryKey());
                    byte[] key = TableKeys.fillPrefix(after.id(), keyWriter.toByteArray());
                    if (epoch.exists(Keyspace.DATA, key)) {
                        throw duplicate(row);
                    }
                    epoch.put(Keyspace.DATA, key, newRows.encode(row));
                    // the rows are those the indexes already held unique: no check is needed
                    for (int i = 0; i < indexColumns.length; i++) {
                        IndexDef index = indexes.get(i);
                        epoch.put(
                                Keyspace.DATA,
                                IndexKeys.key(
                                        index.id(),
                                        indexTypes.get(i),
                                        row,
                                        indexColumns[i],
                                        index.unique(),
                                        key,
                                        indexScratch),
                                IndexKeys.value(row, indexColumns[i], index.unique(), key));
                    }
                }
            }
            CatalogService.stageRemoval(epoch, before);
            catalogService.stageRecord(epoch, after);
            for (TableDef reader : catalog.tables()) {
                if (reader.dependsOn(before.id())) {
                    TableDef movedReader = reader.withDependencyMoved(before.id(), after.id());
                    catalogService.stageRecord(epoch, movedReader);
                    movedReaders.add(reader);
                    moved.add(movedReader);
                }
            }
            for (int c = 0; c < after.columns().size(); c++) {
                if (after.columns().get(c).identity() != null) {
                    sequences.moved(before.id(), c, after.id(), c).stage(epoch);
                }
            }
            catalog.put(after);
            moved.forEach(catalog::put);
        }

        @Override
        public void failed() {
            Catalog catalog = catalogService.catalog();
            if (catalog.table(after.name()).map(t -> t.id() == after.id()).orElse(false)) {
                catalog.put(before);
                movedReaders.forEach(catalog::put);
            }
        }

        /** PostgreSQL's 23502 for a NULL in a column becoming a key column. */
        private void checkNotNull(Object[] row) {
            for (int c : after.primaryKey()) {
                if (row[c] == null) {
                    String column = after.columns().get(c).name();
                    throw new TributaryException(
                            SqlState.NOT_NULL_VIOLATION,
                            "column \"" + column + "\" of relation \"" + after.localName() + "\" contains null values",
                            null,
                            new TributaryException.ErrorObject(after.schema(), after.localName(), column, null));
                }
            }
        }

        /** PostgreSQL's 23505 for a key value found twice while building the key's index. */
        private TributaryException duplicate(Object[] row) {
            StringJoiner names = new StringJoiner(", ");
            StringJoiner values = new StringJoiner(", ");
            for (int c : after.primaryKey()) {
                names.add(after.columns().get(c).name());
                values.add(String.valueOf(
                        PgTextFormat.format(after.columns().get(c).type(), row[c])));
            }
            return new TributaryException(
                    SqlState.UNIQUE_VIOLATION,
                    "could not create unique index \"" + indexName + "\"",
                    "Key (" + names + ")=(" + values + ") is duplicated.",
                    new TributaryException.ErrorObject(after.schema(), after.localName(), null, indexName));
        }
    }
}
