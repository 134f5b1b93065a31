package io.tributary.batch;

import io.tributary.catalog.TableDef;
import io.tributary.common.codec.RowCodec;
import io.tributary.storage.KvIterator;
import io.tributary.storage.Keyspace;
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
    private final KvIterator it;
    private final RowCodec codec;
    private Boolean hasNext;

    public TableScan(ReadView view, TableDef table) {
        this.it = view.scan(Keyspace.DATA, TableKeys.tableStart(table.id()), TableKeys.tableEnd(table.id()));
        this.codec = new RowCodec(table.columnTypes());
    }

    @Override
    public boolean hasNext() {
        if (hasNext == null) {
            hasNext = it.next();
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
