package io.tributary.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tributary.common.types.DataType;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.storage.rocksdb.RocksStateStore;
import io.tributary.stream.runtime.DataWrites;
import io.tributary.stream.runtime.EpochWrites;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three layers a state table reads, over a real RocksDB store: writes since the last flush,
 * the writes handed over at it (a backfill checkpoint the coordinator has not stored yet), and
 * committed state. Point reads and scans must merge all three, newest first, and never wait for
 * the handed-over writes to be stored: an actor reads on while its checkpoint is written.
 */
class StateTableTest {
    @TempDir
    Path dir;

    private StateStore store;
    private ReadView latest;
    private StateTable table;

    @BeforeEach
    void open() {
        store = RocksStateStore.open(dir.resolve("state"));
        latest = store.latest();
        // key (g, k) distributed by g; value v
        table = new StateTable(
                900, List.of(DataType.INTEGER, DataType.INTEGER), null, 1, List.of(DataType.INTEGER), latest);
    }

    @AfterEach
    void close() {
        latest.close();
        store.close();
    }

    @Test
    void handedOverWritesStayReadableUntilTheNextFlushWithoutWaiting() {
        // committed: (1,1)=10, (1,2)=20, (1,3)=30
        table.put(new Object[] {1, 1}, new Object[] {10});
        table.put(new Object[] {1, 2}, new Object[] {20});
        table.put(new Object[] {1, 3}, new Object[] {30});
        store(table);

        // handed over, never stored in this test: (1,2) deleted, (1,4)=40, (1,1)=11
        table.delete(new Object[] {1, 2});
        table.put(new Object[] {1, 4}, new Object[] {40});
        table.put(new Object[] {1, 1}, new Object[] {11});
        EpochWrites checkpoint = new EpochWrites();
        assertEquals(3, table.flush(checkpoint));

        // pending over them: (1,4) deleted again, (1,2)=22 back, (1,5)=50
        table.delete(new Object[] {1, 4});
        table.put(new Object[] {1, 2}, new Object[] {22});
        table.put(new Object[] {1, 5}, new Object[] {50});

        assertArrayEquals(new Object[] {11}, table.get(new Object[] {1, 1}));
        assertArrayEquals(new Object[] {22}, table.get(new Object[] {1, 2}));
        assertArrayEquals(new Object[] {30}, table.get(new Object[] {1, 3}));
        assertNull(table.get(new Object[] {1, 4}));
        assertEquals(List.of(11, 22, 30, 50), values(table.scan(new Object[] {1})));
        assertEquals(List.of(22, 30, 50), values(table.scanFrom(new Object[] {1, 2})));
        Object[][] all = table.getAll(List.of(new Object[] {1, 1}, new Object[] {1, 3}, new Object[] {1, 4}));
        assertArrayEquals(new Object[] {11}, all[0]);
        assertArrayEquals(new Object[] {30}, all[1]);
        assertNull(all[2]);
    }

    @Test
    void aScanBeforeTheFlushSortsTheWritesOnceForBothLayers() {
        table.put(new Object[] {2, 1}, new Object[] {1});
        table.put(new Object[] {2, 3}, new Object[] {3});
        // the scan sorts the pending writes; the flush keeps that order for the handed-over layer
        assertEquals(List.of(1, 3), values(table.scan(new Object[] {2})));
        table.put(new Object[] {2, 2}, new Object[] {2});
        table.flush(new EpochWrites());
        table.put(new Object[] {2, 4}, new Object[] {4});
        assertEquals(List.of(1, 2, 3, 4), values(table.scan(new Object[] {2})));
        // other distribution keys see nothing of them
        assertEquals(List.of(), values(table.scan(new Object[] {3})));
    }

    @Test
    void theNextFlushDropsTheStoredLayer() {
        table.put(new Object[] {1, 1}, new Object[] {10});
        EpochWrites first = new EpochWrites();
        table.flush(first);
        // the caller stores the first checkpoint before it flushes again
        try (WriteBuffer buffer = store.newWriteBuffer()) {
            first.replay(new DataWrites(buffer));
            store.write(buffer);
        }
        table.delete(new Object[] {1, 1});
        table.flush(new EpochWrites());
        // the delete is handed over, not stored: it still shadows the committed row
        assertNull(table.get(new Object[] {1, 1}));
        assertEquals(List.of(), values(table.scan(new Object[] {1})));
        // an empty flush drops the layer; only what was stored remains
        table.flush(new EpochWrites());
        assertArrayEquals(new Object[] {10}, table.get(new Object[] {1, 1}));
    }

