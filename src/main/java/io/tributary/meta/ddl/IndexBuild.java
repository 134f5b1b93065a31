package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
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
import java.util.function.Function;

/**
 * Builds a new index over a table's rows without holding the writers back for the scan, as
 * PostgreSQL's {@code CREATE INDEX CONCURRENTLY} does (a plain {@code CREATE INDEX} takes this
 * path too: nothing is gained by making writers wait). Three steps:
 *
 * <ol>
 *   <li>At an epoch boundary (under the barrier lock, brief): pin a snapshot of the committed
 *       rows and start listing the keys of rows that change from then on ({@link ChangedKeyWatch}).
 *   <li>Outside the lock: read the snapshot's rows, make their entries, sort them (a unique
 *       index's duplicates are then neighbours, and its 23505 names the least duplicated key) and
 *       write them into a sorted file ({@link StateStore#newSortedFile}).
 *   <li>Catch-up rounds, outside the lock: each takes, at a boundary (briefly under the lock),
 *       the keys changed since the last one ({@link ChangedKeyWatch#take}) and a snapshot of that
 *       boundary, and reads those rows in it and in the pinned snapshot with batched reads
 *       ({@link ReadView#getAll}), keeping per changed key its entry then and now. The rounds
 *       stop once one takes at most {@link #LOCKED_KEYS} keys (or after {@link #MAX_ROUNDS}).
 *   <li>At another boundary, committed alone (under the lock): the keys changed since the last
 *       round are read the same way from the epoch; then, for every key changed since the
 *       snapshot, the entry of its row in the snapshot is deleted and the entry of its row now is
 *       put (a unique index checks them against each other and the file's entries, and names the
 *       least duplicated key, as step 2 does); the file, those writes and the table's new record
 *       commit as one epoch. From that epoch on writers keep the index ({@code
 *       meta.write.IndexMaintenance}). The reads under the lock are the last round's few keys;
 *       the checks and writes are still one per key changed since the snapshot.
 * </ol>
 *
 * Past {@link ChangedKeyWatch#MAX_KEYS} changed rows the build gives up (53200) rather than hold
 * more. A TRUNCATE of the table meanwhile voids the snapshot: the build starts over from a
 * snapshot taken after it, at the next round or last step (at most {@link #MAX_RESTARTS} times,
 * then 40001). Nothing is written before the last step, so a crash or a failure anywhere leaves no trace: the
 * statement simply did not happen. A table whose columns or key changed meanwhile (a rename or a
 * default) is 40001. ADD/DROP COLUMN and ADD PRIMARY KEY and the build keep apart through
 * {@link IndexBuildGate}: the ALTER waits for a running build, and a build asked for while an
 * ALTER claims the table waits for it and then starts over on the table it left ({@link #run}
 * returns false), as does a build whose table changed between its read and its start.
 *
 * <p>Memory: the snapshot's entries are held (encoded) until they are sorted and written, and a
 * unique index keeps their keys until the last step to check the changed rows against. Per row
 * changed since the snapshot ({@link Changed}) the build keeps its primary key and its entry keys
 * then and now, never the row: with the map's objects about 200 bytes plus those keys, so at most
 * about 250 MB at the {@link ChangedKeyWatch#MAX_KEYS} limit with a bigint key and short indexed
 * values (wide indexed values widen the entry keys; wide rows do not matter), besides the watch's
 * own list of the keys changed since the last round. Used by one session thread, once.
 */
final class IndexBuild {
    /** Rows read between checks for a cancelled statement. */
    private static final int CANCEL_CHECK_ROWS = 65_536;
    /** Changed keys read per batched read. */
    private static final int RESOLVE_BATCH = 65_536;
    /**
     * Changed keys few enough to read under the barrier lock: a catch-up round that took no more
     * ends the rounds (the keys changed during its reads are fewer still, unless writers speed up).
     */
    private static final int LOCKED_KEYS = 10_000;
    /** Catch-up rounds at most: writers that change rows faster than a round reads them keep them going. */
    private static final int MAX_ROUNDS = 8;
    /** TRUNCATEs of the table during one build at most before it gives up (40001). */
    private static final int MAX_RESTARTS = 16;

