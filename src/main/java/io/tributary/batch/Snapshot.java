package io.tributary.batch;

import io.tributary.catalog.TableDef;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A consistent read of the last committed epoch, shared by all scans of one statement so that a
 * query joining several tables sees them at the same epoch. Close it when the statement's cursor
 * closes. Thread-safe.
 */
public final class Snapshot implements AutoCloseable {
    private final ReadView view;

    Snapshot(ReadView view) {
        this.view = view;
    }

    /**
     * A snapshot reading {@code view}, which closes with it: how a transaction's statements read
     * its snapshot with its own writes laid over (an {@code OverlayReadView}).
     */
    public static Snapshot of(ReadView view) {
        return new Snapshot(view);
    }

    /** A scan over all rows of {@code table}; close it before closing the snapshot. */
    public TableScan scan(TableDef table) {
        return new TableScan(view, table);
    }

    /** A scan over the rows whose first primary-key column lies in {@code range}; close it before the snapshot. */
    public TableScan scan(TableDef table, KeyRange range) {
        return new TableScan(view, table, range);
    }

    /**
     * The row of {@code table} whose primary key is {@code pkValues} (canonical values in primary
     * key order), or null when there is none: one point read instead of a scan.
     */
    public Object[] lookup(TableDef table, Object[] pkValues) {
        ByteWriter key = new ByteWriter(32);
        List<DataType> types = table.primaryKeyTypes();
        for (int i = 0; i < pkValues.length; i++) {
            KeyCodec.encodeValue(key, types.get(i), pkValues[i]);
        }
        byte[] row = view.get(Keyspace.DATA, TableKeys.rowKey(table.id(), key.toByteArray()));
        return row == null ? null : new RowCodec(table.columnTypes()).decode(row);
    }

    /**
     * The rows of {@code table}, whose primary key is the one column, with the keys {@code keys}
     * (canonical values of that column's type), in the order a {@link #scan(TableDef, KeyRange)}
     * gives them (store key order: vnode, then key), absent keys left out: one batched point read.
     */
    public List<Object[]> lookupAll(TableDef table, List<?> keys) {
        DataType type = table.primaryKeyTypes().get(0);
        ByteWriter key = new ByteWriter(16);
        List<byte[]> storeKeys = new ArrayList<>(keys.size());
        for (Object k : keys) {
            key.reset();
            KeyCodec.encodeValue(key, type, k);
            storeKeys.add(TableKeys.rowKey(table.id(), key.toByteArray()));
        }
        storeKeys.sort(Arrays::compareUnsigned);
        RowCodec codec = new RowCodec(table.columnTypes());
        List<Object[]> rows = new ArrayList<>(storeKeys.size());
        for (byte[] row : view.getAll(Keyspace.DATA, storeKeys)) {
            if (row != null) {
                rows.add(codec.decode(row));
            }
        }
        return rows;
    }

    @Override
    public void close() {
        view.close();
    }
}
