package io.tributary.meta.write;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
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
import io.tributary.storage.KeyValueRun;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

/**
 * Collects one statement's changes to one table and applies them atomically to the open epoch.
 *
 * <p>Changes accumulate in statement order. {@link #apply} groups them by key (see
 * {@link ChangeSettler}), settles each key's final change, checks primary-key uniqueness within the statement and, under the
 * barrier lock, against the epoch and the committed rows, and only then writes; if any check
 * fails nothing of the statement is applied. One statement's thread only.
 */
public final class TableWriter implements AutoCloseable {
    private final TableDef table;
    private final RowCodec rowCodec;
    private final List<DataType> pkTypes;
    private final RowIdGenerator rowIds;
    private final StreamRuntime streams;
    private final BarrierManager barriers;
    private final Catalog catalog;
    /** Where DO UPDATE reads the committed rows it resolves before taking the barrier lock. */
    private final StateStore store;
    /** The table's watermark, which drops late inserts; null when it has none. */
    private final Watermarks.TableWatermark watermark;

    private final int watermarkColumn;
    /** Fills the table's {@code AS PROCTIME()} columns. */
    private final ProcTimeStamps stamps;

    private final ByteWriter keyWriter = new ByteWriter(64);
    private final ByteWriter rowWriter = new ByteWriter(64);
    /**
     * Whether views read the table when the statement began: only then are the staged rows' values
     * kept for the change stream. A view created meanwhile gets them decoded from the encoded rows.
     * Not keeping them halves what a bulk load holds on the heap until it applies.
     */
    private final boolean keepValues;

    private List<Change> changes = new ArrayList<>();
    /**
     * Whether the table can take a bulk load as a {@link KeyValueRun}: no view reads it (so no row
     * values are kept) and it has no watermark.
     */
    private final boolean packable;
    /**
     * The statement's rows, packed, while it has only inserted and their keys ascend. Null
     * otherwise; the first change that does not fit moves the packed rows to {@link #changes}.
     * While it is not null, {@link #changes} is empty.
     */
    private PackedRows run;
    /**
     * Whether the staged keys' primary-key bytes (after the table id and vnode prefix, which
     * depend on the primary key alone) strictly ascend in staging order, so no key was changed
     * twice. Tracked as changes are staged, so settling skips sorting for a bulk load in key
     * order (generate_series, a COPY of a sorted file); the sort was a fifth of such a load's CPU.
     */
    private boolean ascending = true;

    private byte[] lastKey;
    private long count;
    /** What to do with an insert whose key exists, for INSERT ... ON CONFLICT; null otherwise. */
    private ConflictAction conflict;
    /** Whether {@link #conflict} updates rows (DO UPDATE), which may not meet one key twice. */
    private boolean conflictUpdates;
    /** With {@link #conflict}: the rows the applied statement inserted or updated. */
    private List<Object[]> written;
    /** With {@link #conflict}: sees {@link #written} while staging, before anything is written. */
    private java.util.function.Consumer<List<Object[]>> writtenCheck;
    /** With a watermark: the largest and smallest times of the rows staged so far, and how many were late. */
    private long maxTime = Long.MIN_VALUE;

    private long minTime = Long.MAX_VALUE;
    private long lateRows;
    /** The table's CHECK constraints, tested on every row staged; null when it has none. */
    private CheckConstraints checks;

    /**
     * What INSERT ... ON CONFLICT does with a proposed row whose key exists already. Called under the
     * barrier lock on the statement's thread, while the statement is staged.
     */
    public interface ConflictAction {
        /**
         * @param existing the stored row, full width
         * @param proposed the row the statement inserts, full width, same key
         * @return the row to store instead of {@code existing} (same key), or null to leave it
         */
        Object[] resolve(Object[] existing, Object[] proposed);
    }

    /**
     * One staged change; {@code row} null means delete. Insert means the key must not exist
     * already. {@code values} is the decoded {@code row} when it is kept for the table's change
     * stream, else null.
     */
    record Change(byte[] key, byte[] row, boolean insert, Object[] values) {}

