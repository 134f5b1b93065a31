package io.tributary.meta.write;

import io.tributary.catalog.IndexDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.storage.IndexKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

/**
 * Keeps a table's secondary indexes in step with a set of its row changes: each changed row's old
 * entries out, its new entries in, and a unique index's new entry refused (PostgreSQL's 23505)
 * when another row holds its values. All old entries go before any new one is checked, so the
 * check is per statement, as for the primary key: rows may swap values within one statement.
 * Made per staging (under the barrier lock) or per statement of a transaction block, on that
 * thread; see {@link StatementRows} and {@link TransactionWrites}.
 */
final class IndexMaintenance {
    /** Where entries are read and written: the epoch's buffer or a transaction's held rows. */
    interface Entries {
        /** Whether a row holds the unique entry {@code key} after the changes so far. */
        boolean taken(byte[] key);

        void put(byte[] key, byte[] value);

        void delete(byte[] key);
    }

    private final TableDef table;
    private final RowCodec codec;
    private final int[][] columns;
    private final List<List<DataType>> types;
    private final ByteWriter scratch = new ByteWriter(64);

    /** @param table the table as the catalog has it now (its indexes are the ones kept) */
    IndexMaintenance(TableDef table) {
        this.table = table;
        this.codec = new RowCodec(table.columnTypes());
        this.columns = new int[table.indexes().size()][];
        this.types = new ArrayList<>(columns.length);
        for (int i = 0; i < columns.length; i++) {
            IndexDef index = table.indexes().get(i);
            columns[i] = index.positionsIn(table);
            types.add(index.typesIn(table));
        }
    }

    /**
     * Applies the index side of row changes {@code rowKeys[i]}: {@code oldRows[i]} (encoded, null:
     * none) became {@code newRows[i]} (null: deleted).
     *
     * @throws TributaryException 23505 naming the unique index and the values another row holds
     */
    void apply(Entries entries, List<byte[]> rowKeys, List<byte[]> oldRows, List<byte[]> newRows) {
        int n = rowKeys.size();
        List<byte[]> putKeys = new ArrayList<>();
        List<byte[]> putValues = new ArrayList<>();
        List<Object[]> putRows = new ArrayList<>();
        List<Integer> putIndexes = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            byte[] old = oldRows.get(r);
            byte[] now = newRows.get(r);
            if (old == null && now == null || old != null && Arrays.equals(old, now)) {
                continue;
            }
            byte[] rowKey = rowKeys.get(r);
            Object[] oldValues = old == null ? null : codec.decode(old);
            Object[] newValues = now == null ? null : codec.decode(now);
            for (int i = 0; i < columns.length; i++) {
                IndexDef index = table.indexes().get(i);
                byte[] oldKey = oldValues == null ? null : entryKey(index, i, oldValues, rowKey);
                byte[] newKey = newValues == null ? null : entryKey(index, i, newValues, rowKey);
                if (oldKey != null && Arrays.equals(oldKey, newKey)) {
                    continue;
                }
                if (oldKey != null) {
                    entries.delete(oldKey);
                }
                if (newKey != null) {
                    putKeys.add(newKey);
                    putValues.add(IndexKeys.value(newValues, columns[i], index.unique(), rowKey));
                    putRows.add(newValues);
                    putIndexes.add(i);
                }
            }
        }
        for (int p = 0; p < putKeys.size(); p++) {
            int i = putIndexes.get(p);
            IndexDef index = table.indexes().get(i);
            if (index.unique() && !IndexKeys.hasNull(putRows.get(p), columns[i]) && entries.taken(putKeys.get(p))) {
                throw violation(table, index, putRows.get(p));
            }
            entries.put(putKeys.get(p), putValues.get(p));
        }
    }

    private byte[] entryKey(IndexDef index, int i, Object[] row, byte[] rowKey) {
        return IndexKeys.key(index.id(), types.get(i), row, columns[i], index.unique(), rowKey, scratch);
    }

    /** PostgreSQL's 23505 for {@code row}, whose values of unique {@code index} another row holds. */
    static TributaryException violation(TableDef table, IndexDef index, Object[] row) {
        return new TributaryException(
                SqlState.UNIQUE_VIOLATION,
                "duplicate key value violates unique constraint \"" + index.name() + "\"",
                "Key " + keyText(table, index, row) + " already exists.",
                new TributaryException.ErrorObject(table.schema(), table.localName(), null, index.name()));
    }

    /** {@code (a, b)=(1, x)} as PostgreSQL's DETAIL shows an index key. */
    static String keyText(TableDef table, IndexDef index, Object[] row) {
        StringJoiner names = new StringJoiner(", ");
        StringJoiner values = new StringJoiner(", ");
        for (String c : index.columns()) {
            int at = table.columnIndex(c);
            names.add(c);
            values.add(
                    row[at] == null
                            ? "null"
                            : PgTextFormat.format(table.columns().get(at).type(), row[at]));
        }
        return "(" + names + ")=(" + values + ")";
    }
}
