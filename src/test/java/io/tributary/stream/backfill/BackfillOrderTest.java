package io.tributary.stream.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tributary.common.Epoch;
import io.tributary.common.VirtualNodes;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.storage.Keyspace;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.storage.rocksdb.RocksStateStore;
import io.tributary.stream.Chunk;
import io.tributary.stream.upstream.LocalUpstreamTable;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BackfillInput#readAfter}: a dimension join's big side reads no snapshot row until every
 * input it waits for (the broadcast side's, one per actor) has read its whole snapshot, and then
 * reads its own as usual; real upstream tables over a real store.
 */
class BackfillOrderTest {
    private static final int BIG = 40;
    private static final int DIMENSION = 41;
    private static final int PROGRESS_TABLE = 42;
    private static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.TEXT);
    private static final RowCodec CODEC = new RowCodec(TYPES);

    @TempDir
    Path dir;

    private StateStore store;

    @BeforeEach
    void open() {
        store = RocksStateStore.open(dir.resolve("state"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void theBigSideReadsOnlyOnceEveryDimensionInputHasReadItsSnapshot() {
        long epoch = Epoch.next(store.committedEpoch(), System.currentTimeMillis());
        try (WriteBuffer wb = store.newWriteBuffer()) {
            for (long id = 0; id < 5_000; id++) {
                wb.put(Keyspace.DATA, TableKeys.rowKey(BIG, pk(id)), CODEC.encode(new Object[] {id, "o" + id}));
            }
            for (long id = 0; id < 3_000; id++) {
                wb.put(Keyspace.DATA, TableKeys.rowKey(DIMENSION, pk(id)), CODEC.encode(new Object[] {id, "d" + id}));
            }
            store.commit(epoch, wb);
        }
        PinnedSnapshot pin = store.pin("order-test");
        BackfillRate rate = new BackfillRate(BackfillRate.UNLIMITED);
        int[] all = IntStream.range(0, VirtualNodes.COUNT).toArray();
        int half = VirtualNodes.COUNT / 2;
        try (LocalUpstreamTable big = LocalUpstreamTable.open(store, pin, BIG, TYPES);
                LocalUpstreamTable dimension = LocalUpstreamTable.open(store, pin, DIMENSION, TYPES);
                ReadView committed = store.snapshot()) {
            // the broadcast side as two actors read it, each over half of the vnodes
            BackfillInput dim0 = input(dimension, 1, java.util.Arrays.copyOfRange(all, 0, half), committed, rate);
            BackfillInput dim1 =
                    input(dimension, 1, java.util.Arrays.copyOfRange(all, half, all.length), committed, rate);
            BackfillInput orders = input(big, 0, all, committed, rate);
            orders.readAfter(List.of(dim0, dim1));
            long[] ordersRead = {0};

            assertFalse(orders.step(c -> ordersRead[0] += c.size()), "nothing read before the dimension");
            long dim0Rows = readSnapshot(dim0);
            assertFalse(orders.step(c -> ordersRead[0] += c.size()), "one dimension actor is not all of it");
            long dim1Rows = readSnapshot(dim1);
            assertEquals(3_000, dim0Rows + dim1Rows);
            assertEquals(0, ordersRead[0]);

            while (orders.step(c -> ordersRead[0] += c.size())) {
                // the big side now reads its whole snapshot
            }
            assertEquals(5_000, ordersRead[0]);
            orders.close();
            dim0.close();
            dim1.close();
        } finally {
            store.unpin(pin.name());
        }
    }

    private static BackfillInput input(
            LocalUpstreamTable upstream, int ordinal, int[] vnodes, ReadView committed, BackfillRate rate) {
        return new BackfillInput(
                upstream, new int[] {0}, null, ordinal, PROGRESS_TABLE, vnodes, committed, rate, 0, null);
    }

    /** Steps {@code input} until its vnodes are all past their snapshot; the rows it read. */
    private static long readSnapshot(BackfillInput input) {
        long[] rows = {0};
        boolean stepped = true;
        while (stepped) {
            stepped = input.step((Chunk c) -> rows[0] += c.size());
        }
        return rows[0];
    }

    private static byte[] pk(long id) {
        ByteWriter w = new ByteWriter(16);
        KeyCodec.encodeValue(w, DataType.BIGINT, id);
        return w.toByteArray();
    }
}
