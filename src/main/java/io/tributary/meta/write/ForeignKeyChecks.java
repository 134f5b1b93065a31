package io.tributary.meta.write;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ForeignKeyDef;
import io.tributary.catalog.IndexDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.storage.IndexKeys;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Consumer;

/**
 * The FOREIGN KEY checks of one table's changed rows, made once the rows are written where they are
 * read back ({@link Rows}): as a referencing table, every new row whose key has no NULL must find a
 * referenced row; as a referenced table, every key an old row held and no row holds any more must
 * be referenced by no row (PostgreSQL's NO ACTION and RESTRICT, checked at the statement's end).
 * For a statement or a transaction's commit the rows are the open epoch's view under the barrier
 * lock, the same lock every other writer checks under, so a referencing insert and a referenced
 * delete of two sessions are ordered and the second one sees the first (no orphan). For a
 * statement in a transaction block they are the block's view, and its commit checks again.
 * Made per check on the caller's thread.
 */
public final class ForeignKeyChecks {
    private ForeignKeyChecks() {}

    /** The rows after the changes so far, in the data keyspace. */
    interface Rows {
        /** The value of row or unique index entry {@code key}, or null. */
        byte[] get(byte[] key);

        /** Hands {@code action} every row of table {@code tableId}, encoded. */
        void forEachRow(int tableId, Consumer<byte[]> action);
    }

    /** The open epoch's rows: the committed state with the buffer's writes laid over it. */
    static Rows of(WriteBuffer epoch, StateStore store) {
        return new Rows() {
            @Override
            public byte[] get(byte[] key) {
                return epoch.get(Keyspace.DATA, key);
            }

            @Override
            public void forEachRow(int tableId, Consumer<byte[]> action) {
                byte[] start = TableKeys.tableStart(tableId);
                byte[] end = TableKeys.tableEnd(tableId);
                Map<ByteBuffer, byte[]> mine = new HashMap<>();
                epoch.forEachWritten(Keyspace.DATA, start, end, (k, v) -> mine.put(ByteBuffer.wrap(k), v));
                try (ReadView committed = store.latest();
                        KvIterator it = committed.scan(Keyspace.DATA, start, end)) {
                    while (it.next()) {
                        if (!mine.containsKey(ByteBuffer.wrap(it.key()))) {
                            action.accept(it.value());
                        }
                    }
                }
                for (byte[] v : mine.values()) {
                    if (v != null) {
                        action.accept(v);
                    }
                }
            }
        };
    }

    /** A read view's rows (a transaction block's overlay). */
    static Rows of(ReadView view) {
        return new Rows() {
            @Override
            public byte[] get(byte[] key) {
                return view.get(Keyspace.DATA, key);
            }

            @Override
            public void forEachRow(int tableId, Consumer<byte[]> action) {
                try (KvIterator it =
                        view.scan(Keyspace.DATA, TableKeys.tableStart(tableId), TableKeys.tableEnd(tableId))) {
                    while (it.next()) {
                        action.accept(it.value());
                    }
                }
            }
        };
    }

    /** Whether any FOREIGN KEY constraint involves {@code table}, as referencing or referenced table. */
    static boolean involves(Catalog catalog, TableDef table) {
        return !table.foreignKeys().isEmpty() || !referencing(catalog, table).isEmpty();
    }

