package io.tributary.storage.rocksdb;

import io.tributary.storage.Keyspace;
import io.tributary.storage.WriteBuffer;
import org.rocksdb.DBOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WBWIRocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteBatchWithIndex;
import org.rocksdb.WriteOptions;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@code WriteBatchWithIndex} (native memory, so large loads do not weigh on the Java heap) plus
 * the range deletions, which the index cannot hold and which are applied first at commit.
 */
final class RocksWriteBuffer implements WriteBuffer {
    private final RocksStateStore store;
    private final WriteBatchWithIndex batch = new WriteBatchWithIndex(true);
    private final DBOptions dbOptions = new DBOptions();
    private final ReadOptions readOptions = new ReadOptions();
    private final List<RangeDelete> rangeDeletes = new ArrayList<>();

    private record RangeDelete(Keyspace keyspace, byte[] from, byte[] to) {
    }

    RocksWriteBuffer(RocksStateStore store) {
        this.store = store;
    }

    @Override
    public void put(Keyspace keyspace, byte[] key, byte[] value) {
        try {
            batch.put(store.handle(keyspace), key, value);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public void delete(Keyspace keyspace, byte[] key) {
        try {
            batch.delete(store.handle(keyspace), key);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public void deleteRange(Keyspace keyspace, byte[] from, byte[] toExclusive) {
        rangeDeletes.add(new RangeDelete(keyspace, from.clone(), toExclusive.clone()));
    }

    @Override
    public byte[] getBuffered(Keyspace keyspace, byte[] key) {
        try {
            return batch.getFromBatch(store.handle(keyspace), dbOptions, key);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public byte[] getThrough(Keyspace keyspace, byte[] key) {
        try {
            return batch.getFromBatchAndDB(store.db(), store.handle(keyspace), readOptions, key);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public void setSavePoint() {
        batch.setSavePoint();
    }

    @Override
    public void rollbackToSavePoint() {
        try {
            batch.rollbackToSavePoint();
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public void popSavePoint() {
        try {
            batch.popSavePoint();
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public void forEach(Keyspace keyspace, EntryVisitor visitor) {
        try (WBWIRocksIterator it = batch.newIterator(store.handle(keyspace))) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                WBWIRocksIterator.WriteEntry e = it.entry();
                byte[] key = bytes(e.getKey().data());
                switch (e.getType()) {
                    case PUT -> visitor.visit(key, bytes(e.getValue().data()));
                    case DELETE, SINGLE_DELETE -> visitor.visit(key, null);
                    default -> throw new IllegalStateException("unexpected write type " + e.getType());
                }
            }
        }
    }

    private static byte[] bytes(java.nio.ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    @Override
    public long size() {
        return batch.count() + rangeDeletes.size();
    }

    /** Writes everything in one atomic batch. */
    void writeTo(RocksDB db, WriteOptions options) {
        try {
            if (rangeDeletes.isEmpty()) {
                db.write(options, batch);
                return;
            }
            try (WriteBatch combined = new WriteBatch()) {
                for (RangeDelete r : rangeDeletes) {
                    combined.deleteRange(store.handle(r.keyspace()), r.from(), r.to());
                }
                for (Keyspace ks : Keyspace.values()) {
                    forEach(ks, (k, v) -> {
                        try {
                            if (v == null) {
                                combined.delete(store.handle(ks), k);
                            } else {
                                combined.put(store.handle(ks), k, v);
                            }
                        } catch (RocksDBException e) {
                            throw RocksStateStore.storageError(e);
                        }
                    });
                }
                db.write(options, combined);
            }
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public void close() {
        batch.close();
        dbOptions.close();
        readOptions.close();
    }
}