    /**
     * A writer bound to the parts it writes through; made by the database for each statement (and
     * by a source for each batch).
     */
    public TableWriter(
            TableDef table,
            RowIdGenerator rowIds,
            StreamRuntime streams,
            BarrierManager barriers,
            Catalog catalog,
            StateStore store,
            Watermarks watermarks) {
        if (table.isView()) {
            throw cannotChangeView(table.name());
        }
        this.table = table;
        this.streams = streams;
        this.barriers = barriers;
        this.catalog = catalog;
        this.rowCodec = new RowCodec(table.columnTypes());
        this.pkTypes = table.primaryKeyTypes();
        this.rowIds = rowIds;
        this.store = store;
        this.keepValues = streams.hasSubscribers(table.id());
        this.watermark = watermarks.of(table);
        this.watermarkColumn =
                table.watermark() == null ? -1 : table.watermark().column();
        this.packable = !keepValues && watermark == null;
        this.stamps = new ProcTimeStamps(table, barriers);
        this.run = packable ? new PackedRows(table, rowCodec) : null;
    }

    /**
     * Stages a new row (full width, canonical values of the column types; the hidden row id of a
     * table without primary key is filled in here).
     *
     * A row of a table with a watermark whose time is below the watermark is late: it is dropped
     * here (or when applied, if the watermark passed it meanwhile) and counted.
     *
     * @throws TributaryException 23502 for NULL in a NOT NULL column, 23514 for a row failing a CHECK
     */
    public void insert(Object[] row) {
        if (watermark != null && row[watermarkColumn] != null) {
            long time = (Long) row[watermarkColumn];
            if (watermark.isLate(time)) {
                lateRows++;
                return;
            }
            maxTime = Math.max(maxTime, time);
            minTime = Math.min(minTime, time);
        }
        if (table.hasRowId()) {
            row[table.primaryKey()[0]] = rowIds.next();
        }
        stamps.stamp(row);
        checkRow(row);
        if (run != null) {
            if (run.add(row)) {
                count++;
                return;
            }
            unpack();
        }
        stage(new Change(key(row), rowCodec.encode(row, rowWriter), true, keepValues ? row : null));
    }

    /** Moves {@link #run}'s rows (already counted) to {@link #changes} and stops packing this statement. */
    private void unpack() {
        if (run == null) {
            return;
        }
        changes = run.changes();
        if (!changes.isEmpty()) {
            lastKey = changes.get(changes.size() - 1).key();
        }
        run = null;
    }

    /**
     * Stages the removal of an existing row.
     *
     * @throws TributaryException 0A000 for a table with a watermark, which is append-only
     */
    public void delete(Object[] oldRow) {
        checkAppendOnly();
        unpack();
        stage(new Change(key(oldRow), null, false, null));
    }

    private void stage(Change c) {
        byte[] key = c.key();
        if (ascending && lastKey != null) {
            int p = TableKeys.PREFIX_LENGTH;
            ascending = Arrays.compareUnsigned(lastKey, p, lastKey.length, key, p, key.length) < 0;
        }
        lastKey = key;
        changes.add(c);
        count++;
    }

    /**
     * Stages a replacement whose primary key is unchanged. An update that changes a key is a
     * {@link #delete} of the old row and an {@link #insert} of the new one; the inserts must come
     * after all of the statement's deletes, so keys may move between rows of one statement.
     */
    public void replace(Object[] newRow) {
        checkAppendOnly();
        stamps.stamp(newRow);
        checkRow(newRow);
        unpack();
        stage(new Change(key(newRow), rowCodec.encode(newRow, rowWriter), false, keepValues ? newRow : null));
    }

    /**
     * Makes this statement's inserts an INSERT ... ON CONFLICT: a proposed row whose key is stored
     * already goes to {@code action} instead of failing with 23505. Two proposed rows with one key
     * keep the first (DO NOTHING), or fail with 21000 when {@code updates} (DO UPDATE), as in
     * PostgreSQL. Call before the first {@link #insert}; the statement may only insert.
     */
    public void onConflict(ConflictAction action, boolean updates) {
        checkAppendOnly();
        unpack();
        this.conflict = action;
        this.conflictUpdates = updates;
    }

