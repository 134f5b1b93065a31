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
import io.tributary.storage.Keyspace;
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
 * {@link #settle()}), settles each key's final change, checks primary-key uniqueness within the statement and, under the
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
    private final ByteWriter keyWriter = new ByteWriter(64);
    private final ByteWriter rowWriter = new ByteWriter(64);
    /**
     * Whether views read the table when the statement began: only then are the staged rows' values
     * kept for the change stream. A view created meanwhile gets them decoded from the encoded rows.
     * Not keeping them halves what a bulk load holds on the heap until it applies.
     */
    private final boolean keepValues;

    private List<Change> changes = new ArrayList<>();
    private long count;

    /**
     * One staged change; {@code row} null means delete. Insert means the key must not exist
     * already. {@code values} is the decoded {@code row} when it is kept for the table's change
     * stream, else null.
     */
    private record Change(byte[] key, byte[] row, boolean insert, Object[] values) {}

    /**
     * A writer bound to the parts it writes through; made by the database for each statement (and
     * by a source for each batch).
     */
    public TableWriter(
            TableDef table, RowIdGenerator rowIds, StreamRuntime streams, BarrierManager barriers, Catalog catalog) {
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
        this.keepValues = streams.hasSubscribers(table.id());
    }

    /**
     * Stages a new row (full width, canonical values of the column types; the hidden row id of a
     * table without primary key is filled in here).
     *
     * @throws TributaryException 23502 for NULL in a NOT NULL column
     */
    public void insert(Object[] row) {
        if (table.hasRowId()) {
            row[table.primaryKey()[0]] = rowIds.next();
        }
        checkNotNull(row);
        changes.add(new Change(key(row), rowCodec.encode(row, rowWriter), true, keepValues ? row : null));
        count++;
    }

    /** Stages the removal of an existing row. */
    public void delete(Object[] oldRow) {
        changes.add(new Change(key(oldRow), null, false, null));
        count++;
    }

    /**
     * Stages a replacement whose primary key is unchanged. An update that changes a key is a
     * {@link #delete} of the old row and an {@link #insert} of the new one; the inserts must come
     * after all of the statement's deletes, so keys may move between rows of one statement.
     */
    public void replace(Object[] newRow) {
        checkNotNull(newRow);
        changes.add(new Change(key(newRow), rowCodec.encode(newRow, rowWriter), false, keepValues ? newRow : null));
        count++;
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
        return apply(null);
    }

    /**
     * Like {@link #apply()}, and stages {@code alongside} in the same epoch: after the rows and
     * only if they pass their checks, and before any view sees them, so if it refuses, nothing of
     * the statement is applied or emitted (a source's position goes with the rows read up to it this
     * way). Its hooks run as the epoch's hooks. May be null.
     */
    public long apply(EpochChange alongside) {
        List<Change> settled = settle();
        changes = new ArrayList<>();
        return barriers.stage(new StatementRows(settled, alongside));
    }

    /** A statement's settled changes to the table, as one change of an epoch. */
    private final class StatementRows implements EpochChange {
        private final List<Change> settled;
        private final EpochChange alongside;
        /** Positions in {@code settled} of the changes whose keys must be new (the first {@code newKeys.size()}), and those keys. */
        private final int[] inserts;

        private final List<byte[]> newKeys;

        StatementRows(List<Change> settled, EpochChange alongside) {
            this.settled = settled;
            this.newKeys = new ArrayList<>(settled.size());
            this.alongside = alongside;
            this.inserts = new int[settled.size()];
            for (int i = 0; i < settled.size(); i++) {
                if (settled.get(i).insert()) {
                    inserts[newKeys.size()] = i;
                    newKeys.add(settled.get(i).key());
                }
            }
        }

        @Override
        public void stage(WriteBuffer epoch) {
            if (catalog.table(table.name()).map(t -> t.id() != table.id()).orElse(true)) {
                throw Catalog.undefinedTable(table.name());
            }
            // When views read this table every changed key's current row is read once: it is both
            // the uniqueness check and the row the views must retract. Otherwise only the new keys
            // are checked, without fetching values.
            List<byte[]> previous = streams.hasSubscribers(table.id())
                    ? epoch.getAll(
                            Keyspace.DATA, settled.stream().map(Change::key).toList())
                    : null;
            boolean[] exists = previous != null ? null : epoch.existAll(Keyspace.DATA, newKeys);
            for (int k = 0; k < newKeys.size(); k++) {
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
            if (previous != null) {
                emitChanges(settled, previous);
            }
        }

        @Override
        public void committed() {
            if (alongside != null) {
                alongside.committed();
            }
        }

        @Override
        public void failed() {
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

    /** Statements up to this many changes settle by sorting primitive (hash, position) pairs. */
    private static final int PACKED_LIMIT = 1 << 24;

    /**
     * One final change per key: the last change wins; an insert after a delete of the same key in
     * this statement replaces instead of requiring a new key; two inserts of one key are a
     * duplicate. Changes are grouped by sorting {@code hash << 24 | position} as primitive longs,
     * an order of magnitude cheaper than sorting the keys themselves; equal keys have equal
     * hashes, and the rare unequal keys sharing a hash are told apart by their bytes.
     */
    private List<Change> settle() {
        int n = changes.size();
        if (n >= PACKED_LIMIT) {
            List<Change> out = new ArrayList<>(n);
            Change[] sorted = changes.toArray(new Change[0]);
            Arrays.sort(sorted, (a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
            int i = 0;
            while (i < n) {
                int j = i;
                List<Change> group = new ArrayList<>();
                while (j < n && Arrays.equals(sorted[j].key(), sorted[i].key())) {
                    group.add(sorted[j++]);
                }
                out.add(settleKey(group));
                i = j;
            }
            return out;
        }
        long[] order = new long[n];
        for (int i = 0; i < n; i++) {
            order[i] = (hash40(changes.get(i).key()) << 24) | i;
        }
        Arrays.sort(order);
        if (distinctHashes(order)) {
            // every key changed once, so each change is final: the common bulk load keeps its list
            return changes;
        }
        List<Change> out = new ArrayList<>(n);
        int i = 0;
        while (i < n) {
            int j = i + 1;
            while (j < n && (order[j] >>> 24) == (order[i] >>> 24)) {
                j++;
            }
            if (j == i + 1) {
                // a key changed once is its own final change (what settleKey returns for it)
                out.add(changes.get((int) (order[i] & (PACKED_LIMIT - 1))));
            } else {
                settleSharedHash(order, i, j, out);
            }
            i = j;
        }
        return out;
    }

    /** Whether no two of the sorted {@code hash << 24 | position} entries share a hash. */
    private static boolean distinctHashes(long[] order) {
        for (int i = 1; i < order.length; i++) {
            if ((order[i] >>> 24) == (order[i - 1] >>> 24)) {
                return false;
            }
        }
        return true;
    }

    /** Changes at {@code order[from..to)} share a hash; group them by key, keeping statement order. */
    private void settleSharedHash(long[] order, int from, int to, List<Change> out) {
        List<Change> pending = new ArrayList<>();
        for (int k = from; k < to; k++) {
            pending.add(changes.get((int) (order[k] & (PACKED_LIMIT - 1))));
        }
        while (!pending.isEmpty()) {
            byte[] key = pending.get(0).key();
            List<Change> group = new ArrayList<>();
            pending.removeIf(c -> Arrays.equals(c.key(), key) && group.add(c));
            out.add(settleKey(group));
        }
    }

    /** The final change for one key's changes, given in statement order. */
    private Change settleKey(List<Change> group) {
        boolean deletedHere = false;
        boolean insertedHere = false;
        boolean requireNew = false;
        for (Change c : group) {
            if (c.row() == null) {
                deletedHere = true;
                insertedHere = false;
            } else if (c.insert()) {
                if (insertedHere) {
                    throw duplicate(c.row());
                }
                insertedHere = true;
                requireNew = !deletedHere;
            }
        }
        Change last = group.get(group.size() - 1);
        return last.row() == null || last.insert() == requireNew
                ? last
                : new Change(last.key(), last.row(), requireNew && last.insert(), last.values());
    }

    /** 40 well-mixed bits of a key (FNV-1a 64, then a finalizer). */
    private static long hash40(byte[] key) {
        long h = 0xcbf29ce484222325L;
        for (byte b : key) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h >>> 24;
    }

    /** The row's storage key, encoded after room for the key prefix and copied once. */
    private byte[] key(Object[] row) {
        keyWriter.reset();
        keyWriter.skip(TableKeys.PREFIX_LENGTH);
        KeyCodec.encode(keyWriter, pkTypes, row, table.primaryKey());
        return TableKeys.fillPrefix(table.id(), keyWriter.toByteArray());
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
    }
}
