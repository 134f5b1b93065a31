package io.tributary.batch;

import io.tributary.catalog.TableDef;
import io.tributary.common.VirtualNodes;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Reads every row of a table as of the committed epoch of a {@link ReadView}, in (vnode, pk)
 * order, decoded to full-width rows of canonical values (hidden columns included). The caller owns
 * the view; the scan must be closed before it. One thread at a time.
 */
public final class TableScan implements Iterator<Object[]>, AutoCloseable {
    private final ReadView view;
    private final int tableId;
    /** Encoded bounds within each vnode, or null for the whole table in one iterator. */
    private final byte[] low;

    private final byte[] high;
    private final RowCodec codec;
    private KvIterator it;
    private int vnode;
    private Boolean hasNext;

    public TableScan(ReadView view, TableDef table) {
        this.view = view;
        this.tableId = table.id();
        this.low = null;
        this.high = null;
        this.it = view.scan(Keyspace.DATA, TableKeys.tableStart(table.id()), TableKeys.tableEnd(table.id()));
        this.codec = new RowCodec(table.columnTypes());
    }

    /**
     * The rows whose first primary-key column lies in {@code range}: one seek per vnode.
     */
    public TableScan(ReadView view, TableDef table, KeyRange range) {
        this.view = view;
        this.tableId = table.id();
        DataType first = table.primaryKeyTypes().get(0);
        this.low = range.low() == null ? new byte[0] : bound(first, range.low(), !range.lowInclusive());
        this.high = range.high() == null ? null : bound(first, range.high(), range.highInclusive());
        this.codec = new RowCodec(table.columnTypes());
        this.it = openVnode();
    }

    /** The encoding of {@code value}, or, {@code after} it, the first key past every key starting with it. */
    private static byte[] bound(DataType type, Object value, boolean after) {
        ByteWriter w = new ByteWriter(16);
        KeyCodec.encodeValue(w, type, value);
        byte[] b = w.toByteArray();
        return after ? TableKeys.prefixEnd(b) : b;
    }

    private KvIterator openVnode() {
        byte[] start = TableKeys.vnodeStart(tableId, vnode);
        byte[] from = concat(start, low);
        byte[] to = high == null ? TableKeys.vnodeEnd(tableId, vnode) : concat(start, high);
        return view.scan(Keyspace.DATA, from, to);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Override
    public boolean hasNext() {
        if (hasNext == null) {
            hasNext = it.next();
            while (!hasNext && low != null && vnode < VirtualNodes.COUNT - 1) {
                it.close();
                vnode++;
                it = openVnode();
                hasNext = it.next();
            }
        }
        return hasNext;
    }

    @Override
    public Object[] next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        hasNext = null;
        return codec.decode(it.value());
    }

    @Override
    public void close() {
        it.close();
    }
}