    /**
     * For an ON CONFLICT statement: {@code check} gets the rows it inserts or updates while it is
     * staged, on the statement's thread under the barrier lock; throwing refuses the statement.
     */
    public void onWritten(java.util.function.Consumer<List<Object[]>> check) {
        this.writtenCheck = check;
    }

    /**
     * After {@link #apply} of an ON CONFLICT statement: the rows it inserted or updated (full
     * width), which is also its row count.
     */
    public List<Object[]> written() {
        return written;
    }

    /** Tests every row this writer stages against {@code constraints} (null: none). Call before staging. */
    public void checkRows(CheckConstraints constraints) {
        this.checks = constraints;
    }

    /** Rows staged so far (each insert, delete or replace counts one). */
    public long count() {
        return count;
    }

    /**
     * Moves the staged changes into the open epoch.
     *
     * @return the ticket to await for durability
     * @throws TributaryException 23505 when a new key exists already (nothing is applied then);
     *     42P01 when the table was dropped meanwhile
     */
    public long apply() {
        return apply((EpochChange) null);
    }

    /**
     * Like {@link #apply()}, and stages {@code alongside} in the same epoch: after the rows and
     * only if they pass their checks, and before any view sees them, so if it refuses, nothing of
     * the statement is applied or emitted (a source's position goes with the rows read up to it this
     * way). Its hooks run as the epoch's hooks. May be null.
     */
    public long apply(EpochChange alongside) {
        List<Change> settled =
                new ChangeSettler(changes, conflict != null, conflictUpdates, this::duplicate).settle(ascending);
        if (conflict != null) {
            // RETURNING lists an ON CONFLICT statement's rows in the order it proposed them
            java.util.IdentityHashMap<Change, Integer> positions = new java.util.IdentityHashMap<>();
            for (int i = 0; i < changes.size(); i++) {
                positions.put(changes.get(i), i);
            }
            settled.sort(java.util.Comparator.comparingInt(positions::get));
        }
        changes = new ArrayList<>();
        ascending = true;
        lastKey = null;
        StatementRows rows =
                new StatementRows(settled, run == null ? null : run.take(), alongside, maxTime, minTime, lateRows);
        rows.stamped = stamps.take();
        run = packable && conflict == null ? (run == null ? new PackedRows(table, rowCodec) : run) : null;
        maxTime = Long.MIN_VALUE;
        minTime = Long.MAX_VALUE;
        lateRows = 0;
        if (conflict != null && conflictUpdates) {
            rows.resolveCommitted();
        }
        return barriers.stage(rows);
    }

    /**
     * Like {@link #apply(EpochChange)} with each of {@code alongside} (which may be empty) staged in
     * order.
     */
    public long apply(List<EpochChange> alongside) {
        return apply(alongside.isEmpty() ? null : new Together(List.copyOf(alongside)));
    }

    /** Changes staged with a statement's rows, in order. */
    private record Together(List<EpochChange> changes) implements EpochChange {
        @Override
        public void stage(WriteBuffer buffer) {
            for (EpochChange c : changes) {
                c.stage(buffer);
            }
        }

        @Override
        public void committed() {
            changes.forEach(EpochChange::committed);
        }

        @Override
        public void failed() {
            changes.forEach(EpochChange::failed);
        }
    }

    /** A DO UPDATE resolved before staging to leave the stored row as it is. */
    private static final Object[] LEAVE = new Object[0];

    /**
     * A staged change's row as values: kept when views read the table, otherwise decoded here, for
     * ON CONFLICT and RETURNING, which need the values whether or not a view does.
     */
    private Object[] valuesOf(Change c) {
        return c.values() != null ? c.values() : rowCodec.decode(c.row());
    }

    /** A statement's settled changes to the table, as one change of an epoch. */
    private final class StatementRows implements EpochChange {
        private List<Change> settled;
        /** The statement's rows when they were packed (then {@link #settled} is empty), else null. */
        private KeyValueRun run;

        private final EpochChange alongside;
        /** Positions in {@code settled} of the changes whose keys must be new (the first {@code newKeys.size()}), and those keys. */
        private int[] inserts;