    /**
     * Told of every build's steps when set: tests that must act while a build is at a step (a
     * write, a TRUNCATE, an ALTER during it) hold it there. Null in production.
     */
    static volatile StepObserver observer;

    /** A build's steps an {@link #observer} is told of, outside the barrier lock. */
    enum Step {
        /** The snapshot's entries are written (step 2 ended; again after a restart). */
        SCANNED,
        /** A catch-up round is about to take its keys. */
        ROUND,
        /** The last step is about to be staged. */
        FINAL,
        /** A rewrite claims the table: the build waits for it before it starts. */
        WAITS_FOR_REWRITE
    }

    /** Sees a build's {@link Step steps}; may block the build there. */
    interface StepObserver {
        void reached(IndexBuild build, Step step) throws InterruptedException;

        /**
         * The CREATE INDEX of index {@code index} (null when unnamed) waits for a rewrite's claim
         * on its table before it resolves its columns, as a column it names does not exist yet
         * ({@link IndexDdl#create}); no build is made before.
         */
        default void columnsWaitForRewrite(String index) {}
    }

    /** Tells the {@link #observer}, if any, of {@link StepObserver#columnsWaitForRewrite}. */
    static void columnsWaitForRewrite(String index) {
        StepObserver o = observer;
        if (o != null) {
            o.columnsWaitForRewrite(index);
        }
    }

    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final IndexBuildGate gate;
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
    /** Per primary key (encoded) of a row changed since the snapshot: its entries then and now. */
    private final Map<ByteBuffer, Changed> changes = new HashMap<>();

    private int restarts;
    /**
     * The statement's cancel and {@code statement_timeout} check (throws 57014), run while the build
     * waits for a rewrite, every {@link #CANCEL_CHECK_ROWS} rows of its scan and after each
     * catch-up round; never at the last step, which is committed whole.
     */
    private final Runnable check;

    IndexBuild(
            CatalogService catalogService,
            BarrierManager barriers,
            IndexBuildGate gate,
            StateStore store,
            StreamRuntime streams,
            TableDef table,
            IndexDef index,
            Runnable check) {
        this.check = check;
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.gate = gate;
        this.store = store;
        this.streams = streams;
        this.table = table;
        this.index = index;
        this.columns = index.positionsIn(table);
        this.types = index.typesIn(table);
        this.rows = new RowCodec(table.columnTypes());
    }

    /**
     * Builds the index and commits it with the table's new record; returns once durable. Does not
     * start when the table's record changed since it was read or a rewrite claims the table
     * ({@link IndexBuildGate}): then it waits for the claim and returns false, and the caller reads
     * the table again and makes a new build.
     *
     * @return whether the index was built (false: nothing was done)
     * @throws TributaryException 23505 two rows hold a unique index's values; 40001 the table's
     *     columns or key changed meanwhile; 42P01 it was dropped; 57014 the statement was cancelled
     *     or ran past {@code statement_timeout} before its last step (nothing changed)
     * @throws InterruptedException the thread was interrupted (nothing changed)
     */
    boolean run() throws InterruptedException {
        Start start = new Start();
        try {
            barriers.stageAtBoundary(start);
            if (!start.started) {
                if (gate.claimed(table.name())) {
                    reached(Step.WAITS_FOR_REWRITE);
                    gate.awaitUnclaimed(table.name(), check);
                }
                return false;
            }
            while (true) {
                writeSnapshotEntries();
                reached(Step.SCANNED);
                if (catchUp()) {
                    reached(Step.FINAL);
                    Finish finish = new Finish();
                    barriers.awaitCommitted(barriers.stageAlone(finish));
                    if (!finish.restarted) {
                        return true;
                    }
                }
            }
        } finally {
            if (watch != null) {
                try {
                    barriers.stage(new Release());
                } catch (TributaryException shuttingDown) {
                    // 57P01: the server stops, and its feeds with it
                }
            }
            if (start.started) {
                // after the watch's release was staged: a rewrite this lets go stages after it
                gate.buildEnded(table.name());
            }
            if (file != null) {
                file.close();
            }
            if (snapshot != null) {
                snapshot.close();
            }
        }
    }

