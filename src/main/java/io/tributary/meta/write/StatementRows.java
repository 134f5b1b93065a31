package io.tributary.meta.write;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.KeyValueRun;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A statement's settled changes to one table, as one change of an epoch: made by {@link
 * TableWriter#apply} on the statement's thread and staged under the barrier lock, where it checks
 * the new keys against the epoch and the committed rows, settles ON CONFLICT, writes, and emits
 * the rows' changes to the views that read the table; a check that fails stages nothing.
 */
final class StatementRows implements EpochChange {
    /**
     * What a statement's rows are written to and through, the same for all of a writer's
     * statements. {@code checks} plans the CHECKs of the tables a statement's ON DELETE actions
     * change, {@code defaults} the values SET DEFAULT gives them (both null: a writer whose tables
     * no constraint references, a source's).
     */
    record Target(
            RowRules rules,
            Catalog catalog,
            StreamRuntime streams,
            StateStore store,
            Watermarks.TableWatermark watermark,
            ProcTimeStamps stamps,
            TableChecks checks,
            ColumnDefaults defaults) {
        /** The target of the changes ON DELETE actions make to {@code table}: no watermark, no stamps. */
        Target of(TableDef table) {
            RowRules tableRules = new RowRules(table, table.watermark() != null);
            tableRules.checkRows(checks == null ? null : checks.of(table));
            return new Target(tableRules, catalog, streams, store, null, null, checks, defaults);
        }
    }

    /** A DO UPDATE resolved before staging to leave the stored row as it is. */
    private static final Object[] LEAVE = new Object[0];

    private final RowRules rules;
    private final TableDef table;
    private final Target target;
    /** The statement's ON CONFLICT action, or null; see {@link TableWriter#onConflict}. */
    private final TableWriter.ConflictAction conflict;
    /** With {@link #conflict}: its arbiter unique indexes, or null when it arbitrates on the primary key alone. */
    private final ConflictArbiters arbiters;
    /** With {@link #conflict}: whether it is DO UPDATE. */
    private final boolean conflictUpdates;
    /** See {@link TableWriter#onWritten}; null when none. */
    private final Consumer<List<Object[]>> writtenCheck;
    /** With {@link #conflict}: the rows the statement inserted or updated, once staged. */
    private List<Object[]> written;

    private List<TableWriter.Change> settled;
    /** The statement's rows when they were packed (then {@link #settled} is empty), else null. */
    private KeyValueRun run;

    private final EpochChange alongside;
    /**
     * For an UPDATE, the rows it moved to another primary key (see {@link TableWriter#updates});
     * null for any other statement.
     */
    private final List<ReferentialActions.KeyMove> moved;

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

    /**
     * After staging, for an ON CONFLICT statement: the rows it inserted or updated (full width);
     * null before and otherwise.
     */
    List<Object[]> written() {
        return written;
    }

    /**
     * @param stamped the epoch times the rows were stamped with (see {@link #restampIfMoved}), or null
     */
    StatementRows(
            Target target,
            TableWriter.ConflictAction conflict,
            ConflictArbiters arbiters,
            boolean conflictUpdates,
            Consumer<List<Object[]>> writtenCheck,
            List<TableWriter.Change> settled,
            KeyValueRun run,
            EpochChange alongside,
            List<ReferentialActions.KeyMove> moved,
            long maxTime,
            long minTime,
            long lateRows,
            ProcTimeStamps.Range stamped) {
        this.target = target;
        this.rules = target.rules();
        this.table = rules.table();
        this.conflict = conflict;
        this.arbiters = arbiters;
        this.conflictUpdates = conflictUpdates;
        this.writtenCheck = writtenCheck;
        this.stamped = stamped;
        this.run = run == null || run.size() == 0 ? null : run;
        this.alongside = alongside;
        this.moved = moved;
        this.maxTime = maxTime;
        this.minTime = minTime;
        this.lateRows = lateRows;
        index(settled);
    }