        private List<byte[]> newKeys;
        /** With a watermark: the statement's largest and smallest on-time times and its late rows. */
        private long maxTime;

        private final long minTime;
        private long lateRows;
        /**
         * For DO UPDATE: per settled change, the committed row it was resolved against before
         * staging (null: none) and the result ({@link #LEAVE} for leave as is); null when not resolved.
         */
        private byte[][] resolvedAgainst;

        private Object[][] resolved;
        /** The epoch times the rows were stamped with; see {@link #restampIfMoved}. */
        private ProcTimeStamps.Range stamped;

        StatementRows(
                List<Change> settled,
                KeyValueRun run,
                EpochChange alongside,
                long maxTime,
                long minTime,
                long lateRows) {
            this.run = run == null || run.size() == 0 ? null : run;
            this.alongside = alongside;
            this.maxTime = maxTime;
            this.minTime = minTime;
            this.lateRows = lateRows;
            index(settled);
        }

        private void index(List<Change> changes) {
            this.settled = changes;
            this.newKeys = new ArrayList<>(changes.size());
            this.inserts = new int[changes.size()];
            for (int i = 0; i < changes.size(); i++) {
                if (changes.get(i).insert()) {
                    inserts[newKeys.size()] = i;
                    newKeys.add(changes.get(i).key());
                }
            }
        }

        /**
         * The watermark moved past some of the rows after they were staged (an epoch committed
         * between {@link #insert} and {@link #apply}): drops those too, so every row of an epoch is
         * judged by the watermark as of the epoch's start. Under the barrier lock; rare.
         */
        private void dropNewlyLate() {
            List<Change> kept = new ArrayList<>(settled.size());
            long max = Long.MIN_VALUE;
            for (Change c : settled) {
                Object time = c.row() == null ? null : valuesOf(c)[watermarkColumn];
                if (time != null && watermark.isLate((Long) time)) {
                    lateRows++;
                } else {
                    kept.add(c);
                    max = time == null ? max : Math.max(max, (Long) time);
                }
            }
            maxTime = max;
            index(kept);
        }

        /**
         * Stamps the rows' {@code AS PROCTIME()} columns again when an epoch committed between
         * the rows entering the writer and staging, so every row carries the time of the epoch it is ingested in.
         * Under the barrier lock; rare. An ON CONFLICT DO UPDATE statement resolved its rows before
         * staging and keeps the time it stamped (at most one epoch early).
         */
        private void restampIfMoved() {
            if (stamped == null || resolved != null || !stamps.moved(stamped)) {
                return;
            }
            if (run != null) {
                index(PackedRows.changesOf(run));
                run = null;
            }
            index(stamps.restamp(settled, TableWriter.this::valuesOf, rowCodec, rowWriter));
            stamped = null;
        }

        @Override
        public void stage(WriteBuffer epoch) {
            TableDef current = catalog.table(table.name()).orElse(null);
            if (current == null || current.id() != table.id()) {
                throw Catalog.undefinedTable(table.name());
            }
            CheckConstraints.refuseAddedSince(table, current);
            restampIfMoved();
            if (conflict != null) {
                stageResolvingConflicts(epoch);
                return;
            }
            if (run != null && streams.hasSubscribers(table.id())) {
                // a view began reading the table since the statement did: it needs the rows as changes
                index(PackedRows.changesOf(run));
                run = null;
            }
            if (run != null) {
                stagePacked(epoch);
                return;
            }
            if (watermark != null && watermark.isLate(minTime)) {
                dropNewlyLate();
            }
            // When views read this table every changed key's current row is read once: it is both
            // the uniqueness check and the row the views must retract. Otherwise only the new keys
            // are checked, without fetching values. An insert into a table without a primary key
            // has a fresh row id for its key (see RowIdGenerator), so it has no current row and
            // needs no check: a source appending to such a table reads nothing back.
            boolean freshInserts = table.hasRowId();
            List<byte[]> previous = streams.hasSubscribers(table.id()) ? previousRows(epoch, freshInserts) : null;
            boolean[] exists = previous != null || freshInserts ? null : epoch.existAll(Keyspace.DATA, newKeys);
            for (int k = 0; k < newKeys.size() && !freshInserts; k++) {
                int at = inserts[k];
                if (previous != null ? previous.get(at) != null : exists[k]) {
                    throw duplicate(settled.get(at).row());
                }
            }
            for (Change c : settled) {
                if (c.row() == null) {
                    epoch.delete(Keyspace.DATA, c.key());
                } else {
                    epoch.put(Keyspace.DATA, c.key(), c.row());
                }
            }
            if (alongside != null) {
                alongside.stage(epoch);
            }
            if (watermark != null) {
                watermark.stage(epoch, maxTime, lateRows);
            }
            if (previous != null) {
                emitChanges(settled, previous);
            }
        }

