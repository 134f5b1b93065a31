package io.tributary.stream.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.Epoch;
import io.tributary.common.types.DataType;
import io.tributary.storage.ChangeLogReader;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.storage.rocksdb.RocksStateStore;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The signal a kept change log gives its consumer ({@link StreamRuntime.LogKeeper#changedAt}): raised
 * after the commit of each epoch that logged rows of the keeper's relation, to that epoch, and for
 * no other epoch; the log holds the epoch when the signal names it.
 */
class LogKeeperSignalTest {
    private static final int T = 41;
    private static final int U = 42;
    private static final List<DataType> KEY = List.of(DataType.BIGINT);
    private static final List<DataType> ROW = List.of(DataType.BIGINT, DataType.BIGINT);

    @TempDir
    Path dir;

    private StateStore store;
    private StreamRuntime runtime;

    @BeforeEach
    void open() {
        store = RocksStateStore.open(dir.resolve("rocks"));
        runtime = new StreamRuntime(store, 1_000);
    }

    @AfterEach
    void close() {
        runtime.close();
        store.close();
    }

    /** Commits one epoch as the barrier manager does: barrier, synced write, then the listener. */
    private long commit(boolean tellListener) {
        long epoch = Epoch.next(store.committedEpoch(), System.currentTimeMillis());
        try (WriteBuffer buffer = store.newWriteBuffer()) {
            runtime.barrier(epoch, buffer);
            store.commit(epoch, buffer);
        }
        if (tellListener) {
            runtime.committed(epoch);
        }
        return epoch;
    }

    private static Chunk insert(long id) {
        return Chunk.of(Op.INSERT, new Object[] {id, id * 10});
    }

    @Test
    void raisedOnlyForEpochsThatLoggedTheKeepersRelation() {
        StreamRuntime.LogKeeper t = runtime.keepLog(T, false, new int[] {0}, KEY, ROW);
        StreamRuntime.LogKeeper t2 = runtime.keepLog(T, false, new int[] {0}, KEY, ROW);
        StreamRuntime.LogKeeper u = runtime.keepLog(U, false, new int[] {0}, KEY, ROW);
        AtomicInteger woken = new AtomicInteger();
        t.onChange(woken::incrementAndGet);

        long quiet = commit(true);
        assertEquals(0, t.changedAt());
        assertEquals(0, woken.get());

        runtime.emit(T, insert(1));
        long first = commit(true);
        // both consumers of T are told, though only one of them wrote the shared log
        assertEquals(first, t.changedAt());
        assertEquals(first, t2.changedAt());
        assertEquals(0, u.changedAt());
        assertEquals(1, woken.get());
        assertEquals(OptionalLong.of(first), nextLogged(T, quiet));

        // an insert and its delete within one epoch log nothing: no signal
        runtime.emit(T, insert(2));
        runtime.emit(T, Chunk.of(Op.DELETE, new Object[] {2L, 20L}));
        runtime.emit(U, insert(3));
        long second = commit(true);
        assertEquals(first, t.changedAt());
        assertEquals(second, u.changedAt());
        assertEquals(1, woken.get());
        assertEquals(OptionalLong.empty(), nextLogged(T, first));

        runtime.emit(T, insert(4));
        long third = commit(true);
        assertEquals(third, t.changedAt());
        assertEquals(2, woken.get());

        t.onChange(null);
        runtime.emit(T, insert(5));
        long fourth = commit(true);
        assertEquals(fourth, t.changedAt());
        assertEquals(2, woken.get());
    }

    @Test
    void anEpochCommittedWithoutTheListenerIsNotSignalledLater() {
        StreamRuntime.LogKeeper t = runtime.keepLog(T, false, new int[] {0}, KEY, ROW);
        runtime.emit(T, insert(1));
        commit(false);
        // the next epoch logs nothing of T: telling it must not announce the earlier one's rows
        long next = commit(true);
        assertEquals(0, t.changedAt());
        runtime.committed(next);
        assertEquals(0, t.changedAt());
    }

    private OptionalLong nextLogged(int relation, long after) {
        try (ReadView view = store.latest()) {
            return new ChangeLogReader(view).nextEpoch(relation, after);
        }
    }
}
