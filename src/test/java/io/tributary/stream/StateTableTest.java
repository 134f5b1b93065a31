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
        store = RocksStateStore.open(dir);
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
