package io.tributary.storage.rocksdb;

import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import java.util.List;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * A RocksDB snapshot, whose iterators keep seeing the same committed state; or, without a
 * snapshot, the latest state at each read (for a read-only pinned database that state never
 * changes).
 */
final class RocksReadView implements ReadView {
    /**
     * Keeps the database open while this view or one of its iterators is: a database closed under
     * a live iterator would be a native use-after-free. Each {@link #retain} is matched by one
     * {@link #release}.
     */
    interface Lease {
        void retain();

        void release();
    }

    private final RocksDB db;
    private final List<ColumnFamilyHandle> handles;
    private final Snapshot snapshot;
    private final ReadOptions readOptions;
    private final Lease lease;
    /** Whether the blocks a scan reads go into the block cache (see the constructor). */
    private final boolean scansFillCache;

    private boolean closed;

    /**
     * @param handles column family handles in {@link Keyspace} order
     * @param pinned whether to read one RocksDB snapshot taken now rather than the latest state
     * @param lease taken for the view and for each iterator; released on their close (null: none)
     * @param scansFillCache false for a view whose scans read each block once (a pinned state's bulk
     *     copies): their blocks are then freed as the iterator leaves them instead of filling the
     *     shared block cache, where they would evict the live store's blocks and never be hit (a
     *     pin is a database of its own, so its blocks are cached under keys of their own), and
     *     freed blocks' memory is reused rather than new pages faulted in and zeroed
     */
    RocksReadView(RocksDB db, List<ColumnFamilyHandle> handles, boolean pinned, Lease lease, boolean scansFillCache) {
        this.db = db;
        this.scansFillCache = scansFillCache;
        this.handles = handles;
        this.snapshot = pinned ? db.getSnapshot() : null;
        this.readOptions = pinned ? new ReadOptions().setSnapshot(snapshot) : new ReadOptions();
        this.lease = lease;
        if (lease != null) {
            lease.retain();
        }
    }

    @Override
    public byte[] get(Keyspace keyspace, byte[] key) {
        checkOpen();
        try {
            return db.get(handles.get(keyspace.ordinal()), readOptions, key);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    /** Keys per native batched read. */
    private static final int MULTI_GET_CHUNK = 4096;

    @Override
    public List<byte[]> getAll(Keyspace keyspace, List<byte[]> keys) {
        checkOpen();
        ColumnFamilyHandle cf = handles.get(keyspace.ordinal());
        List<byte[]> out = new java.util.ArrayList<>(keys.size());
        try {
            for (int from = 0; from < keys.size(); from += MULTI_GET_CHUNK) {
                List<byte[]> chunk = keys.subList(from, Math.min(keys.size(), from + MULTI_GET_CHUNK));
                out.addAll(db.multiGetAsList(readOptions, java.util.Collections.nCopies(chunk.size(), cf), chunk));
            }
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
        return out;
    }

    @Override
    public KvIterator scan(Keyspace keyspace, byte[] from, byte[] toExclusive) {
        checkOpen();
        Slice upper = new Slice(toExclusive);
        ReadOptions options = new ReadOptions()
                .setIterateUpperBound(upper)
                .setReadaheadSize(2 << 20)
                .setFillCache(scansFillCache);
        if (snapshot != null) {
            options.setSnapshot(snapshot);
        }
        if (lease != null) {
            lease.retain();
        }
        RocksIterator it = db.newIterator(handles.get(keyspace.ordinal()), options);
        it.seek(from);
        return new RocksKvIterator(it, options, upper, lease);
    }

    /** A released snapshot must never reach RocksDB: that would be a native use-after-free. */
    private synchronized void checkOpen() {
        if (closed) {
            throw new IllegalStateException("read view is closed");
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            readOptions.close();
            if (snapshot != null) {
                db.releaseSnapshot(snapshot);
            }
            if (lease != null) {
                lease.release();
            }
        }
    }

    private static final class RocksKvIterator implements KvIterator {
        private final RocksIterator it;
        private final ReadOptions options;
        private final Slice upper;
        private final Lease lease;
        private boolean started;
        private boolean closed;

        RocksKvIterator(RocksIterator it, ReadOptions options, Slice upper, Lease lease) {
            this.it = it;
            this.options = options;
            this.upper = upper;
            this.lease = lease;
        }

        @Override
        public boolean next() {
            if (started) {
                it.next();
            }
            started = true;
            return it.isValid();
        }

        @Override
        public byte[] key() {
            return it.key();
        }

        @Override
        public byte[] value() {
            return it.value();
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                it.close();
                options.close();
                upper.close();
                if (lease != null) {
                    lease.release();
                }
            }
        }
    }
}