    /** Tells the {@link #observer}, if any, that this build is at {@code step}. */
    private void reached(Step step) throws InterruptedException {
        StepObserver o = observer;
        if (o != null) {
            o.reached(this, step);
        }
    }

    /** The index's name, for an {@link #observer}. */
    String indexName() {
        return index.name();
    }

    /** Whether a rewrite claims the table, for an {@link #observer} (see {@link IndexBuildGate#claimed}). */
    boolean rewriteClaimed() {
        return gate.claimed(table.name());
    }

    /**
     * Step 1: the snapshot and the watch, at a boundary; not when the table's record is not the
     * one read or a rewrite claims the table ({@link IndexBuildGate#tryStartBuild}, under the
     * barrier lock as a rewrite's staging, so none stages while a watch it would refuse is on).
     */
    private final class Start implements EpochChange {
        private boolean started;

        @Override
        public void stage(WriteBuffer epoch) {
            Catalog catalog = catalogService.catalog();
            TableDef now = catalog.table(table.name()).orElseThrow(() -> Catalog.undefinedTable(table.name()));
            if (!sameShape(now) || !gate.tryStartBuild(table.name())) {
                return;
            }
            started = true;
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
                if (keys.size() % CANCEL_CHECK_ROWS == 0) {
                    check.run();
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
        if (file != null) {
            file.close(); // a TRUNCATE made the build start over
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

    /**
     * Step 3, the part outside the lock: rounds that each take, at a boundary, the keys changed
     * since the last one with a snapshot of that boundary, and resolve them against it, until a
     * round takes few keys (or {@link #MAX_ROUNDS} ran): the last step then resolves only the keys
     * changed since, under the lock.
     *
     * @return false when the table was truncated meanwhile: the build starts over from the new
     *     snapshot a round took
     */
    private boolean catchUp() throws InterruptedException {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            reached(Step.ROUND);
            Round taken = new Round();
            barriers.stageAtBoundary(taken);
            if (taken.view == null) {
                return false;
            }
            try (ReadView view = taken.view) {
                resolve(taken.keys, keys -> view.getAll(Keyspace.DATA, keys));
            }
            check.run();
            if (taken.keys.size() <= LOCKED_KEYS) {
                break;
            }
        }
        return true;
    }

    /** A catch-up round's keys and the snapshot they are resolved against, taken at a boundary. */
    private final class Round implements EpochChange {
        private List<byte[]> keys;
        /** Null when the table was truncated: the build starts over. */
        private ReadView view;

        @Override
        public void stage(WriteBuffer epoch) {
            current();
            if (!restartedAfterTruncate()) {
                checkWatch();
                keys = watch.take();
                view = store.snapshot();
            }
        }
    }

    /**
     * Brings {@link #changes} up to date for the rows of {@code pks}: their entries in the pinned
     * snapshot (read once per key, the first time it changes) and now, as {@code latest} reads the
     * rows (a batched read, {@link ReadView#getAll}).
     */
    private void resolve(List<byte[]> pks, Function<List<byte[]>, List<byte[]>> latest) {
        for (int from = 0; from < pks.size(); from += RESOLVE_BATCH) {
            List<byte[]> batch = pks.subList(from, Math.min(pks.size(), from + RESOLVE_BATCH));
            List<byte[]> rowKeys = new ArrayList<>(batch.size());
            List<byte[]> fresh = new ArrayList<>();
            List<byte[]> freshPks = new ArrayList<>();
            for (byte[] pk : batch) {
                byte[] rowKey = TableKeys.rowKey(table.id(), pk);
                rowKeys.add(rowKey);
                if (!changes.containsKey(ByteBuffer.wrap(pk))) {
                    fresh.add(rowKey);
                    freshPks.add(pk);
                }
            }
            List<byte[]> then = snapshot.getAll(Keyspace.DATA, fresh);
            for (int i = 0; i < fresh.size(); i++) {
                Changed c = new Changed(freshPks.get(i));
                now(c, fresh.get(i), then.get(i));
                c.thenKey = c.nowKey;
                changes.put(ByteBuffer.wrap(c.pk), c);
            }
            List<byte[]> now = latest.apply(rowKeys);
            for (int i = 0; i < batch.size(); i++) {
                now(changes.get(ByteBuffer.wrap(batch.get(i))), rowKeys.get(i), now.get(i));
            }
        }
        if (changes.size() > ChangedKeyWatch.MAX_KEYS) {
            throw tooManyChanges();
        }
    }

    /**
     * A row changed since the snapshot, as the last step needs it: its entry keys then and as of
     * the last resolution, not the row (the rows are decoded when resolved and dropped), so the
     * memory per changed key is its primary key and two entry keys, whatever the rows' width.
     */
    static final class Changed {
        /** The row's primary key (encoded); also a unique index's entry value ({@link IndexKeys#value}). */
        final byte[] pk;
        /** The entry key of the row in the snapshot; null without a row. */
        byte[] thenKey;
        /** The entry key of the row as of the last resolution; null without a row. */
        byte[] nowKey;
        /** A unique index's entry without NULLs, which no other row may share. */
        boolean nowExclusive;
        /** {@link #nowExclusive} and equal to one of the snapshot's entries. */
        boolean nowInSnapshot;

        Changed(byte[] pk) {
            this.pk = pk;
        }

        /** The value of the entry {@link #nowKey}: as {@link IndexKeys#value} makes it. */
        byte[] nowValue() {
            return nowExclusive ? pk : IndexKeys.NO_VALUE;
        }
    }

    /**
     * Sets {@code c}'s entry now from its row {@code row} (encoded, stored under {@code rowKey};
     * null without a row), with the binary search outside the lock when it can be.
     */
    private void now(Changed c, byte[] rowKey, byte[] row) {
        if (row == null) {
            c.nowKey = null;
            c.nowExclusive = false;
            c.nowInSnapshot = false;
            return;
        }
        Object[] decoded = rows.decode(row);
        c.nowKey = entryKey(decoded, rowKey);
        c.nowExclusive = index.unique() && !IndexKeys.hasNull(decoded, columns);
        c.nowInSnapshot = c.nowExclusive && Arrays.binarySearch(builtKeys, c.nowKey, Arrays::compareUnsigned) >= 0;
    }

    /**
     * On a TRUNCATE of the table since the last boundary (under the lock, at a boundary): a new
     * snapshot replaces the pinned one and the changes resolved so far are dropped, so that the
     * build starts over from the snapshot step.
     *
     * @return whether the build starts over
     */
    private boolean restartedAfterTruncate() {
        if (!watch.wasTruncated()) {
            return false;
        }
        if (++restarts > MAX_RESTARTS) {
            throw new TributaryException(
                    SqlState.SERIALIZATION_FAILURE,
                    "could not serialize access: relation \"" + table.localName() + "\" was truncated " + MAX_RESTARTS
                            + " times while CREATE INDEX ran");
        }
        watch.take();
        changes.clear();
        snapshot.close();
        snapshot = store.snapshot();
        return true;
    }

    private void checkWatch() {
        if (watch.overflowed()) {
            throw tooManyChanges();
        }
    }

    private TributaryException tooManyChanges() {
        return new TributaryException(
                SqlState.OUT_OF_MEMORY,
                "could not create index \"" + index.name() + "\": more than "
                        + ChangedKeyWatch.MAX_KEYS + " rows of \"" + table.localName()
                        + "\" changed while it was built",
                0,
                null,
                "Run CREATE INDEX again while fewer rows change.",
                null);
    }

    /** Step 3, the last part: the keys changed since the last round, the file and the new record, as one epoch. */
    private final class Finish implements EpochChange {
        private TableDef before;
        private TableDef after;
        /** The table was truncated: nothing was staged and the build starts over. */
        private boolean restarted;

        @Override
        public void stage(WriteBuffer epoch) {
            before = current();
            if (restartedAfterTruncate()) {
                restarted = true;
                return;
            }
            checkWatch();
            resolve(watch.take(), keys -> epoch.getAll(Keyspace.DATA, keys));
            List<IndexDef> all = new ArrayList<>(before.indexes());
            all.add(index);
            TableDef next = before.withIndexes(all);
            // first everything that can refuse the build, then the writes: the buffer's apply after
            // the file, deletes before puts, so a key that one row left and another took (a unique
            // index's values) ends up put
            if (index.unique()) {
                checkUnique(epoch);
            }
            if (file != null && file.pairs() > 0) {
                epoch.putFile(file, TableKeys.tableStart(index.id()), TableKeys.tableEnd(index.id()));
                file = null; // the buffer owns it now
            } else if (heldKeys != null) {
                for (int i = 0; i < heldKeys.length; i++) {
                    epoch.put(Keyspace.DATA, heldKeys[i], heldValues[i]);
                }
            }
            for (Changed c : changes.values()) {
                if (c.thenKey != null && !Arrays.equals(c.thenKey, c.nowKey)) {
                    epoch.delete(Keyspace.DATA, c.thenKey);
                }
            }
            for (Changed c : changes.values()) {
                if (c.nowKey != null && !Arrays.equals(c.thenKey, c.nowKey)) {
                    epoch.put(Keyspace.DATA, c.nowKey, c.nowValue());
                }
            }
            after = next;
            catalogService.stageRecord(epoch, after);
            catalogService.catalog().put(after);
        }

        @Override
        public void failed() {
            if (after != null) {
                catalogService.putBack(before, after);
            }
        }
    }

    /**
     * A unique index: refuses (23505) a changed row's entry that another changed row's entry or a
     * snapshot entry whose row changed no other way still holds.
     */
    private void checkUnique(WriteBuffer epoch) {
        Set<ByteBuffer> left = new HashSet<>();
        for (Changed c : changes.values()) {
            if (c.thenKey != null && !Arrays.equals(c.thenKey, c.nowKey)) {
                left.add(ByteBuffer.wrap(c.thenKey));
            }
        }
        Map<ByteBuffer, Changed> taken = new HashMap<>();
        // the least duplicated key, not the first one met in hash order: the snapshot step names
        // the least too, so which one is named does not depend on when the rows changed
        Changed least = null;
        for (Changed c : changes.values()) {
            if (c.nowExclusive && !Arrays.equals(c.thenKey, c.nowKey)) {
                ByteBuffer key = ByteBuffer.wrap(c.nowKey);
                if ((taken.putIfAbsent(key, c) != null || c.nowInSnapshot && !left.contains(key))
                        && (least == null || Arrays.compareUnsigned(c.nowKey, least.nowKey) < 0)) {
                    least = c;
                }
            }
        }
        if (least != null) {
            // the row as resolved last: every row changed since is resolved in this epoch
            byte[] row = epoch.getAll(Keyspace.DATA, List.of(TableKeys.rowKey(table.id(), least.pk)))
                    .get(0);
            throw duplicated(rows.decode(row));
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
        if (!sameShape(now)) {
            throw new TributaryException(
                    SqlState.SERIALIZATION_FAILURE,
                    "could not serialize access: relation \"" + table.localName()
                            + "\" changed while CREATE INDEX ran");
        }
        return now;
    }

    /** Whether {@code now} has the id, columns and key the build reads (its indexes may differ). */
    private boolean sameShape(TableDef now) {
        return now.id() == table.id()
                && ColumnDef.sameShape(now.columns(), table.columns())
                && Arrays.equals(now.primaryKey(), table.primaryKey());
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
                "Key (" + names + ")=(" + values + ") is duplicated.",
                new TributaryException.ErrorObject(table.schema(), table.localName(), null, index.name()));
    }
}
