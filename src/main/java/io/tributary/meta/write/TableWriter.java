package io.tributary.meta.write;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.KeyValueRun;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
    private final RowRules rules;
    private final RowIdGenerator rowIds;
    private final BarrierManager barriers;
    /** What every statement's rows are staged to; see {@link StatementRows}. */
    private final StatementRows.Target target;
    /** The table's watermark, which drops late inserts; null when it has none. */
    private final Watermarks.TableWatermark watermark;

    private final int watermarkColumn;
    /** Fills the table's {@code AS PROCTIME()} columns. */
    private final ProcTimeStamps stamps;

    /**
     * Whether views read the table when the statement began: only then are the staged rows' values
     * kept for the change stream. A view created meanwhile gets them decoded from the encoded rows.
     * Not keeping them halves what a bulk load holds on the heap until it applies.
     */
    private final boolean keepValues;

    /**
     * For an UPDATE ({@link #updates}), the rows it moved to another primary key so far (see {@link
     * #move}): its deletes are these moves, on which no ON DELETE action acts, and the ON UPDATE
     * actions need to know which row became which. Null for any other statement.
     */
    private List<ReferentialActions.KeyMove> moved;

    /**
     * Whether {@link #move} keeps its rows: only when a constraint referencing the table has an
     * action when the UPDATE starts. Otherwise no one reads them (a constraint with an ON UPDATE
     * action added meanwhile meets the moved keys in the referenced-side check, 23503), and an
     * UPDATE moving a million keys would hold a million old rows until its epoch is staged.
     */
    private boolean recordsMoves;

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
    /** {@link #conflict}'s arbiter unique indexes; null when it arbitrates on the primary key alone. */
    private ConflictArbiters arbiters;
    /** The rows of the last statement applied, as staged; null before the first. */
    private StatementRows applied;
    /** With {@link #conflict}: sees {@link #written} while staging, before anything is written. */
    private java.util.function.Consumer<List<Object[]>> writtenCheck;
    /** With a watermark: the largest and smallest times of the rows staged so far, and how many were late. */
    private long maxTime = Long.MIN_VALUE;

    private long minTime = Long.MAX_VALUE;
    private long lateRows;

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
     *
     * @param checks the CHECK constraints of the database's tables: the table's rows are tested
     *     against them, and so are the rows its deletes' and updates' ON DELETE and ON UPDATE actions
     *     change; null for none
     * @param defaults the column defaults its ON DELETE and ON UPDATE SET DEFAULT actions write; null
     *     for a writer whose table no constraint references (a source's)
     */
    public TableWriter(
            TableDef table,
            RowIdGenerator rowIds,
            StreamRuntime streams,
            BarrierManager barriers,
            Catalog catalog,
            StateStore store,
            Watermarks watermarks,
            TableChecks checks,
            ColumnDefaults defaults) {
        if (table.isView()) {
            throw cannotChangeView(table.name());
        }
        this.table = table;
        this.barriers = barriers;
        this.rowIds = rowIds;
        this.keepValues = streams.hasSubscribers(table.id());
        this.watermark = watermarks.of(table);
        this.watermarkColumn =
                table.watermark() == null ? -1 : table.watermark().column();
        this.rules = new RowRules(table, watermark != null);
        // an index needs each row's change, not a packed run
        this.packable = !keepValues && watermark == null && table.indexes().isEmpty();
        this.stamps = new ProcTimeStamps(table, barriers);
        this.target = new StatementRows.Target(rules, catalog, streams, store, watermark, stamps, checks, defaults);
        rules.checkRows(checks == null ? null : checks.of(table));
        this.run = packable ? new PackedRows(table, rules.codec()) : null;
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
        rules.checkRow(row);
        if (run != null) {
            if (run.add(row)) {
                count++;
                return;
            }
            unpack();
        }
        stage(new Change(rules.key(row), rules.encode(row), true, keepValues ? row : null));
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
        rules.checkAppendOnly();
        unpack();
        stage(new Change(rules.key(oldRow), null, false, null));
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
     * Marks the statement an UPDATE: its rows that change their primary key come as {@link #move}s,
     * updates of the referenced key for FOREIGN KEY constraints rather than deletes, so the ON
     * UPDATE actions act on the referencing rows, not the ON DELETE ones. Call before staging.
     */
    public void updates() {
        this.moved = new ArrayList<>();
        this.recordsMoves = ReferentialActions.any(target.catalog(), table);
    }

    /**
     * For an UPDATE ({@link #updates}): stages the removal of {@code oldRow}, which the statement
     * moves to another primary key as {@code newRow}; the caller {@link #insert}s {@code newRow}
     * after all of the statement's deletes.
     *
     * @throws TributaryException 0A000 for a table with a watermark, which is append-only
     */
    public void move(Object[] oldRow, Object[] newRow) {
        delete(oldRow);
        if (recordsMoves) {
            moved.add(new ReferentialActions.KeyMove(oldRow, newRow));
        }
    }

    /**
     * Stages a replacement whose primary key is unchanged. An update that changes a key is a
     * {@link #delete} of the old row and an {@link #insert} of the new one; the inserts must come
     * after all of the statement's deletes, so keys may move between rows of one statement.
     */
    public void replace(Object[] newRow) {
        rules.checkAppendOnly();
        stamps.stamp(newRow);
        rules.checkRow(newRow);
        unpack();
        stage(new Change(rules.key(newRow), rules.encode(newRow), false, keepValues ? newRow : null));
    }

    /**
     * Makes this statement's inserts an INSERT ... ON CONFLICT: a proposed row whose key is stored
     * already goes to {@code action} instead of failing with 23505. Two proposed rows with one key
     * keep the first (DO NOTHING), or fail with 21000 when {@code updates} (DO UPDATE), as in
     * PostgreSQL; when the primary key is not among {@code arbiters}, a second proposed row of one
     * key that no arbiter skips is 23505 instead. Call before the first {@link #insert}; the
     * statement may only insert.
     *
     * @param arbiters the unique indexes a proposed row's values are looked up in, the stored row
     *     found being the one {@code action} gets; null to arbitrate on the primary key alone
     */
    public void onConflict(ConflictAction action, boolean updates, ConflictArbiters arbiters) {
        rules.checkAppendOnly();
        unpack();
        this.conflict = action;
        this.conflictUpdates = updates;
        this.arbiters = arbiters;
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
        return applied == null ? null : applied.written();
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
        // with a primary key that is no arbiter, two proposed rows of one key are settled under the
        // barrier lock, where the arbiters decide whether the second one is skipped or a 23505
        boolean keyArbitrates = conflict != null && (arbiters == null || arbiters.key());
        List<Change> settled = conflict != null && !keyArbitrates
                ? new ArrayList<>(changes)
                : new ChangeSettler(changes, conflict != null, conflictUpdates, rules::duplicate).settle(ascending);
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
        StatementRows rows = new StatementRows(
                target,
                conflict,
                arbiters,
                conflictUpdates,
                writtenCheck,
                settled,
                run == null ? null : run.take(),
                alongside,
                takeMoved(),
                maxTime,
                minTime,
                lateRows,
                stamps.take());
        applied = rows;
        run = packable && conflict == null ? (run == null ? new PackedRows(table, rules.codec()) : run) : null;
        maxTime = Long.MIN_VALUE;
        minTime = Long.MAX_VALUE;
        lateRows = 0;
        if (conflict != null && conflictUpdates) {
            rows.resolveCommitted();
        }
        return barriers.stage(rows);
    }

    /**
     * The ticket {@link #apply(TransactionWrites, List)} returns for rows a transaction holds: there
     * is nothing to await until its COMMIT.
     */
    public static final long HELD = -1;

    /**
     * Applies the staged changes: to the open epoch ({@link #apply(List)}) when {@code transaction}
     * is null, else into the transaction, which holds them until its COMMIT. The statement's
     * uniqueness checks then read the transaction's snapshot and own rows; {@code alongside} (sequence
     * positions) is staged at once all the same, since sequences are not transactional, as in
     * PostgreSQL.
     *
     * @return the ticket to await for durability, or {@link #HELD}
     * @throws TributaryException 0A000 for ON CONFLICT or a table with a watermark inside a transaction
     *     block; 23505 for a key that exists; 54000 when the transaction would hold too many rows
     */
    public long apply(TransactionWrites transaction, List<EpochChange> alongside) {
        if (transaction == null) {
            return apply(alongside);
        }
        if (conflict != null) {
            throw TributaryException.notSupported("INSERT ... ON CONFLICT inside a transaction block");
        }
        if (watermark != null) {
            throw TributaryException.notSupported(
                    "writing to a table with a watermark (\"" + table.localName() + "\") inside a transaction block");
        }
        unpack();
        List<Change> settled = new ChangeSettler(changes, false, false, rules::duplicate).settle(ascending);
        transaction.merge(target, settled, takeMoved());
        changes = new ArrayList<>();
        ascending = true;
        lastKey = null;
        stamps.take();
        run = packable ? new PackedRows(table, rules.codec()) : null;
        for (EpochChange change : alongside) {
            barriers.stage(change);
        }
        return HELD;
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

    /** The statement's {@link #moved} rows, leaving an empty list for the next statement of an UPDATE. */
    private List<ReferentialActions.KeyMove> takeMoved() {
        List<ReferentialActions.KeyMove> out = moved;
        if (moved != null) {
            moved = new ArrayList<>();
        }
        return out;
    }

    /** The 42809 error PostgreSQL gives for DML on a materialized view. */
    static TributaryException cannotChangeView(String name) {
        return new TributaryException(SqlState.WRONG_OBJECT_TYPE, "cannot change materialized view \"" + name + "\"");
    }

    @Override
    public void close() {
        changes.clear();
        run = null;
    }
}
