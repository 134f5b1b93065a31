package io.tributary.meta.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.Epoch;
import io.tributary.common.VirtualNodes;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.storage.Keyspace;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.storage.rocksdb.RocksStateStore;
import io.tributary.stream.RowStream;
import io.tributary.stream.upstream.LocalUpstreamTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merged snapshot a sink's backfill reads, over a real RocksDB store: every row once, in one
 * ascending key order across vnodes; a resume after a merged position or after a position of the
 * older vnode-by-vnode order yields exactly the rows not yet delivered; the key ranges of a
 * parallel backfill cover every row once, and a range resumes within its bounds.
 */
class KeyOrderedSnapshotTest {
    private static final int REL = 50;
    private static final int ROWS = 3_000;
    private static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.TEXT);

    @TempDir
    Path dir;

    private StateStore store;
    private PinnedSnapshot pin;

    @BeforeEach
    void fill() {
        store = RocksStateStore.open(dir.resolve("state"));
        RowCodec codec = new RowCodec(TYPES);
        long epoch = Epoch.next(store.committedEpoch(), System.currentTimeMillis());
        try (WriteBuffer wb = store.newWriteBuffer()) {
            // negative keys too: the memcomparable order, not the vnode order, decides
            for (long id = -ROWS / 2; id < ROWS / 2; id++) {
                wb.put(Keyspace.DATA, TableKeys.rowKey(REL, pk(id)), codec.encode(new Object[] {id, "v" + id}));
            }
            store.commit(epoch, wb);
        }
        pin = store.pin("merged");
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void readsEveryRowOnceInKeyOrder() {
        List<Long> ids = read(KeyOrderedSnapshot.MERGED, null);
        assertEquals(ROWS, ids.size());
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(-ROWS / 2 + i, ids.get(i));
        }
    }

    @Test
    void resumesAfterAMergedPosition() {
        List<Long> ids = read(KeyOrderedSnapshot.MERGED, pk(123));
        assertEquals(ROWS / 2 - 124, ids.size());
        assertEquals(124L, ids.get(0));
        assertAscending(ids);
    }

    @Test
    void resumesAfterAVnodeByVnodePosition() {
        int vnode = VirtualNodes.COUNT / 2;
        // the older order delivered the vnodes below, and this one through its 5th key
        byte[] last;
        List<Long> delivered = new ArrayList<>();
        try (LocalUpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES)) {
            for (int v = 0; v < vnode; v++) {
                try (RowStream rows = upstream.snapshot(v, pin.epoch(), null)) {
                    while (rows.next()) {
                        delivered.add((Long) rows.row()[0]);
                    }
                }
            }
            try (RowStream rows = upstream.snapshot(vnode, pin.epoch(), null)) {
                for (int i = 0; i < 5; i++) {
                    assertTrue(rows.next());
                    delivered.add((Long) rows.row()[0]);
                }
                last = rows.pk();
            }
        }
        List<Long> rest = read(vnode, last);
        assertAscending(rest);
        assertEquals(ROWS, delivered.size() + rest.size());
        List<Long> all = new ArrayList<>(delivered);
        all.addAll(rest);
        assertEquals(ROWS, all.stream().distinct().count(), "no row twice");
    }

    @Test
    void parallelRangesCoverEveryRowOnceAndResumeThroughTheirPosition() {
        byte[][] cuts;
        try (LocalUpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES)) {
            assertEquals(0, KeyOrderedSnapshot.cuts(upstream, pin.epoch(), 3, ROWS).length, "too small to cut");
            cuts = KeyOrderedSnapshot.cuts(upstream, pin.epoch(), 3, 1);
        }
        assertEquals(2, cuts.length);
        RangedPosition position =
                RangedPosition.decode(RangedPosition.fresh(cuts).encode());
        List<Long> all = new ArrayList<>();
        for (int r = 0; r < position.ranges(); r++) {
            List<Long> range = read(KeyOrderedSnapshot.MERGED, position.after(r), position.upTo(r));
            assertAscending(range);
            assertTrue(range.size() > ROWS / 10, "range " + r + " holds about a third: " + range.size());
            all.addAll(range);
        }
        assertEquals(ROWS, all.size());
        assertAscending(all);

        // range 1 committed a chunk through its 10th key: it resumes after it, up to its bound
        List<Long> range1 = read(KeyOrderedSnapshot.MERGED, position.after(1), position.upTo(1));
        position.advance(1, pk(range1.get(9)), false);
        position = RangedPosition.decode(position.encode());
        assertEquals(
                range1.subList(10, range1.size()),
                read(KeyOrderedSnapshot.MERGED, position.after(1), position.upTo(1)));
        assertTrue(!position.allDone());
        for (int r = 0; r < position.ranges(); r++) {
            position.advance(r, null, true);
        }
        assertTrue(RangedPosition.decode(position.encode()).allDone());
    }

    private List<Long> read(int vnode, byte[] lastKey) {
        return read(vnode, lastKey, null);
    }

    private List<Long> read(int vnode, byte[] lastKey, byte[] upTo) {
        List<Long> ids = new ArrayList<>();
        try (LocalUpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES);
                KeyOrderedSnapshot rows = new KeyOrderedSnapshot(upstream, pin.epoch(), vnode, lastKey, upTo)) {
            byte[] previous = null;
            while (rows.next()) {
                assertTrue(previous == null || Arrays.compareUnsigned(previous, rows.pk()) < 0, "key order");
                previous = rows.pk();
                ids.add((Long) rows.row()[0]);
                assertTrue(rows.vnodesDone() < VirtualNodes.COUNT);
            }
            assertEquals(VirtualNodes.COUNT, rows.vnodesDone());
        }
        return ids;
    }

    private static void assertAscending(List<Long> ids) {
        for (int i = 1; i < ids.size(); i++) {
            assertTrue(ids.get(i - 1) < ids.get(i), "ascending at " + i);
        }
    }

    private static byte[] pk(long id) {
        ByteWriter w = new ByteWriter(16);
        KeyCodec.encodeValue(w, DataType.BIGINT, id);
        return w.toByteArray();
    }
}
