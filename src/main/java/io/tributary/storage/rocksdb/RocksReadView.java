package io.tributary.storage.rocksdb;

import io.tributary.storage.KvIterator;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * A RocksDB snapshot, whose iterators keep seeing the same committed state; or, without a
 * snapshot, the latest committed state at each read.
 */
final class RocksReadView implements ReadView {
    private final RocksStateStore store;
    private final Snapshot snapshot;
    private final ReadOptions readOptions;
    private boolean closed;

    RocksReadView(RocksStateStore store, boolean pinned) {
        this.store = store;
        this.snapshot = pinned ? store.db().getSnapshot() : null;
        this.readOptions = pinned ? new ReadOptions().setSnapshot(snapshot) : new ReadOptions();
    }

    @Override
    public byte[] get(Keyspace keyspace, byte[] key) {
        checkOpen();
        try {
            return store.db().get(store.handle(keyspace), readOptions, key);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public KvIterator scan(Keyspace keyspace, byte[] from, byte[] toExclusive) {
        checkOpen();
        Slice upper = new Slice(toExclusive);
        ReadOptions options = new ReadOptions().setIterateUpperBound(upper).setReadaheadSize(2 << 20);
        if (snapshot != null) {
            options.setSnapshot(snapshot);
        }
        RocksIterator it = store.db().newIterator(store.handle(keyspace), options);
        it.seek(from);
        return new RocksKvIterator(it, options, upper);
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
                store.db().releaseSnapshot(snapshot);
            }
        }
    }

    private static final class RocksKvIterator implements KvIterator {
        private final RocksIterator it;
        private final ReadOptions options;
        private final Slice upper;
        private boolean started;
        private boolean closed;

        RocksKvIterator(RocksIterator it, ReadOptions options, Slice upper) {
            this.it = it;
            this.options = options;
            this.upper = upper;
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
            }
        }
    }
}
