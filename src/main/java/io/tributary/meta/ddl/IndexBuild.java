package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.IndexDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.IndexKeys;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.SortedFile;
import io.tributary.storage.SortedPositions;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.runtime.ChangedKeyWatch;
import io.tributary.stream.runtime.StreamRuntime;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Builds a new index over a table's rows without holding the writers back for the scan, as
 * PostgreSQL's {@code CREATE INDEX CONCURRENTLY} does (a plain {@code CREATE INDEX} takes this
 * path too: nothing is gained by making writers wait). Three steps:
 *
 * <ol>
 *   <li>At an epoch boundary (under the barrier lock, brief): pin a snapshot of the committed
 *       rows and start listing the keys of rows that change from then on ({@link ChangedKeyWatch}).
 *   <li>Outside the lock: read the snapshot's rows, make their entries, sort them (a unique
 *       index's duplicates are then neighbours: PostgreSQL's 23505 names the least one) and
 *       write them into a sorted file ({@link StateStore#newSortedFile}).
 *   <li>At another boundary, committed alone (under the lock, as long as the changes since step 1
 *       take): for each changed key, the entry of its row in the snapshot is deleted and the entry
 *       of its row now is put (a unique index checks it against the file's entries and the other
 *       new ones); the file, those writes and the table's new record commit as one epoch. From
 *       that epoch on writers keep the index ({@code meta.write.IndexMaintenance}).
 * </ol>
 *
 * Past {@link ChangedKeyWatch#MAX_KEYS} changed rows the build gives up (53200) rather than hold
 * more. Nothing is written before the last step, so a crash or a failure anywhere leaves no trace: the
 * statement simply did not happen. A table whose columns or key changed meanwhile (a rename or a
 * default: ADD/DROP COLUMN and ADD PRIMARY KEY are refused while the watch reads the table) is
 * 40001.
 * Memory: the entries are held (encoded) until they are sorted and written, and a unique index
 * keeps their keys until the last step to check the changed rows against. Used by one session
 * thread, once.
 */
final class IndexBuild {
    /** Rows read between checks for a cancelled statement. */
    private static final int CANCEL_CHECK_ROWS = 65_536;

    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final StateStore store;
    private final StreamRuntime streams;
    private final TableDef table;
    private final IndexDef index;
    private final int[] columns;
    private final List<DataType> types;
    private final RowCodec rows;
    private final ByteWriter scratch = new ByteWriter(64);

    private ReadView snapshot;
    private ChangedKeyWatch watch;
    private SortedFile file;
    /** A unique index's snapshot entries' keys in key order (for the last step's checks), else null. */
    private byte[][] builtKeys;
    /** Without a sorted file (a store that takes none): the entries in key order, keys then values. */
    private byte[][] heldKeys;

    private byte[][] heldValues;

    IndexBuild(
            CatalogService catalogService,
            BarrierManager barriers,
            StateStore store,
            StreamRuntime streams,
            TableDef table,
            IndexDef index) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.store = store;
        this.streams = streams;
        this.table = table;
        this.index = index;
        this.columns = index.positionsIn(table);
        this.types = index.typesIn(table);
        this.rows = new RowCodec(table.columnTypes());
    }

    /**
     * Builds the index and commits it with the table's new record; returns once durable.
     *
     * @throws TributaryException 23505 two rows hold a unique index's values; 40001 the table's
     *     columns or key changed meanwhile; 42P01 it was dropped
     * @throws InterruptedException the statement was cancelled (nothing changed)
     */
    void run() throws InterruptedException {
        try {
            barriers.stageAtBoundary(new Start());
            writeSnapshotEntries();
            barriers.awaitCommitted(barriers.stageAlone(new Finish()));
        } finally {
            if (watch != null) {
                try {
                    barriers.stage(new Release());
                } catch (TributaryException shuttingDown) {
                    // 57P01: the server stops, and its feeds with it
                }
            }
            if (file != null) {
                file.close();
            }
            if (snapshot != null) {
                snapshot.close();
            }
        }
    }

    /** Step 1: the snapshot and the watch, at a boundary. */
    private final class Start implements EpochChange {
        @Override
        public void stage(WriteBuffer epoch) {
            current();
            snapshot = store.snapshot();
            watch = streams.watchKeys(table.id(), table.primaryKey(), table.primaryKeyTypes(), table.columnTypes());
        }
    }

    /** Step 2: the snapshot's entries, sorted, checked and written, outside the barrier lock. */
    private void writeSnapshotEntries() throws InterruptedException {
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        try (KvIterator it =
                snapshot.scan(Keyspace.DATA, TableKeys.tableStart(table.id()), TableKeys.tableEnd(table.id()))) {
            while (it.next()) {
                if (keys.size() % CANCEL_CHECK_ROWS == 0 && Thread.interrupted()) {
                    throw new InterruptedException();
                }
                Object[] row = rows.decode(it.value());
                keys.add(IndexKeys.key(index.id(), types, row, columns, index.unique(), it.key(), scratch));
                values.add(IndexKeys.value(row, columns, index.unique(), it.key()));
            }
        }
        byte[][] k = keys.toArray(new byte[0][]);
        keys = null;
        SortedPositions order = new SortedPositions(k);
        int[] sorted = order.sorted();
        if (index.unique()) {
            // a key of values alone (no NULL) equal to its neighbour's: two rows hold those values
            for (int i = 0; i + 1 < sorted.length; i++) {
                if (order.sameKey(i, i + 1)) {
                    throw duplicated(rows.decode(
                            snapshot.get(Keyspace.DATA, TableKeys.rowKey(table.id(), values.get(sorted[i])))));
                }
            }
        }
        file = store.newSortedFile();
        byte[][] inOrder = new byte[sorted.length][];
        byte[][] valuesInOrder = file == null ? new byte[sorted.length][] : null;
        for (int i = 0; i < sorted.length; i++) {
            byte[] key = k[sorted[i]];
            inOrder[i] = key;
            if (file != null) {
                file.put(key, key.length, values.get(sorted[i]));
            } else {
                valuesInOrder[i] = values.get(sorted[i]);
            }
        }
        if (file != null && file.pairs() > 0) {
            file.finish();
        }
        builtKeys = index.unique() ? inOrder : null;
        heldKeys = file == null ? inOrder : null;
        heldValues = valuesInOrder;
    }

    /** Step 3: the changes since the snapshot, the file and the new record, as one epoch. */
    private final class Finish implements EpochChange {
        private TableDef before;
        private TableDef after;

        @Override
        public void stage(WriteBuffer epoch) {
            before = current();
            if (watch.overflowed()) {
                throw new TributaryException(
                        SqlState.OUT_OF_MEMORY,
                        "could not create index \"" + index.name() + "\": more than "
                                + ChangedKeyWatch.MAX_KEYS + " rows of \"" + table.localName()
                                + "\" changed while it was built",
                        0,
                        null,
                        "Run CREATE INDEX again while fewer rows change.",
                        null);
            }
            List<IndexDef> all = new ArrayList<>(before.indexes());
            all.add(index);
            after = before.withIndexes(all);
            // first everything that can refuse the build, then the writes: the buffer's apply after
            // the file, deletes before puts, so a key that one row left and another took (a unique
            // index's values) ends up put
            List<byte[]> deletes = new ArrayList<>();
            List<byte[]> putKeys = new ArrayList<>();
            List<byte[]> putValues = new ArrayList<>();
            Set<ByteBuffer> removed = new HashSet<>();
            Map<ByteBuffer, Object[]> taken = new HashMap<>();
            for (byte[] pk : watch.keys()) {
                byte[] rowKey = TableKeys.rowKey(table.id(), pk);
                byte[] then = snapshot.get(Keyspace.DATA, rowKey);
                byte[] now = epoch.get(Keyspace.DATA, rowKey);
                if (Arrays.equals(then, now)) {
                    continue;
                }
                if (then != null) {
                    byte[] key = entryKey(rows.decode(then), rowKey);
                    deletes.add(key);
                    removed.add(ByteBuffer.wrap(key));
                }
                if (now != null) {
                    Object[] row = rows.decode(now);
                    byte[] key = entryKey(row, rowKey);
                    putKeys.add(key);
                    putValues.add(IndexKeys.value(row, columns, index.unique(), rowKey));
                    if (index.unique()
                            && !IndexKeys.hasNull(row, columns)
                            && taken.putIfAbsent(ByteBuffer.wrap(key), row) != null) {
                        throw duplicated(row);
                    }
                }
            }
            for (Map.Entry<ByteBuffer, Object[]> e : taken.entrySet()) {
                if (!removed.contains(e.getKey())
                        && Arrays.binarySearch(builtKeys, e.getKey().array(), Arrays::compareUnsigned) >= 0) {
                    throw duplicated(e.getValue());
                }
            }
            if (file != null && file.pairs() > 0) {
                epoch.putFile(file, TableKeys.tableStart(index.id()), TableKeys.tableEnd(index.id()));
                file = null; // the buffer owns it now
            } else if (heldKeys != null) {
                for (int i = 0; i < heldKeys.length; i++) {
                    epoch.put(Keyspace.DATA, heldKeys[i], heldValues[i]);
                }
            }
            for (byte[] key : deletes) {
                epoch.delete(Keyspace.DATA, key);
            }
            for (int i = 0; i < putKeys.size(); i++) {
                epoch.put(Keyspace.DATA, putKeys.get(i), putValues.get(i));
            }
            catalogService.stageRecord(epoch, after);
            catalogService.catalog().put(after);
        }

        @Override
        public void failed() {
            catalogService.putBack(before, after);
        }
    }

    /** Stops the watch; staged after the last step, or after a failure. */
    private final class Release implements EpochChange {
        @Override
        public void stage(WriteBuffer epoch) {
            streams.releaseWatch(watch);
            watch = null;
        }
    }

    private byte[] entryKey(Object[] row, byte[] rowKey) {
        return IndexKeys.key(index.id(), types, row, columns, index.unique(), rowKey, scratch);
    }

    /**
     * The table's record now, which must have the columns and key the build read (its indexes may
     * differ: another index created or dropped meanwhile is kept as it is).
     */
    private TableDef current() {
        Catalog catalog = catalogService.catalog();
        TableDef now = catalog.table(table.name()).orElseThrow(() -> Catalog.undefinedTable(table.name()));
        if (now.id() != table.id()
                || !now.columns().equals(table.columns())
                || !Arrays.equals(now.primaryKey(), table.primaryKey())) {
            throw new TributaryException(
                    SqlState.SERIALIZATION_FAILURE,
                    "could not serialize access: relation \"" + table.localName()
                            + "\" changed while CREATE INDEX ran");
        }
        return now;
    }

    /** PostgreSQL's 23505 for a unique index two rows share the values of; {@code row} is one of them. */
    private TributaryException duplicated(Object[] row) {
        StringJoiner names = new StringJoiner(", ");
        StringJoiner values = new StringJoiner(", ");
        for (String c : index.columns()) {
            int at = table.columnIndex(c);
            names.add(c);
            values.add(PgTextFormat.format(table.columns().get(at).type(), row[at]));
        }
        return new TributaryException(
                SqlState.UNIQUE_VIOLATION,
                "could not create unique index \"" + index.name() + "\"",
                0,
                "Key (" + names + ")=(" + values + ") is duplicated.",
                null,
                null);
    }
}