    private void index(List<TableWriter.Change> changes) {
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
     * between {@link TableWriter#insert} and {@link TableWriter#apply}): drops those too, so every row of an epoch is
     * judged by the watermark as of the epoch's start. Under the barrier lock; rare.
     */
    private void dropNewlyLate() {
        List<TableWriter.Change> kept = new ArrayList<>(settled.size());
        long max = Long.MIN_VALUE;
        for (TableWriter.Change c : settled) {
            Object time =
                    c.row() == null ? null : rules.valuesOf(c)[table.watermark().column()];
            if (time != null && target.watermark().isLate((Long) time)) {
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
        if (stamped == null || resolved != null || !target.stamps().moved(stamped)) {
            return;
        }
        if (run != null) {
            index(PackedRows.changesOf(run));
            run = null;
        }
        index(target.stamps().restamp(settled, rules::valuesOf, rules.codec(), rules.rowWriter()));
        stamped = null;
    }

    @Override
    public void stage(WriteBuffer epoch) {
        TableDef current = target.catalog().table(table.name()).orElse(null);
        if (current == null) {
            throw Catalog.undefinedTable(table.name());
        }
        if (current.columns() != table.columns() && !ColumnDef.sameShape(current.columns(), table.columns())) {
            // ALTER TABLE ... ADD or DROP COLUMN re-encoded the rows since this statement was planned
            throw new io.tributary.common.TributaryException(
                    io.tributary.common.SqlState.SERIALIZATION_FAILURE,
                    "could not serialize access: the columns of relation \"" + table.localName()
                            + "\" changed while the statement ran");
        }
        if (current.id() != table.id()) {
            throw Catalog.undefinedTable(table.name());
        }
        CheckConstraints.refuseAddedSince(table, current);
        restampIfMoved();
        // the indexes as of now: one created since the statement was planned is kept all the same
        IndexMaintenance indexes = current.indexes().isEmpty() ? null : new IndexMaintenance(current);
        if (conflict != null) {
            stageResolvingConflicts(epoch, indexes);
            return;
        }
        boolean foreign = ForeignKeyChecks.involves(target.catalog(), current);
        if (run != null && (indexes != null || foreign || target.streams().hasSubscribers(table.id()))) {
            // a view began reading the table since the statement did, or an index or a foreign key
            // was created: it needs the rows as changes
            index(PackedRows.changesOf(run));
            run = null;
        }
        if (run != null) {
            stagePacked(epoch);
            return;
        }
        if (target.watermark() != null && target.watermark().isLate(minTime)) {
            dropNewlyLate();
        }
        // When views read this table every changed key's current row is read once: it is both
        // the uniqueness check and the row the views must retract. Otherwise only the new keys
        // are checked, without fetching values. An insert into a table without a primary key
        // has a fresh row id for its key (see RowIdGenerator), so it has no current row and
        // needs no check: a source appending to such a table reads nothing back.
        boolean freshInserts = table.hasRowId();
        boolean emit = target.streams().hasSubscribers(table.id());
        List<byte[]> previous = emit || indexes != null || foreign ? previousRows(epoch, freshInserts) : null;
        boolean[] exists = previous != null || freshInserts ? null : epoch.existAll(Keyspace.DATA, newKeys);
        for (int k = 0; k < newKeys.size() && !freshInserts; k++) {
            int at = inserts[k];
            if (previous != null ? previous.get(at) != null : exists[k]) {
                throw rules.duplicate(settled.get(at).row());
            }
        }
        if (indexes != null) {
            indexes.apply(
                    bufferEntries(epoch),
                    settled.stream().map(TableWriter.Change::key).toList(),
                    previous,
                    settled.stream().map(TableWriter.Change::row).toList());
        }
        for (TableWriter.Change c : settled) {
            if (c.row() == null) {
                epoch.delete(Keyspace.DATA, c.key());
            } else {
                epoch.put(Keyspace.DATA, c.key(), c.row());
            }
        }
        EpochCascades cascades = null;
        if (foreign) {
            List<byte[]> now = settled.stream().map(TableWriter.Change::row).toList();
            cascades = new EpochCascades(epoch, target);
            cascades.apply(current, previous, now, moved);
            ForeignKeyChecks.check(
                    target.catalog(), ForeignKeyChecks.of(epoch, target.store()), current, previous, now);
        }
        if (alongside != null) {
            alongside.stage(epoch);
        }
        if (target.watermark() != null) {
            target.watermark().stage(epoch, maxTime, lateRows);
        }
        if (emit) {
            emitChanges(target, settled, previous);
        }
        if (cascades != null) {
            cascades.emit();
        }
    }

    /** The epoch's buffer as where index entries are checked and written. */
    static IndexMaintenance.Entries bufferEntries(WriteBuffer epoch) {
        return new IndexMaintenance.Entries() {
            @Override
            public boolean taken(byte[] key) {
                return epoch.exists(Keyspace.DATA, key);
            }

            @Override
            public void put(byte[] key, byte[] value) {
                epoch.put(Keyspace.DATA, key, value);
            }

            @Override
            public void delete(byte[] key) {
                epoch.delete(Keyspace.DATA, key);
            }
        };
    }

    /**
     * Each settled change's current row (null: none), in order. With {@code freshInserts} the
     * inserts' keys are fresh row ids, so only the other changes' keys are read.
     */
    private List<byte[]> previousRows(WriteBuffer epoch, boolean freshInserts) {
        if (!freshInserts) {
            return epoch.getAll(
                    Keyspace.DATA, settled.stream().map(TableWriter.Change::key).toList());
        }
        byte[][] out = new byte[settled.size()][];
        if (newKeys.size() < settled.size()) {
            List<byte[]> keys = new ArrayList<>(settled.size() - newKeys.size());
            for (TableWriter.Change c : settled) {
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
            throw rules.duplicate(run.value(existing));
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
        if (arbiters != null) {
            return; // which stored row a proposed one meets is known only under the lock
        }
        resolvedAgainst = new byte[settled.size()][];
        resolved = new Object[settled.size()][];
        try (ReadView committed = target.store().latest()) {
            for (int i = 0; i < settled.size(); i++) {
                byte[] old = committed.get(Keyspace.DATA, settled.get(i).key());
                if (old != null) {
                    Object[] replacement = conflict.resolve(rules.codec().decode(old), rules.valuesOf(settled.get(i)));
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
    private void stageResolvingConflicts(WriteBuffer epoch, IndexMaintenance indexes) {
        List<byte[]> ownKeys = settled.stream().map(TableWriter.Change::key).toList();
        // decoded once: the arbiters and the conflict action both read a proposed row's values
        List<Object[]> proposed =
                arbiters == null ? null : settled.stream().map(rules::valuesOf).toList();
        List<ConflictArbiters.Target> targets = arbiters == null ? null : arbiters.resolve(epoch, proposed, ownKeys);
        List<byte[]> lookups = ownKeys;
        if (targets != null) {
            lookups = new ArrayList<>(ownKeys.size());
            for (int i = 0; i < ownKeys.size(); i++) {
                ConflictArbiters.Target t = targets.get(i);
                lookups.add(t.kind() == ConflictArbiters.Kind.STORED ? t.rowKey() : ownKeys.get(i));
            }
        }
        List<byte[]> stored = epoch.getAll(Keyspace.DATA, lookups);
        java.util.Set<java.nio.ByteBuffer> met = targets == null ? null : new java.util.HashSet<>();
        // the keys this statement inserts, when the primary key is no arbiter and so its proposed
        // rows may repeat a key (TableWriter#apply leaves them unsettled)
        java.util.Set<java.nio.ByteBuffer> inserted =
                targets == null || arbiters.key() ? null : new java.util.HashSet<>();
        List<TableWriter.Change> effective = new ArrayList<>(settled.size());
        List<byte[]> previous = new ArrayList<>(settled.size());
        List<Object[]> rows = new ArrayList<>(settled.size());
        for (int i = 0; i < settled.size(); i++) {
            TableWriter.Change c = settled.get(i);
            byte[] old = stored.get(i);
            Object[] values = proposed != null ? proposed.get(i) : null;
            if (targets != null) {
                ConflictArbiters.Target t = targets.get(i);
                boolean twice =
                        t.kind() == ConflictArbiters.Kind.STORED && !met.add(java.nio.ByteBuffer.wrap(t.rowKey()));
                if (t.kind() == ConflictArbiters.Kind.PROPOSED || twice) {
                    // an earlier proposed row holds the values: PostgreSQL skips this one, or
                    // refuses to update one row twice
                    if (conflictUpdates) {
                        throw ChangeSettler.affectedTwice();
                    }
                    continue;
                }
                if (t.kind() == ConflictArbiters.Kind.NONE
                        && !arbiters.key()
                        && (old != null || !inserted.add(java.nio.ByteBuffer.wrap(c.key())))) {
                    // the primary key is no arbiter here: its violation, by a stored row or an
                    // earlier proposed one, is an error, as in PostgreSQL
                    throw rules.duplicate(c.row());
                }
                if (t.kind() == ConflictArbiters.Kind.STORED) {
                    c = new TableWriter.Change(t.rowKey(), c.row(), false, c.values());
                }
            }
            if (old == null) {
                effective.add(c);
            } else {
                Object[] replacement = resolved != null && Arrays.equals(old, resolvedAgainst[i])
                        ? resolved[i]
                        : conflict.resolve(rules.codec().decode(old), values != null ? values : rules.valuesOf(c));
                if (replacement == null || replacement == LEAVE) {
                    continue;
                }
                rules.checkRow(replacement);
                effective.add(new TableWriter.Change(c.key(), rules.codec().encode(replacement), false, replacement));
                values = replacement;
            }
            previous.add(old);
            rows.add(values != null ? values : rules.valuesOf(c));
        }
        written = rows;
        if (writtenCheck != null) {
            writtenCheck.accept(rows);
        }
        if (indexes != null) {
            indexes.apply(
                    bufferEntries(epoch),
                    effective.stream().map(TableWriter.Change::key).toList(),
                    previous,
                    effective.stream().map(TableWriter.Change::row).toList());
        }
        for (TableWriter.Change c : effective) {
            epoch.put(Keyspace.DATA, c.key(), c.row());
        }
        TableDef current = target.catalog().table(table.name()).orElse(table);
        EpochCascades cascades = null;
        if (ForeignKeyChecks.involves(target.catalog(), current)) {
            // DO UPDATE of a referenced UNIQUE column takes its ON UPDATE actions
            List<byte[]> now = effective.stream().map(TableWriter.Change::row).toList();
            cascades = new EpochCascades(epoch, target);
            cascades.apply(current, previous, now, null);
            ForeignKeyChecks.check(
                    target.catalog(), ForeignKeyChecks.of(epoch, target.store()), current, previous, now);
        }
        if (alongside != null) {
            alongside.stage(epoch);
        }
        if (target.streams().hasSubscribers(table.id())) {
            emitChanges(target, effective, previous);
        }
        if (cascades != null) {
            cascades.emit();
        }
    }

    @Override
    public void committed() {
        if (target.watermark() != null) {
            target.watermark().committed();
        }
        if (alongside != null) {
            alongside.committed();
        }
    }

    @Override
    public void failed() {
        if (target.watermark() != null) {
            target.watermark().failed();
        }
        if (alongside != null) {
            alongside.failed();
        }
    }

    /**
     * Sends each key's net change to the table's change stream: the previous row out, the new
     * row in. Last step of staging, so a statement (or transaction) that fails a check emits nothing.
     */
    static void emitChanges(Target target, List<TableWriter.Change> settled, List<byte[]> previous) {
        RowRules rules = target.rules();
        TableDef table = rules.table();
        Chunk.Builder chunk = new Chunk.Builder();
        for (int i = 0; i < settled.size(); i++) {
            TableWriter.Change c = settled.get(i);
            byte[] old = previous.get(i);
            if (old != null) {
                chunk.add(Op.DELETE, rules.codec().decode(old));
            }
            if (c.row() != null) {
                chunk.add(
                        Op.INSERT,
                        c.values() != null ? c.values().clone() : rules.codec().decode(c.row()));
            }
            if (chunk.isFull()) {
                target.streams().emit(table.id(), chunk.build());
            }
        }
        Chunk last = chunk.build();
        if (last != null) {
            target.streams().emit(table.id(), last);
        }
    }
}