        /**
         * Each settled change's current row (null: none), in order. With {@code freshInserts} the
         * inserts' keys are fresh row ids, so only the other changes' keys are read.
         */
        private List<byte[]> previousRows(WriteBuffer epoch, boolean freshInserts) {
            if (!freshInserts) {
                return epoch.getAll(
                        Keyspace.DATA, settled.stream().map(Change::key).toList());
            }
            byte[][] out = new byte[settled.size()][];
            if (newKeys.size() < settled.size()) {
                List<byte[]> keys = new ArrayList<>(settled.size() - newKeys.size());
                for (Change c : settled) {
                    if (!c.insert()) {
                        keys.add(c.key());
                    }
                }
                List<byte[]> found = epoch.getAll(Keyspace.DATA, keys);
                int next = 0;
                for (int i = 0; i < out.length; i++) {
                    if (!settled.get(i).insert()) {
                        out[i] = found.get(next++);
                    }
                }
            }
            return Arrays.asList(out);
        }

        /** Writes a packed bulk load (see {@link PackedRows#stage}). */
        private void stagePacked(WriteBuffer epoch) {
            int existing = PackedRows.stage(epoch, run, table.hasRowId());
            if (existing >= 0) {
                throw duplicate(run.value(existing));
            }
            if (alongside != null) {
                alongside.stage(epoch);
            }
        }

        /**
         * Runs DO UPDATE's expressions against the committed rows before the barrier lock is
         * taken, so a large upsert does not hold up every writer and epoch while they run; staging
         * then only re-resolves the keys whose rows changed meanwhile.
         */
        void resolveCommitted() {
            resolvedAgainst = new byte[settled.size()][];
            resolved = new Object[settled.size()][];
            try (ReadView committed = store.latest()) {
                for (int i = 0; i < settled.size(); i++) {
                    byte[] old = committed.get(Keyspace.DATA, settled.get(i).key());
                    if (old != null) {
                        Object[] replacement = conflict.resolve(rowCodec.decode(old), valuesOf(settled.get(i)));
                        resolvedAgainst[i] = old;
                        resolved[i] = replacement == null ? LEAVE : replacement;
                    }
                }
            }
        }

        /**
         * Inserts the new keys and hands each stored key's row with its proposed one to the
         * conflict action (unless it was resolved against that same row before); everything is
         * decided before anything is written or emitted.
         */
        private void stageResolvingConflicts(WriteBuffer epoch) {
            List<byte[]> stored = epoch.getAll(
                    Keyspace.DATA, settled.stream().map(Change::key).toList());
            List<Change> effective = new ArrayList<>(settled.size());
            List<byte[]> previous = new ArrayList<>(settled.size());
            List<Object[]> rows = new ArrayList<>(settled.size());
            for (int i = 0; i < settled.size(); i++) {
                Change c = settled.get(i);
                byte[] old = stored.get(i);
                if (old == null) {
                    effective.add(c);
                } else {
                    Object[] replacement = resolved != null && Arrays.equals(old, resolvedAgainst[i])
                            ? resolved[i]
                            : conflict.resolve(rowCodec.decode(old), valuesOf(c));
                    if (replacement == null || replacement == LEAVE) {
                        continue;
                    }
                    checkRow(replacement);
                    effective.add(new Change(c.key(), rowCodec.encode(replacement), false, replacement));
                }
                previous.add(old);
                rows.add(valuesOf(effective.get(effective.size() - 1)));
            }
            written = rows;
            if (writtenCheck != null) {
                writtenCheck.accept(rows);
            }
            for (Change c : effective) {
                epoch.put(Keyspace.DATA, c.key(), c.row());
            }
            if (alongside != null) {
                alongside.stage(epoch);
            }
            if (streams.hasSubscribers(table.id())) {
                emitChanges(effective, previous);
            }
        }

