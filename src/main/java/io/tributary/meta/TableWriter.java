package io.tributary.meta;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.storage.Keyspace;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Collects one statement's changes to one table and applies them atomically to the open epoch.
 *
 * <p>Changes accumulate in a private buffer (native memory, so a bulk load does not strain the
 * heap); {@link #apply} then moves them into the epoch under the barrier lock, checking primary-key
 * uniqueness against the epoch and the committed rows. If any check fails nothing of the statement
 * is applied. One statement's thread only.
 */
public final class TableWriter implements AutoCloseable {
    /** Value prefix in the private buffer: the key must not exist when applied. */
    private static final byte MUST_BE_NEW = 1;
    /** Value prefix: the row replaces whatever is there. */
    private static final byte REPLACE = 0;

    private final TableDef table;
    private final RowCodec rowCodec;
    private final List<DataType> pkTypes;
    private final WriteBuffer staged;
    private final RowIdGenerator rowIds;
    private final Set<ByteBuffer> deletedKeys = new HashSet<>();
    private final ByteWriter keyWriter = new ByteWriter(64);
    private long count;

    public TableWriter(TableDef table, StateStore store, RowIdGenerator rowIds) {
        this.table = table;
        this.rowCodec = new RowCodec(table.columnTypes());
        this.pkTypes = table.primaryKeyTypes();
        this.staged = store.newWriteBuffer();
        this.rowIds = rowIds;
    }

    public TableDef table() {
        return table;
    }

    /**
     * Stages a new row (full width, canonical values of the column types; a hidden row id column
     * may be null and is filled in here).
     *
     * @throws TributaryException 23502 for NULL in a NOT NULL column, 23505 for a key this
     *     statement already inserted
     */
    public void insert(Object[] row) {
        if (table.hasRowId()) {
            row[table.primaryKey()[0]] = rowIds.next();
        }
        checkNotNull(row);
        byte[] key = key(row);
        if (staged.getBuffered(Keyspace.DATA, key) != null) {
            throw duplicate(row);
        }
        staged.put(Keyspace.DATA, key, withPrefix(deletedKeys.contains(ByteBuffer.wrap(key)) ? REPLACE : MUST_BE_NEW, row));
        count++;
    }

    /** Stages the removal of an existing row. */
    public void delete(Object[] oldRow) {
        byte[] key = key(oldRow);
        staged.delete(Keyspace.DATA, key);
        deletedKeys.add(ByteBuffer.wrap(key));
        count++;
    }

    /**
     * Stages a replacement whose primary key is unchanged. Rows whose key changes are staged as
     * {@link #delete} of every old row first, then {@link #insert} of every new row, so keys that
     * move between rows of one statement do not collide.
     */
    public void replace(Object[] newRow) {
        checkNotNull(newRow);
        staged.put(Keyspace.DATA, key(newRow), withPrefix(REPLACE, newRow));
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
     * @throws TributaryException 23505 when a new key exists already; nothing is applied then; 42P01
     *     when the table was dropped meanwhile
     */
    public long apply(BarrierManager barriers, CatalogService catalogService) {
        return barriers.stage(epoch -> {
            if (catalogService.catalog().table(table.name()).map(t -> t.id() != table.id()).orElse(true)) {
                throw CatalogService.undefinedTable(table.name());
            }
            staged.forEach(Keyspace.DATA, (key, value) -> {
                if (value == null) {
                    epoch.delete(Keyspace.DATA, key);
                    return;
                }
                byte[] row = new byte[value.length - 1];
                System.arraycopy(value, 1, row, 0, row.length);
                if (value[0] == MUST_BE_NEW && epoch.getThrough(Keyspace.DATA, key) != null) {
                    throw duplicate(rowCodec.decode(row));
                }
                epoch.put(Keyspace.DATA, key, row);
            });
        }, null);
    }

    private byte[] key(Object[] row) {
        keyWriter.reset();
        KeyCodec.encode(keyWriter, pkTypes, row, table.primaryKey());
        return TableKeys.rowKey(table.id(), keyWriter.toByteArray());
    }

    private byte[] withPrefix(byte prefix, Object[] row) {
        byte[] encoded = rowCodec.encode(row);
        byte[] out = new byte[encoded.length + 1];
        out[0] = prefix;
        System.arraycopy(encoded, 0, out, 1, encoded.length);
        return out;
    }

    private void checkNotNull(Object[] row) {
        List<ColumnDef> columns = table.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (row[i] == null && columns.get(i).notNull()) {
                throw new TributaryException(SqlState.NOT_NULL_VIOLATION, "null value in column \""
                        + columns.get(i).name() + "\" of relation \"" + table.name()
                        + "\" violates not-null constraint");
            }
        }
    }

    private TributaryException duplicate(Object[] row) {
        StringJoiner names = new StringJoiner(", ");
        StringJoiner values = new StringJoiner(", ");
        for (int i : table.primaryKey()) {
            names.add(table.columns().get(i).name());
            values.add(String.valueOf(PgTextFormat.format(table.columns().get(i).type(), row[i])));
        }
        return new TributaryException(SqlState.UNIQUE_VIOLATION,
                "duplicate key value violates unique constraint \"" + table.name() + "_pkey\"", 0,
                "Key (" + names + ")=(" + values + ") already exists.", null, null);
    }

    @Override
    public void close() {
        staged.close();
    }
}
