package io.tributary.storage.rocksdb;

import io.tributary.storage.Keyspace;
import io.tributary.storage.WriteBuffer;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A native {@code WriteBatch} (cheap appends, one atomic write at commit) plus a Java index of
 * which keys this buffer wrote and whether they exist after it, for uniqueness checks.
 * RocksDB's indexed batch was measured at over 5 µs per put and lookup; this costs a fraction.
 */
final class RocksWriteBuffer implements WriteBuffer {
    private static final int MULTI_GET_CHUNK = 4096;

    private final RocksStateStore store;
    private final WriteBatch batch = new WriteBatch();
    /**
     * Which keys this buffer wrote and whether they exist after it. Built lazily from
     * {@link #unindexed} on the first lookup: a bulk load whose epoch commits before anyone asks
     * never pays for indexing its rows.
     */
    private final Map<IndexKey, Boolean> written = new HashMap<>();
    private final List<Object[]> unindexed = new ArrayList<>();
    /** While a save point is set: where {@link #unindexed} stood, and index changes to undo. */
    private int savePointMark = -1;
    private List<Object[]> undo;

    RocksWriteBuffer(RocksStateStore store) {
        this.store = store;
    }

    /** A buffered key with its keyspace; hash cached because every key is hashed at least twice. */
    private static final class IndexKey {
        private final int keyspace;
        private final byte[] key;
        private final int hash;

        IndexKey(Keyspace keyspace, byte[] key) {
            this.keyspace = keyspace.ordinal();
            this.key = key;
            this.hash = Arrays.hashCode(key) * 31 + this.keyspace;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof IndexKey k && k.keyspace == keyspace && Arrays.equals(k.key, key);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    @Override
    public void put(Keyspace keyspace, byte[] key, byte[] value) {
        try {
            batch.put(store.handle(keyspace), key, value);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
        index(new IndexKey(keyspace, key), Boolean.TRUE);
    }

    private void index(IndexKey key, Boolean exists) {
        unindexed.add(new Object[] {key, exists});
    }

    /**
     * Moves pending index entries into the index. Under a save point, entries written after it
     * (from {@link #savePointMark} on) are remembered with the value they replaced, to undo them.
     */
    private void foldIndex() {
        for (int i = 0; i < unindexed.size(); i++) {
            Object[] e = unindexed.get(i);
            Boolean previous = written.put((IndexKey) e[0], (Boolean) e[1]);
            if (undo != null && i >= savePointMark) {
                undo.add(new Object[] {e[0], previous});
            }
        }
        unindexed.clear();
        if (undo != null) {
            savePointMark = 0;
        }
    }

    @Override
    public void setSavePoint() {
        if (undo != null) {
            throw new IllegalStateException("a save point is already set");
        }
        batch.setSavePoint();
        undo = new ArrayList<>();
        savePointMark = unindexed.size();
    }

    @Override
    public void rollbackToSavePoint() {
        try {
            batch.rollbackToSavePoint();
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        } finally {
            unindexed.subList(savePointMark, unindexed.size()).clear();
            for (int i = undo.size() - 1; i >= 0; i--) {
                IndexKey key = (IndexKey) undo.get(i)[0];
                Boolean previous = (Boolean) undo.get(i)[1];
                if (previous == null) {
                    written.remove(key);
                } else {
                    written.put(key, previous);
                }
            }
            undo = null;
            savePointMark = -1;
        }
    }

    @Override
    public void releaseSavePoint() {
        try {
            batch.popSavePoint();
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        } finally {
            undo = null;
            savePointMark = -1;
        }
    }

    @Override
    public void delete(Keyspace keyspace, byte[] key) {
        try {
            batch.delete(store.handle(keyspace), key);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
        index(new IndexKey(keyspace, key), Boolean.FALSE);
    }

    @Override
    public void deleteRange(Keyspace keyspace, byte[] from, byte[] toExclusive) {
        try {
            batch.deleteRange(store.handle(keyspace), from, toExclusive);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public boolean exists(Keyspace keyspace, byte[] key) {
        foldIndex();
        Boolean mine = written.get(new IndexKey(keyspace, key));
        if (mine != null) {
            return mine;
        }
        try {
            return store.db().get(store.handle(keyspace), key) != null;
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public boolean[] existAll(Keyspace keyspace, List<byte[]> keys) {
        foldIndex();
        boolean[] out = new boolean[keys.size()];
        List<Integer> unknown = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            Boolean mine = written.isEmpty() ? null : written.get(new IndexKey(keyspace, keys.get(i)));
            if (mine != null) {
                out[i] = mine;
            } else {
                unknown.add(i);
            }
        }
        ColumnFamilyHandle cf = store.handle(keyspace);
        try {
            for (int from = 0; from < unknown.size(); from += MULTI_GET_CHUNK) {
                List<Integer> chunk = unknown.subList(from, Math.min(unknown.size(), from + MULTI_GET_CHUNK));
                List<byte[]> chunkKeys = new ArrayList<>(chunk.size());
                List<ColumnFamilyHandle> handles = new ArrayList<>(chunk.size());
                for (int i : chunk) {
                    chunkKeys.add(keys.get(i));
                    handles.add(cf);
                }
                List<byte[]> values = store.db().multiGetAsList(handles, chunkKeys);
                for (int j = 0; j < chunk.size(); j++) {
                    out[chunk.get(j)] = values.get(j) != null;
                }
            }
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
        return out;
    }

    @Override
    public long size() {
        return batch.count();
    }

    void writeTo(RocksDB db, WriteOptions options) {
        try {
            db.write(options, batch);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public void close() {
        batch.close();
    }
}