    /** The tables with a constraint referencing {@code table}, as the catalog has them now. */
    static List<TableDef> referencing(Catalog catalog, TableDef table) {
        List<TableDef> out = new ArrayList<>();
        for (TableDef t : catalog.tables()) {
            for (ForeignKeyDef fk : t.foreignKeys()) {
                if (fk.parent().equals(table.name())) {
                    out.add(t);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Checks the changes {@code oldRows[i]} → {@code newRows[i]} (encoded, null: none) of {@code
     * table} (as the catalog has it now), already written to {@code rows}.
     *
     * @throws TributaryException 23503 as PostgreSQL words it, naming the first row that fails
     */
    static void check(Catalog catalog, Rows rows, TableDef table, List<byte[]> oldRows, List<byte[]> newRows) {
        RowCodec codec = new RowCodec(table.columnTypes());
        for (ForeignKeyDef fk : table.foreignKeys()) {
            TableDef parent = catalog.table(fk.parent()).orElse(null);
            if (parent == null) {
                continue; // dropped with CASCADE in this same epoch: the constraint goes with it
            }
            Reference ref = new Reference(table, fk, parent.name().equals(table.name()) ? table : parent);
            for (int i = 0; i < newRows.size(); i++) {
                byte[] now = newRows.get(i);
                if (now == null || oldRows.get(i) != null && Arrays.equals(oldRows.get(i), now)) {
                    continue;
                }
                Object[] row = codec.decode(now);
                if (oldRows.get(i) != null && ref.sameChildKey(codec.decode(oldRows.get(i)), row)) {
                    continue; // PostgreSQL checks an updated row only when its key changed
                }
                byte[] key = ref.lookupKeyOfChild(row);
                if (key != null && rows.get(key) == null && !changedSince(rows, table, codec, ref, row)) {
                    throw ref.notPresent(row);
                }
            }
        }
        for (TableDef child : referencing(catalog, table)) {
            for (ForeignKeyDef fk : child.foreignKeys()) {
                if (fk.parent().equals(table.name())) {
                    checkReferenced(rows, codec, new Reference(child, fk, table), oldRows, newRows);
                }
            }
        }
    }

    /**
     * Whether {@code row}, written by the statement, is no longer there as it was and its row now
     * references a present row or nothing: an ON UPDATE or ON DELETE action of the statement's own
     * changes rewrote or deleted it (a self reference, or tables cascading into each other). Read
     * only when {@code row}'s referenced row is missing, so a statement that passes reads nothing
     * more.
     */
    private static boolean changedSince(Rows rows, TableDef table, RowCodec codec, Reference ref, Object[] row) {
        byte[] now = rows.get(new RowRules(table, false).key(row));
        if (now == null) {
            return true;
        }
        byte[] key = ref.lookupKeyOfChild(codec.decode(now));
        return key == null || rows.get(key) != null;
    }

    /**
     * ALTER TABLE ... ADD FOREIGN KEY's test of the stored rows: every row of {@code table} (as
     * the state after {@code epoch} holds them) whose key has no NULL must find its referenced row.
     * Under the barrier lock, at an epoch boundary.
     *
     * @throws TributaryException 23503 as PostgreSQL words it, naming a row without one
     */
    public static void validate(
            Catalog catalog, StateStore store, WriteBuffer epoch, TableDef table, ForeignKeyDef constraint) {
        TableDef parent = constraint.parent().equals(table.name()) ? table : catalog.require(constraint.parent());
        Reference ref = new Reference(table, constraint, parent);
        RowCodec codec = new RowCodec(table.columnTypes());
        Rows rows = of(epoch, store);
        rows.forEachRow(table.id(), encoded -> {
            Object[] row = codec.decode(encoded);
            byte[] key = ref.lookupKeyOfChild(row);
            if (key != null && rows.get(key) == null) {
                throw ref.notPresent(row);
            }
        });
    }

    private static void checkReferenced(
            Rows rows, RowCodec codec, Reference ref, List<byte[]> oldRows, List<byte[]> newRows) {
        List<Object[]> goneRows = new ArrayList<>();
        List<ByteBuffer> goneKeys = new ArrayList<>();
        for (int i = 0; i < oldRows.size(); i++) {
            byte[] old = oldRows.get(i);
            if (old == null || newRows.get(i) != null && Arrays.equals(old, newRows.get(i))) {
                continue;
            }
            Object[] row = codec.decode(old);
            byte[] key = ref.lookupKeyOfParent(row);
            if (key != null && rows.get(key) == null) {
                goneRows.add(row);
                goneKeys.add(ByteBuffer.wrap(key));
            }
        }
        if (goneKeys.isEmpty()) {
            return;
        }
        Set<ByteBuffer> gone = new HashSet<>(goneKeys);
        Set<ByteBuffer> referenced = new HashSet<>();
        RowCodec childCodec = new RowCodec(ref.child.columnTypes());
        rows.forEachRow(ref.child.id(), encoded -> {
            byte[] key = ref.lookupKeyOfChild(childCodec.decode(encoded));
            if (key != null && gone.contains(ByteBuffer.wrap(key))) {
                referenced.add(ByteBuffer.wrap(key));
            }
        });
        for (int i = 0; i < goneKeys.size(); i++) {
            if (referenced.contains(goneKeys.get(i))) {
                throw ref.stillReferenced(goneRows.get(i));
            }
        }
    }

    /**
     * One constraint's columns on both sides and how a referenced key is looked up; also what
     * {@link ReferentialActions} finds the referencing rows of a key with. Made per check; not
     * shared between threads (it encodes keys in a scratch buffer).
     */
    static final class Reference {
        final TableDef child;
        final ForeignKeyDef fk;
        final TableDef parent;
        final int[] childColumns;
        final int[] parentColumns;
        /** The unique index whose entry is looked up, or null for the parent's primary key. */
        final IndexDef index;

        final int[] indexColumns;
        final List<DataType> indexTypes;
        final ByteWriter scratch = new ByteWriter(64);

        Reference(TableDef child, ForeignKeyDef fk, TableDef parent) {
            this.child = child;
            this.fk = fk;
            this.parent = parent;
            this.childColumns =
                    fk.columns().stream().mapToInt(child::columnIndex).toArray();
            this.parentColumns =
                    fk.parentColumns().stream().mapToInt(parent::columnIndex).toArray();
            Set<String> wanted = new HashSet<>(fk.parentColumns());
            List<String> pk = Arrays.stream(parent.primaryKey())
                    .mapToObj(c -> parent.columns().get(c).name())
                    .toList();
            IndexDef found = null;
            if (parent.hasRowId() || !wanted.equals(new HashSet<>(pk))) {
                for (IndexDef i : parent.indexes()) {
                    if (i.unique() && wanted.equals(new HashSet<>(i.columns()))) {
                        found = i;
                        break;
                    }
                }
            }
            this.index = found;
            this.indexColumns = found == null ? null : found.positionsIn(parent);
            this.indexTypes = found == null ? null : found.typesIn(parent);
        }

        boolean sameChildKey(Object[] a, Object[] b) {
            for (int c : childColumns) {
                if (!java.util.Objects.deepEquals(a[c], b[c])) {
                    return false;
                }
            }
            return true;
        }

        /** Whether referenced rows {@code a} and {@code b} hold the same referenced key. */
        boolean sameParentKey(Object[] a, Object[] b) {
            for (int c : parentColumns) {
                if (!java.util.Objects.deepEquals(a[c], b[c])) {
                    return false;
                }
            }
            return true;
        }

        /** The referenced key's 23505 for {@code parentRow}, whose key another row holds. */
        TributaryException duplicateKey(Object[] parentRow) {
            if (index != null) {
                return IndexMaintenance.violation(parent, index, parentRow);
            }
            return RowRules.duplicatePrimaryKey(parent, parentRow);
        }

        /** The referenced row's lookup key for a referencing row, or null when it references nothing (a NULL, MATCH SIMPLE). */
        byte[] lookupKeyOfChild(Object[] childRow) {
            Object[] parentRow = new Object[parent.columns().size()];
            for (int i = 0; i < childColumns.length; i++) {
                Object v = childRow[childColumns[i]];
                if (v == null) {
                    return null;
                }
                Object converted =
                        convert(v, parent.columns().get(parentColumns[i]).type());
                if (converted == null) {
                    return new byte[0]; // a value no referenced column can hold: never present
                }
                parentRow[parentColumns[i]] = converted;
            }
            return lookupKey(parentRow);
        }

        /** The lookup key of a referenced row's key, or null when it has a NULL in it. */
        byte[] lookupKeyOfParent(Object[] parentRow) {
            for (int c : parentColumns) {
                if (parentRow[c] == null) {
                    return null;
                }
            }
            return lookupKey(parentRow);
        }

        private byte[] lookupKey(Object[] parentRow) {
            if (index != null) {
                return IndexKeys.key(index.id(), indexTypes, parentRow, indexColumns, true, null, scratch);
            }
            scratch.reset();
            scratch.skip(TableKeys.PREFIX_LENGTH);
            KeyCodec.encode(scratch, parent.primaryKeyTypes(), parentRow, parent.primaryKey());
            return TableKeys.fillPrefix(parent.id(), scratch.toByteArray());
        }

        TributaryException notPresent(Object[] childRow) {
            return new TributaryException(
                    SqlState.FOREIGN_KEY_VIOLATION,
                    "insert or update on table \"" + child.localName() + "\" violates foreign key constraint \""
                            + fk.name() + "\"",
                    "Key " + keyText(child, childColumns, childRow) + " is not present in table \"" + parent.localName()
                            + "\".",
                    new TributaryException.ErrorObject(child.schema(), child.localName(), null, fk.name()));
        }

        TributaryException stillReferenced(Object[] parentRow) {
            return new TributaryException(
                    SqlState.FOREIGN_KEY_VIOLATION,
                    "update or delete on table \"" + parent.localName() + "\" violates foreign key constraint \""
                            + fk.name() + "\" on table \"" + child.localName() + "\"",
                    "Key " + keyText(parent, parentColumns, parentRow) + " is still referenced from table \""
                            + child.localName() + "\".",
                    new TributaryException.ErrorObject(child.schema(), child.localName(), null, fk.name()));
        }
    }

    /** {@code v} as a value of {@code type}, for the integer types and text; null when out of its range. */
    private static Object convert(Object v, DataType type) {
        if (!(v instanceof Number n) || v instanceof java.math.BigDecimal) {
            return v;
        }
        long x = n.longValue();
        return switch (type.kind()) {
            case SMALLINT -> x == (short) x ? (Object) (short) x : null;
            case INTEGER -> x == (int) x ? (Object) (int) x : null;
            case BIGINT -> x;
            default -> v;
        };
    }

    /** {@code (a, b)=(1, x)} as PostgreSQL's DETAIL shows a key. */
    private static String keyText(TableDef table, int[] columns, Object[] row) {
        StringJoiner names = new StringJoiner(", ");
        StringJoiner values = new StringJoiner(", ");
        for (int c : columns) {
            names.add(table.columns().get(c).name());
            values.add(
                    row[c] == null
                            ? "null"
                            : PgTextFormat.format(table.columns().get(c).type(), row[c]));
        }
        return "(" + names + ")=(" + values + ")";
    }
}
