package io.tributary.meta;

import io.tributary.storage.KeyValueRun;
import io.tributary.storage.Keyspace;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.StoreStats;
import io.tributary.storage.WriteBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * A worker's scratch store ({@link ScratchViewBuild}) that hands every atomic write touching
 * chosen tables to a listener before applying it: the puts and deletes of those tables, in the
 * order they were made, as one group. A backfill checkpoint is one such write (its operators' state
 * changes and its vnode positions together), so each group is the change from one consistent
 * state of the view's tables to the next, and replaying the groups in order rebuilds that state.
 * Everything else is passed through. The arrays are held as given, not copied (a checkpoint can
 * hold tens of megabytes on a worker with a small heap): the writers of the recorded tables, the
 * operators' state writes, hand over arrays they no longer change. Thread-safe as the store it
 * wraps.
 */
final class RecordingStateStore implements StateStore {
    /** Hears each group; throwing stops the write (the scratch build then fails). */
    @FunctionalInterface
    interface Listener {
        void written(List<byte[]> keys, List<byte[]> values);
    }

    private final StateStore store;
    private volatile IntPredicate recorded = table -> false;
    private volatile Listener listener;

    RecordingStateStore(StateStore store) {
        this.store = store;
    }

    /** From now on, hands the writes of tables {@code tables} accepts to {@code listener}. */
    void record(IntPredicate tables, Listener listener) {
        this.listener = listener;
        this.recorded = tables;
    }

    @Override
    public WriteBuffer newWriteBuffer() {
        return new RecordingBuffer(store.newWriteBuffer());
    }

    @Override
    public void commit(long epoch, WriteBuffer buffer) {
        store.commit(epoch, hand(buffer));
    }

    @Override
    public void write(WriteBuffer buffer) {
        store.write(hand(buffer));
    }

    private WriteBuffer hand(WriteBuffer buffer) {
        if (!(buffer instanceof RecordingBuffer b)) {
            return buffer;
        }
        if (!b.keys.isEmpty()) {
            listener.written(b.keys, b.values);
        }
        return b.inner;
    }

    private final class RecordingBuffer implements WriteBuffer {
        final WriteBuffer inner;
        final List<byte[]> keys = new ArrayList<>();
        final List<byte[]> values = new ArrayList<>();
        /** The recorded count at each open save point, innermost on top. */
        final java.util.ArrayDeque<Integer> savePoints = new java.util.ArrayDeque<>();

        RecordingBuffer(WriteBuffer inner) {
            this.inner = inner;
        }

        private boolean recorded(Keyspace keyspace, byte[] key) {
            return keyspace == Keyspace.DATA
                    && key.length >= 4
                    && recorded.test(ByteBuffer.wrap(key, 0, 4).getInt());
        }

        @Override
        public void put(Keyspace keyspace, byte[] key, byte[] value) {
            if (recorded(keyspace, key)) {
                keys.add(key);
                values.add(value);
            }
            inner.put(keyspace, key, value);
        }

        @Override
        public void delete(Keyspace keyspace, byte[] key) {
            if (recorded(keyspace, key)) {
                keys.add(key);
                values.add(null);
            }
            inner.delete(keyspace, key);
        }

        @Override
        public void putRun(Keyspace keyspace, KeyValueRun run) {
            // runs are the rows of DML into tables; the view's tables are written pair by pair
            if (recorded(keyspace, run.least())) {
                throw new IllegalStateException("a run of rows cannot be recorded for a checkpoint");
            }
            inner.putRun(keyspace, run);
        }

        @Override
        public int firstExisting(Keyspace keyspace, KeyValueRun run) {
            return inner.firstExisting(keyspace, run);
        }

        @Override
        public void deleteRange(Keyspace keyspace, byte[] from, byte[] toExclusive) {
            // a range removed from a recorded table (a finished job's positions) is not part of
            // any checkpoint's state: the next attempt's positions come from the groups before it
            inner.deleteRange(keyspace, from, toExclusive);
        }

        @Override
        public boolean exists(Keyspace keyspace, byte[] key) {
            return inner.exists(keyspace, key);
        }

        @Override
        public void forEachWritten(
                Keyspace keyspace,
                byte[] from,
                byte[] toExclusive,
                java.util.function.BiConsumer<byte[], byte[]> action) {
            inner.forEachWritten(keyspace, from, toExclusive, action);
        }

        @Override
        public boolean[] existAll(Keyspace keyspace, List<byte[]> keys) {
            return inner.existAll(keyspace, keys);
        }

        @Override
        public byte[] get(Keyspace keyspace, byte[] key) {
            return inner.get(keyspace, key);
        }

        @Override
        public List<byte[]> getAll(Keyspace keyspace, List<byte[]> keys) {
            return inner.getAll(keyspace, keys);
        }

        @Override
        public void setSavePoint() {
            savePoints.push(keys.size());
            inner.setSavePoint();
        }

        @Override
        public void rollbackToSavePoint() {
            int size = savePoints.pop();
            keys.subList(size, keys.size()).clear();
            values.subList(size, values.size()).clear();
            inner.rollbackToSavePoint();
        }

        @Override
        public void releaseSavePoint() {
            savePoints.pop();
            inner.releaseSavePoint();
        }

        @Override
        public long size() {
            return inner.size();
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    @Override
    public ReadView snapshot() {
        return store.snapshot();
    }

    @Override
    public ReadView latest() {
        return store.latest();
    }

    @Override
    public long committedEpoch() {
        return store.committedEpoch();
    }

    @Override
    public PinnedSnapshot pin(String name) {
        return store.pin(name);
    }

    @Override
    public void flushMemory() {
        store.flushMemory();
    }

    @Override
    public Optional<ReadView> openPinned(String name) {
        return store.openPinned(name);
    }

    @Override
    public void unpin(String name) {
        store.unpin(name);
    }

    @Override
    public List<String> pinned() {
        return store.pinned();
    }

    @Override
    public StoreStats stats() {
        return store.stats();
    }

    @Override
    public long approximateBytes(int tableId) {
        return store.approximateBytes(tableId);
    }

    @Override
    public void close() {
        store.close();
    }
}