        @Override
        public void committed() {
            if (watermark != null) {
                watermark.committed();
            }
            if (alongside != null) {
                alongside.committed();
            }
        }

        @Override
        public void failed() {
            if (watermark != null) {
                watermark.failed();
            }
            if (alongside != null) {
                alongside.failed();
            }
        }
    }

    /**
     * Sends each key's net change to the table's change stream: the previous row out, the new
     * row in. Last step of staging, so a statement that fails a check emits nothing.
     */
    private void emitChanges(List<Change> settled, List<byte[]> previous) {
        Chunk.Builder chunk = new Chunk.Builder();
        for (int i = 0; i < settled.size(); i++) {
            Change c = settled.get(i);
            byte[] old = previous.get(i);
            if (old != null) {
                chunk.add(Op.DELETE, rowCodec.decode(old));
            }
            if (c.row() != null) {
                chunk.add(Op.INSERT, c.values() != null ? c.values().clone() : rowCodec.decode(c.row()));
            }
            if (chunk.isFull()) {
                streams.emit(table.id(), chunk.build());
            }
        }
        Chunk last = chunk.build();
        if (last != null) {
            streams.emit(table.id(), last);
        }
    }

    /** The 42809 error PostgreSQL gives for DML on a materialized view. */
    static TributaryException cannotChangeView(String name) {
        return new TributaryException(SqlState.WRONG_OBJECT_TYPE, "cannot change materialized view \"" + name + "\"");
    }

    /** The row's storage key, encoded after room for the key prefix and copied once. */
    private byte[] key(Object[] row) {
        keyWriter.reset();
        keyWriter.skip(TableKeys.PREFIX_LENGTH);
        KeyCodec.encode(keyWriter, pkTypes, row, table.primaryKey());
        return TableKeys.fillPrefix(table.id(), keyWriter.toByteArray());
    }

    /** 0A000 for a change other than an insert to a table with a watermark. */
    private void checkAppendOnly() {
        if (watermark != null) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "table \"" + table.name() + "\" has a watermark, so it is append-only:"
                            + " UPDATE, DELETE and INSERT ... ON CONFLICT are not supported on it");
        }
    }

    /** NOT NULL, then CHECK, PostgreSQL's order; 23502 or 23514. */
    private void checkRow(Object[] row) {
        checkNotNull(row);
        if (checks != null) {
            checks.check(row);
        }
    }

    private void checkNotNull(Object[] row) {
        List<ColumnDef> columns = table.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (row[i] == null && columns.get(i).notNull()) {
                throw new TributaryException(
                        SqlState.NOT_NULL_VIOLATION,
                        "null value in column \""
                                + columns.get(i).name() + "\" of relation \"" + table.name()
                                + "\" violates not-null constraint");
            }
        }
    }

    /** 23505 naming the key of {@code encodedRow}. */
    private TributaryException duplicate(byte[] encodedRow) {
        Object[] row = rowCodec.decode(encodedRow);
        StringJoiner names = new StringJoiner(", ");
        StringJoiner values = new StringJoiner(", ");
        for (int i : table.primaryKey()) {
            names.add(table.columns().get(i).name());
            values.add(String.valueOf(PgTextFormat.format(table.columns().get(i).type(), row[i])));
        }
        return new TributaryException(
                SqlState.UNIQUE_VIOLATION,
                "duplicate key value violates unique constraint \"" + table.name() + "_pkey\"",
                0,
                "Key (" + names + ")=(" + values + ") already exists.",
                null,
                null);
    }

    @Override
    public void close() {
        changes.clear();
        run = null;
    }
}