    /**
     * Writes in key order are held as a run and handed over sorted; the same writes through the
     * hash map (a table that was read, so it never appends) must store exactly the same bytes.
     * Random epochs: ascending stretches with repeated keys, deletes and keys out of order mixed
     * in, so both the run, its move into the map mid-epoch, and the map are exercised.
     */
    @Test
    void writesInKeyOrderStoreTheSameBytesAsThroughTheHashMap() {
        StateTable appended = new StateTable(
                901, List.of(DataType.INTEGER, DataType.INTEGER), null, 2, List.of(DataType.INTEGER), latest);
        StateTable hashed = new StateTable(
                902, List.of(DataType.INTEGER, DataType.INTEGER), null, 2, List.of(DataType.INTEGER), latest);
        // a read through the pending writes: from then on that table keeps them in its hash map
        hashed.get(new Object[] {0, 0});
        java.util.Random random = new java.util.Random(11);
        int sortedEpochs = 0;
        for (int epoch = 0; epoch < 40; epoch++) {
            // as a backfill reads them: vnode after vnode, each in key order
            List<Object[]> keys = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                keys.add(new Object[] {random.nextInt(8), random.nextInt(200)});
            }
            keys.sort((x, y) -> java.util.Arrays.compareUnsigned(appended.storeKey(x), appended.storeKey(y)));
            // every third epoch strictly in key order; the others repeat keys and write one out of order
            boolean inOrder = epoch % 3 == 0;
            int outOfOrder = inOrder ? -1 : random.nextInt(400);
            int at = 0;
            for (int i = 0; i < 400 && at < keys.size(); i++) {
                Object[] k = i == outOfOrder ? new Object[] {random.nextInt(8), random.nextInt(200)} : keys.get(at);
                at += !inOrder && random.nextInt(5) == 0 ? 0 : 1;
                while (inOrder && at < keys.size() && java.util.Arrays.equals(k, keys.get(at))) {
                    // the same key twice in a row is not strictly ascending
                    at++;
                }
                if (random.nextInt(8) == 0) {
                    appended.delete(k);
                    hashed.delete(k);
                } else {
                    Object[] v = {random.nextInt(1000)};
                    appended.put(k, v);
                    hashed.put(k, v);
                }
            }
            RecordedWrites a = new RecordedWrites();
            RecordedWrites h = new RecordedWrites();
            assertEquals(hashed.pendingCount(), appended.pendingCount());
            assertEquals(hashed.flush(h), appended.flush(a));
            sortedEpochs += a.ascending() ? 1 : 0;
            try (WriteBuffer buffer = store.newWriteBuffer()) {
                a.writes.replay(new DataWrites(buffer));
                h.writes.replay(new DataWrites(buffer));
                store.write(buffer);
            }
        }
        assertEquals(14, sortedEpochs, "epochs handed over in key order");
        List<String> a = storedWithoutTableId(901);
        assertEquals(true, a.size() > 100, "rows stored: " + a.size());
        assertEquals(storedWithoutTableId(902), a);
        // and the last epoch's writes read back the same before the next flush
        for (int g = 0; g < 8; g++) {
            for (int k = 0; k < 200; k++) {
                Object[] key = {g, k};
                assertEquals(values(hashed.scan(key)), values(appended.scan(key)));
            }
        }
    }

    /**
     * A live view of a table without a primary key gets its rows in row-id order, whose vnodes are
     * spread: those writes stay a run too (their keys ascend after the vnode), and must store and
     * read exactly as through the hash map. Random epochs: ascending row ids with gaps, some
     * epochs with a row id written again or one lower (which ends the run mid-epoch), deletes
     * mixed in.
     */
    @Test
    void writesInRowIdOrderAcrossVnodesStoreTheSameBytesAsThroughTheHashMap() {
        StateTable appended = new StateTable(903, List.of(DataType.BIGINT), null, 1, List.of(DataType.BIGINT), latest);
        StateTable hashed = new StateTable(904, List.of(DataType.BIGINT), null, 1, List.of(DataType.BIGINT), latest);
        hashed.get(new Object[] {0L});
        java.util.Random random = new java.util.Random(12);
        long rowId = 0;
        int runEpochs = 0;
        for (int epoch = 0; epoch < 30; epoch++) {
            boolean inOrder = epoch % 2 == 0;
            int back = inOrder ? -1 : random.nextInt(300);
            for (int i = 0; i < 300; i++) {
                long id = i == back ? rowId - random.nextInt(3) : ++rowId + random.nextInt(3);
                rowId = Math.max(rowId, id);
                Object[] k = {id};
                if (random.nextInt(10) == 0) {
                    appended.delete(k);
                    hashed.delete(k);
                } else {
                    Object[] v = {(long) random.nextInt(1000)};
                    appended.put(k, v);
                    hashed.put(k, v);
                }
            }
            assertEquals(hashed.pendingCount(), appended.pendingCount());
            RecordedWrites a = new RecordedWrites();
            RecordedWrites h = new RecordedWrites();
            assertEquals(hashed.flush(h), appended.flush(a));
            // a run hands its writes over in arrival order, which is row-id order here
            runEpochs += inOrder && inRowIdOrder(a) ? 1 : 0;
            try (WriteBuffer buffer = store.newWriteBuffer()) {
                a.writes.replay(new DataWrites(buffer));
                h.writes.replay(new DataWrites(buffer));
                store.write(buffer);
            }
        }
        assertEquals(15, runEpochs, "in-order epochs handed over as a run");
        List<String> a = storedWithoutTableId(903);
        assertEquals(true, a.size() > 1000, "rows stored: " + a.size());
        assertEquals(storedWithoutTableId(904), a);
        for (long id = 0; id <= rowId; id++) {
            Object[] key = {id};
            Object[] h = hashed.get(key);
            Object[] got = appended.get(key);
            assertEquals(h == null ? null : List.of(h), got == null ? null : List.of(got));
        }
    }

    /**
     * A join side's table appends its writes in any order ({@link StateTable#appendUnordered}),
     * repeated keys included, until a read moves them into the hash map: it must store the same
     * bytes and read the same rows, before and after each flush, as a table that hashes every
     * write. Random epochs: keys in random order with repeats and deletes; some epochs read (a scan
     * or a point read) at a random point, some not at all.
     */
    @Test
    void writesAppendedInAnyOrderStoreAndReadAsThroughTheHashMap() {
        StateTable appended = new StateTable(
                905, List.of(DataType.INTEGER, DataType.INTEGER), null, 1, List.of(DataType.INTEGER), latest);
        appended.appendUnordered();
        StateTable hashed = new StateTable(
                906, List.of(DataType.INTEGER, DataType.INTEGER), null, 1, List.of(DataType.INTEGER), latest);
        hashed.get(new Object[] {0, 0});
        java.util.Random random = new java.util.Random(13);
        int unreadEpochs = 0;
        for (int epoch = 0; epoch < 40; epoch++) {
            int readAt = epoch % 3 == 0 ? -1 : random.nextInt(300);
            unreadEpochs += readAt < 0 ? 1 : 0;
            for (int i = 0; i < 300; i++) {
                if (i == readAt) {
                    Object[] prefix = {random.nextInt(6)};
                    assertEquals(values(hashed.scan(prefix)), values(appended.scan(prefix)));
                    Object[] key = {random.nextInt(6), random.nextInt(60)};
                    Object[] h = hashed.get(key);
                    Object[] a = appended.get(key);
                    assertEquals(h == null ? null : List.of(h), a == null ? null : List.of(a));
                }
                Object[] k = {random.nextInt(6), random.nextInt(60)};
                if (random.nextInt(6) == 0) {
                    appended.delete(k);
                    hashed.delete(k);
                } else {
                    Object[] v = {random.nextInt(1000)};
                    appended.put(k, v);
                    hashed.put(k, v);
                }
            }
            RecordedWrites a = new RecordedWrites();
            RecordedWrites h = new RecordedWrites();
            appended.flush(a);
            hashed.flush(h);
            // the handed-over layer reads the same before it is stored
            for (int g = 0; g < 6; g++) {
                Object[] prefix = {g};
                assertEquals(values(hashed.scan(prefix)), values(appended.scan(prefix)));
            }
            try (WriteBuffer buffer = store.newWriteBuffer()) {
                a.writes.replay(new DataWrites(buffer));
                h.writes.replay(new DataWrites(buffer));
                store.write(buffer);
            }
        }
        assertEquals(14, unreadEpochs, "epochs without a read");
        List<String> a = storedWithoutTableId(905);
        assertEquals(true, a.size() > 100, "rows stored: " + a.size());
        assertEquals(storedWithoutTableId(906), a);
    }

    /**
     * Scans between writes, within and across epochs, against a model of the table's contents: the
     * first scan of an epoch indexes the pending writes by distribution key, and later writes either
     * overwrite an indexed key (read from the map when the scan reaches it) or add a key the index
     * learns of separately; the handed-over layer keeps the epoch's index, or builds its own. Keys
     * include negative and repeated values, deletes and other distribution keys on both sides.
     */
    @Test
    void scansBetweenWritesReadWhatWasWrittenLast() {
        java.util.Random random = new java.util.Random(29);
        java.util.TreeMap<Long, Integer> model = new java.util.TreeMap<>();
        RecordedWrites handedOver = null;
        int scans = 0;
        for (int epoch = 0; epoch < 60; epoch++) {
            for (int i = 0; i < 200; i++) {
                // every other epoch spreads its writes over many more distribution keys
                int g = random.nextInt(epoch % 2 == 0 ? 5 : 300) - 2;
                int k = random.nextInt(40) - 20;
                int what = random.nextInt(10);
                if (what == 0) {
                    table.delete(new Object[] {g, k});
                    model.remove(modelKey(g, k));
                } else if (what < 8) {
                    int v = random.nextInt(1000);
                    table.put(new Object[] {g, k}, new Object[] {v});
                    model.put(modelKey(g, k), v);
                } else {
                    scans++;
                    if (what == 8) {
                        assertEquals(expected(model, g, Integer.MIN_VALUE), values(table.scan(new Object[] {g})));
                    } else {
                        assertEquals(expected(model, g, k), values(table.scanFrom(new Object[] {g, k})));
                    }
                }
            }
            if (handedOver != null) {
                // the last flush's writes are stored before the next flush, as the actors do
                try (WriteBuffer buffer = store.newWriteBuffer()) {
                    handedOver.writes.replay(new DataWrites(buffer));
                    store.write(buffer);
                }
            }
            handedOver = new RecordedWrites();
            table.flush(handedOver);
            if (epoch % 4 == 1) {
                // read the handed-over layer before anything is written over it
                for (int g = -2; g <= 2; g++) {
                    assertEquals(expected(model, g, Integer.MIN_VALUE), values(table.scan(new Object[] {g})));
                }
            }
        }
        assertEquals(true, scans > 1000, "scans: " + scans);
    }

    private static long modelKey(int g, int k) {
        return ((long) g << 32) + (k - (long) Integer.MIN_VALUE);
    }

    /** The model's values of group {@code g} with key at or after {@code from}, in key order. */
    private static List<Integer> expected(java.util.TreeMap<Long, Integer> model, int g, int from) {
        return new ArrayList<>(model.subMap(modelKey(g, from), true, modelKey(g, Integer.MAX_VALUE), true)
                .values());
    }

    /** Whether the recorded writes' keys came in ascending order of their bytes after the vnode. */
    private static boolean inRowIdOrder(RecordedWrites w) {
        List<byte[]> keys = new ArrayList<>();
        w.writes.replay(new StateWrites() {
            @Override
            public void put(byte[] key, byte[] value) {
                keys.add(key);
            }

            @Override
            public void delete(byte[] key) {
                keys.add(key);
            }
        });
        int p = io.tributary.storage.TableKeys.PREFIX_LENGTH;
        for (int i = 1; i < keys.size(); i++) {
            byte[] x = keys.get(i - 1);
            byte[] y = keys.get(i);
            if (java.util.Arrays.compareUnsigned(x, p, x.length, y, p, y.length) >= 0) {
                return false;
            }
        }
        return keys.size() > 1;
    }

    /** Every key (past its table id) and value of table {@code tableId} in the store, as hex. */
    private List<String> storedWithoutTableId(int tableId) {
        List<String> out = new ArrayList<>();
        try (ReadView view = store.snapshot();
                io.tributary.storage.KvIterator it = view.scan(
                        io.tributary.storage.Keyspace.DATA,
                        io.tributary.storage.TableKeys.tableStart(tableId),
                        io.tributary.storage.TableKeys.tableEnd(tableId))) {
            java.util.HexFormat hex = java.util.HexFormat.of();
            while (it.next()) {
                byte[] k = it.key();
                out.add(hex.formatHex(k, 4, k.length) + "=" + hex.formatHex(it.value()));
            }
        }
        return out;
    }

    /** Records a flush's writes and whether their keys came in strictly ascending order. */
    private static final class RecordedWrites implements StateWrites {
        final EpochWrites writes = new EpochWrites();
        private byte[] last;
        private boolean ascending = true;

        @Override
        public void put(byte[] key, byte[] value) {
            see(key);
            writes.put(key, value);
        }

        @Override
        public void delete(byte[] key) {
            see(key);
            writes.delete(key);
        }

        private void see(byte[] key) {
            ascending &= last == null || java.util.Arrays.compareUnsigned(last, key) < 0;
            last = key;
        }

        boolean ascending() {
            return ascending;
        }
    }

    private void store(StateTable t) {
        EpochWrites writes = new EpochWrites();
        t.flush(writes);
        try (WriteBuffer buffer = store.newWriteBuffer()) {
            writes.replay(new DataWrites(buffer));
            store.write(buffer);
        }
        // a second, empty flush: the stored layer is dropped, so reads below see committed state only
        t.flush(new EpochWrites());
    }

    private static List<Integer> values(StateTable.ValueIterator it) {
        List<Integer> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                out.add((Integer) it.next()[0]);
            }
        }
        return out;
    }
}
