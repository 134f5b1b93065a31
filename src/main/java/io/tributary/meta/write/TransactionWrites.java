package io.tributary.meta.write;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.storage.Keyspace;
import io.tributary.storage.OverlayReadView;
import io.tributary.storage.ReadView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The writes of one open transaction block, held in its session until COMMIT: every changed key's
 * row as the transaction left it, and its row in the transaction's snapshot. Statements of the block
 * read through {@link #reads()} (the snapshot with these rows on top) and add their settled changes
 * with {@link TableWriter#applyTo}; {@link #commit} stages all of them as one change of one epoch.
 * Savepoints are marks in an undo log of the held rows (no copy of them per savepoint): while one
 * is set, each change records what it replaced, and {@link #rollbackTo} puts that back. Session
 * thread only; {@link #close} once, at COMMIT or ROLLBACK.
 */
public final class TransactionWrites implements AutoCloseable {
    /** The most rows (changed keys) any transaction may hold before its next statement fails with 54000. */
    public static final int MAX_ROWS = 1_000_000;
    /** The most bytes of keys and encoded rows one transaction may hold, likewise. */
    public static final long MAX_BYTES = 256L << 20;

    /** The snapshot taken at the block's first statement. */
    private final ReadView snapshot;
    /** Each changed key's row as the transaction left it ({@link OverlayReadView#DELETED}: gone). */
    private final TreeMap<byte[], byte[]> current = new TreeMap<>(Arrays::compareUnsigned);
    /** Per table id, what its rows are written through, and each changed key's row in the snapshot. */
    private final Map<Integer, TableWrites> tables = new LinkedHashMap<>();

    private long bytes;
    /** Views from {@link #reads} not closed yet, and whether {@link #close} ran: the snapshot closes after both. */
    private int readers;

    private boolean ended;
    /** This transaction's bound on rows, at most {@link #MAX_ROWS}. */
    private final int maxRows;

    /**
     * What a change replaced while a savepoint was set, newest last: undoing an entry puts back
     * the key's held row and snapshot row (null: the key had none). The rows are those already
     * held and counted in {@link #bytes}, so the log adds no copy of them.
     */
    private final List<Undo> undo = new ArrayList<>();
    /** Per savepoint, oldest first: the {@link #undo} size and {@link #bytes} when it was set. */
    private int[] markUndo = new int[4];

    private long[] markBytes = new long[4];
    /** How many savepoints are set; changes are logged only while there is one. */
    private int marks;

    /**
     * One table's part, or one of its indexes': its writer's target and the snapshot rows (index
     * entries) of its changed keys. {@code index} is null for the table's rows, whose part keeps
     * in {@code indexes} the indexes its statements' entries were held for (see {@link #merge}).
     */
    record TableWrites(
            StatementRows.Target target,
            TreeMap<byte[], byte[]> before,
            io.tributary.catalog.IndexDef index,
            List<io.tributary.catalog.IndexDef> indexes) {}

    /** One logged change: the table's {@code before} map, the key, and the key's rows before it. */
    private record Undo(TreeMap<byte[], byte[]> before, byte[] key, byte[] held, byte[] snapshotRow) {}

    /**
     * @param snapshot the committed state the block reads; closed by {@link #close}
     * @param maxRows the most rows the transaction may change, at most {@link #MAX_ROWS}
     */
    public TransactionWrites(ReadView snapshot, int maxRows) {
        this.snapshot = snapshot;
        this.maxRows = Math.min(maxRows, MAX_ROWS);
    }

    /**
     * The snapshot with the transaction's rows laid over it, for one statement; close it with the
     * statement. The snapshot stays open until the transaction and every such view are closed, so
     * a cursor still open at COMMIT never reads a released snapshot.
     */
    public ReadView reads() {
        readers++;
        return new OverlayReadView(snapshot, current, this::readerClosed);
    }

    private void readerClosed() {
        if (--readers == 0 && ended) {
            snapshot.close();
        }
    }

    /** Whether the transaction changed no row. */
    public boolean isEmpty() {
        return current.isEmpty();
    }

    /**
     * Adds one statement's settled changes (one per key), or none of them when one fails its check
     * (the error aborts the block anyway): an insert whose key the transaction sees, or that
     * another session committed since the snapshot, fails with 23505; an update or delete of a row
     * another session changed since the snapshot fails with 40001, as PostgreSQL's REPEATABLE READ
     * reports them at the statement. What others commit after the statement is checked at {@link
     * #commit}.
     *
     * The rows the statement's changes change through ON DELETE and ON UPDATE actions ({@link
     * ReferentialActions}) join the block the same way, as changes of their tables.
     *
     * @param keyMoves null for a statement that is not an UPDATE; for an UPDATE ({@link
     *     TableWriter#updates}), the rows it moved to another primary key, whose deletes no ON
     *     DELETE action acts on
     * @throws TributaryException 23505, 40001; 54000 past the transaction's rows or {@link #MAX_BYTES};
     *     54001 for actions cascading too deep ({@link ReferentialActions#MAX_DEPTH})
     */
    void merge(
            StatementRows.Target target, List<TableWriter.Change> settled, List<ReferentialActions.KeyMove> keyMoves) {
        merge(target, settled, keyMoves, 0);
    }

    /** {@link #merge}, of changes {@code depth} referencing tables deep in a cascade (0: the statement's own). */
    private void merge(
            StatementRows.Target target,
            List<TableWriter.Change> settled,
            List<ReferentialActions.KeyMove> keyMoves,
            int depth) {
        RowRules rules = target.rules();
        boolean freshInserts = rules.table().hasRowId();
        List<byte[]> unseen = new ArrayList<>();
        long added = 0;
        for (TableWriter.Change c : settled) {
            if (!current.containsKey(c.key()) && !(freshInserts && c.insert())) {
                unseen.add(c.key());
            }
            added += c.key().length + (c.row() == null ? 0 : c.row().length);
        }
        if (current.size() + (long) settled.size() > maxRows || bytes + added > MAX_BYTES) {
            throw new TributaryException(
                    SqlState.PROGRAM_LIMIT_EXCEEDED,
                    "transaction holds too many changed rows (at most " + maxRows + " rows or " + (MAX_BYTES >> 20)
                            + " MB until COMMIT)",
                    0,
                    null,
                    "Commit in smaller transactions (see transaction_max_rows), or load the rows outside a"
                            + " transaction block.",
                    null);
        }
        List<byte[]> inSnapshot = snapshot.getAll(Keyspace.DATA, unseen);
        List<byte[]> committed;
        try (ReadView latest = target.store().latest()) {
            committed = latest.getAll(Keyspace.DATA, unseen);
        }
        byte[][] was = new byte[settled.size()][];
        int next = 0;
        for (int i = 0; i < settled.size(); i++) {
            TableWriter.Change c = settled.get(i);
            byte[] own = current.get(c.key());
            boolean moved = false;
            if (own != null) {
                was[i] = own == OverlayReadView.DELETED ? null : own;
            } else if (!(freshInserts && c.insert())) {
                was[i] = inSnapshot.get(next);
                moved = !Arrays.equals(was[i], committed.get(next++));
            }
            if (c.insert() && (was[i] != null || moved)) {
                // a key another session committed since the snapshot: PostgreSQL's unique check sees it too
                throw rules.duplicate(c.row());
            }
            if (moved) {
                throw TransactionCommit.concurrentUpdate(rules.table(), committed.get(next - 1) == null);
            }
        }
        io.tributary.catalog.TableDef now = target.catalog()
                .table(rules.table().name())
                .filter(t -> t.id() == rules.table().id())
                .orElse(rules.table());
        TableWrites rowsPart = tables.computeIfAbsent(
                rules.table().id(),
                id -> new TableWrites(target, new TreeMap<>(Arrays::compareUnsigned), null, now.indexes()));
        if (!rowsPart.indexes().equals(now.indexes())) {
            throw indexesChanged(rules.table());
        }
        TreeMap<byte[], byte[]> before = rowsPart.before();
        List<byte[]> oldRows = new ArrayList<>(settled.size());
        for (int i = 0; i < settled.size(); i++) {
            TableWriter.Change c = settled.get(i);
            oldRows.add(was[i]);
            hold(before, c.key(), c.row(), was[i]);
        }
        bytes += added;
        if (!now.indexes().isEmpty()) {
            new IndexMaintenance(now)
                    .apply(
                            heldEntries(target, now),
                            settled.stream().map(TableWriter.Change::key).toList(),
                            oldRows,
                            settled.stream().map(TableWriter.Change::row).toList());
        }
        if (ForeignKeyChecks.involves(target.catalog(), now)) {
            // as PostgreSQL checks at the statement's end; the commit checks again against what
            // other sessions committed meanwhile
            List<byte[]> newRows = settled.stream().map(TableWriter.Change::row).toList();
            try (ReadView view = new OverlayReadView(snapshot, current, () -> {})) {
                ForeignKeyChecks.Rows rows = ForeignKeyChecks.of(view);
                // the rows the ON DELETE and ON UPDATE actions change join the transaction as
                // changes of their tables, which cascade further and are checked the same way
                ReferentialActions.apply(
                        target,
                        rows,
                        now,
                        oldRows,
                        newRows,
                        keyMoves,
                        depth,
                        c -> merge(target.of(c.child()), c.changes(), null, c.depth()));
                ForeignKeyChecks.check(target.catalog(), rows, now, oldRows, newRows);
            }
        }
    }

    /**
     * Holds {@code row} (null: deleted) as {@code key}'s row as the transaction leaves it, in the
     * part whose snapshot rows are {@code before}; {@code snapshotRow} is the key's row in the
     * snapshot (null: none), recorded the first time the transaction changes the key.
     */
    private void hold(TreeMap<byte[], byte[]> before, byte[] key, byte[] row, byte[] snapshotRow) {
        byte[] first = before.get(key);
        if (marks > 0) {
            undo.add(new Undo(before, key, current.get(key), first));
        }
        if (first == null) {
            first = snapshotRow == null ? OverlayReadView.DELETED : snapshotRow;
            before.put(key, first);
        }
        if (row == null && first == OverlayReadView.DELETED) {
            // inserted and deleted within the transaction: nothing to commit for this key
            before.remove(key);
            current.remove(key);
            return;
        }
        current.put(key, row == null ? OverlayReadView.DELETED : row);
    }

    /**
     * The transaction's held rows as where {@code table}'s index entries are checked and held: an
     * entry is taken when the transaction holds it, or when it is committed now and the
     * transaction did not delete it (another session's row counts, as PostgreSQL's unique check
     * sees committed rows whatever the snapshot).
     */
    private IndexMaintenance.Entries heldEntries(StatementRows.Target target, io.tributary.catalog.TableDef table) {
        return new IndexMaintenance.Entries() {
            @Override
            public boolean taken(byte[] key) {
                byte[] own = current.get(key);
                if (own != null) {
                    return own != OverlayReadView.DELETED;
                }
                try (ReadView latest = target.store().latest()) {
                    return latest.get(Keyspace.DATA, key) != null;
                }
            }

            @Override
            public void put(byte[] key, byte[] value) {
                hold(partOf(key), key, value, snapshotValue(key));
                bytes += key.length + value.length;
            }

            @Override
            public void delete(byte[] key) {
                hold(partOf(key), key, null, snapshotValue(key));
            }

            private byte[] snapshotValue(byte[] key) {
                return current.containsKey(key) ? null : snapshot.get(Keyspace.DATA, key);
            }

            private TreeMap<byte[], byte[]> partOf(byte[] key) {
                int id = (key[0] & 0xff) << 24 | (key[1] & 0xff) << 16 | (key[2] & 0xff) << 8 | key[3] & 0xff;
                io.tributary.catalog.IndexDef index = table.indexes().stream()
                        .filter(i -> i.id() == id)
                        .findFirst()
                        .orElseThrow();
                return tables.computeIfAbsent(
                                id,
                                x -> new TableWrites(target, new TreeMap<>(Arrays::compareUnsigned), index, List.of()))
                        .before();
            }
        };
    }

    /** 40001: an index of the table was created or dropped while the transaction wrote to it. */
    static TributaryException indexesChanged(io.tributary.catalog.TableDef table) {
        return new TributaryException(
                SqlState.SERIALIZATION_FAILURE,
                "could not serialize access: the indexes of relation \"" + table.localName()
                        + "\" changed while the transaction wrote to it");
    }

    /**
     * Sets a savepoint, the newest: {@link #rollbackTo} with the count of savepoints then set
     * (this one's number, from 1) undoes what the transaction changes after it.
     */
    public void savepoint() {
        if (marks == markUndo.length) {
            markUndo = Arrays.copyOf(markUndo, marks * 2);
            markBytes = Arrays.copyOf(markBytes, marks * 2);
        }
        markUndo[marks] = undo.size();
        markBytes[marks++] = bytes;
    }

    /**
     * ROLLBACK TO savepoint number {@code savepoint} (from 1, oldest first): the rows return to what
     * they were when it was set, the later savepoints go and it stays set.
     */
    public void rollbackTo(int savepoint) {
        int position = markUndo[savepoint - 1];
        for (int i = undo.size() - 1; i >= position; i--) {
            Undo u = undo.get(i);
            restore(current, u.key(), u.held());
            restore(u.before(), u.key(), u.snapshotRow());
        }
        undo.subList(position, undo.size()).clear();
        bytes = markBytes[savepoint - 1];
        marks = savepoint;
    }

    private static void restore(TreeMap<byte[], byte[]> rows, byte[] key, byte[] row) {
        if (row == null) {
            rows.remove(key);
        } else {
            rows.put(key, row);
        }
    }

    /**
     * RELEASE of savepoint number {@code savepoint}: it and every later one go, the changes stay.
     * With no savepoint left the undo log is dropped, as nothing can roll back to it.
     */
    public void release(int savepoint) {
        marks = savepoint - 1;
        if (marks == 0) {
            undo.clear();
        }
    }

    /**
     * Stages every row the transaction changed as one change of the open epoch (nothing when it
     * changed none); see {@link TransactionCommit} for the checks against rows committed meanwhile.
     *
     * @return the ticket to await for durability, or -1 when there was nothing to stage
     * @throws TributaryException 23505 or 40001 when another session committed a conflicting row
     */
    public long commit(BarrierManager barriers) {
        if (current.isEmpty()) {
            return -1;
        }
        List<TableWrites> changed = new ArrayList<>(tables.size());
        for (TableWrites t : tables.values()) {
            // a table whose changes were all undone (ROLLBACK TO, or rows inserted then deleted) has nothing to check
            if (!t.before().isEmpty()) {
                changed.add(t);
            }
        }
        return barriers.stage(new TransactionCommit(changed, current));
    }

    /**
     * Ends the transaction; its snapshot closes now, or when the last statement view closes. The
     * rows stay for a view still open (a cursor the client did not close) and go with it.
     */
    @Override
    public void close() {
        ended = true;
        tables.clear();
        if (readers == 0) {
            snapshot.close();
        }
    }
}
