package io.tributary.stream.upstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.Epoch;
import io.tributary.common.TributaryException;
import io.tributary.common.VirtualNodes;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.storage.ChangeLogOp;
import io.tributary.storage.ChangeLogWriter;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.storage.rocksdb.RocksStateStore;
import io.tributary.stream.ChangeStream;
import io.tributary.stream.RowStream;
import io.tributary.stream.UpstreamTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer that reads a pinned snapshot and then the change log epoch by epoch, the way the
 * backfill will, ends with exactly the table's current rows; streams resume after a pk and the
 * pin is still read after a restart.
 */
class LocalUpstreamTableTest {
    private static final int REL = 40;
    private static final int OTHER = 41;
    private static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.TEXT);
    private static final RowCodec CODEC = new RowCodec(TYPES);

    @TempDir
    Path dir;

    private StateStore store;
    /** Whether the table's writes are logged: from the pin on, as the DML path will do for a consumer. */
    private boolean logging;

    @BeforeEach
    void open() {
        store = RocksStateStore.open(dir.resolve("state"));
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    /** One epoch's writes to table {@code REL} (and unlogged noise in {@code OTHER}). */
    private final class Epochs {
        private WriteBuffer wb;
        private long epoch;

        long commit(Consumer<Epochs> writes) {
            epoch = Epoch.next(store.committedEpoch(), System.currentTimeMillis());
            try (WriteBuffer buffer = store.newWriteBuffer()) {
                wb = buffer;
                writes.accept(this);
                store.commit(epoch, buffer);
            }
            return epoch;
        }

        void put(long id, String v) {
            write(id, CODEC.encode(new Object[] {id, v}));
        }

        void delete(long id) {
            write(id, null);
        }

        void other(long id) {
            wb.put(Keyspace.DATA, TableKeys.rowKey(OTHER, pk(id)), CODEC.encode(new Object[] {id, "other"}));
        }

        private void write(long id, byte[] row) {
            byte[] key = TableKeys.rowKey(REL, pk(id));
            byte[] old = wb.get(Keyspace.DATA, key);
            if (old == null && row == null) {
                return;
            }
            if (row == null) {
                wb.delete(Keyspace.DATA, key);
            } else {
                wb.put(Keyspace.DATA, key, row);
            }
            if (logging) {
                ChangeLogOp op =
                        old == null ? ChangeLogOp.INSERT : row == null ? ChangeLogOp.DELETE : ChangeLogOp.UPDATE;
                ChangeLogWriter.append(wb, REL, epoch, TableKeys.vnodeOf(key), TableKeys.pkOf(key), op, old, row);
            }
        }
    }

    private static byte[] pk(long id) {
        ByteWriter w = new ByteWriter(16);
        KeyCodec.encodeValue(w, DataType.BIGINT, id);
        return w.toByteArray();
    }

    /** A consumer as the backfill will be: the rows it has built and its position. */
    private static final class Follower {
        final TreeMap<Long, String> rows = new TreeMap<>();
        long position;
        int changesRead;

        void readSnapshot(UpstreamTable upstream) {
            position = upstream.snapshotEpoch();
            for (int vnode = 0; vnode < VirtualNodes.COUNT; vnode++) {
                byte[] previous = null;
                try (RowStream s = upstream.snapshot(vnode, position, null)) {
                    while (s.next()) {
                        previous = checkOrder(previous, s.pk(), s.row());
                        assertNull(rows.put((Long) s.row()[0], (String) s.row()[1]), "a row is read once");
                    }
                }
            }
        }

        /** Reads logged epochs until caught up; returns how many epochs it read. */
        int catchUp(UpstreamTable upstream) {
            int epochs = 0;
            for (OptionalLong next = upstream.nextEpoch(position);
                    next.isPresent();
                    next = upstream.nextEpoch(position)) {
                assertTrue(next.getAsLong() > position);
                for (int vnode = 0; vnode < VirtualNodes.COUNT; vnode++) {
                    byte[] previous = null;
                    try (ChangeStream s = upstream.changeLog(vnode, next.getAsLong(), null)) {
                        while (s.next()) {
                            Object[] any = s.newRow() != null ? s.newRow() : s.oldRow();
                            previous = checkOrder(previous, s.pk(), any);
                            apply(s.oldRow(), s.newRow());
                        }
                    }
                }
                position = next.getAsLong();
                epochs++;
            }
            return epochs;
        }

        private void apply(Object[] oldRow, Object[] newRow) {
            changesRead++;
            long id = (Long) (newRow != null ? newRow : oldRow)[0];
            // the old row of a change is exactly the row the consumer holds
            assertEquals(oldRow == null ? null : oldRow[1], rows.get(id), "old row of " + id);
            if (newRow == null) {
                rows.remove(id);
            } else {
                rows.put(id, (String) newRow[1]);
            }
        }

        /** Keys come in strictly ascending pk order and are the rows' own keys. */
        private static byte[] checkOrder(byte[] previous, byte[] pk, Object[] row) {
            assertArrayEquals(pk((Long) row[0]), pk);
            if (previous != null) {
                assertTrue(Arrays.compareUnsigned(previous, pk) < 0, "pk order");
            }
            return pk;
        }
    }

    /** The table's committed rows, read directly. */
    private TreeMap<Long, String> table() {
        TreeMap<Long, String> out = new TreeMap<>();
        try (ReadView v = store.snapshot();
                KvIterator it = v.scan(Keyspace.DATA, TableKeys.tableStart(REL), TableKeys.tableEnd(REL))) {
            while (it.next()) {
                Object[] row = CODEC.decode(it.value());
                out.put((Long) row[0], (String) row[1]);
            }
        }
        return out;
    }

    private PinnedSnapshot pinAndLog(String name) {
        PinnedSnapshot pin = store.pin(name);
        logging = true;
        return pin;
    }

    private void randomEpoch(Epochs epochs, Random random, int round) {
        epochs.commit(e -> {
            if (random.nextInt(5) == 0) {
                e.other(random.nextInt(100)); // an epoch in which the table does not change
                return;
            }
            for (int i = 0; i < 300; i++) {
                long id = random.nextInt(4000);
                if (random.nextInt(3) == 0) {
                    e.delete(id);
                } else {
                    e.put(id, "r" + round + "." + i);
                }
            }
        });
    }

    @Test
    void snapshotThenChangeLogsRebuildTheTableWhileItKeepsChanging() {
        Random random = new Random(20240601);
        Epochs epochs = new Epochs();
        epochs.commit(e -> {
            for (long id = 0; id < 3000; id++) {
                e.put(id, "initial" + id);
            }
        });
        PinnedSnapshot pin = pinAndLog("backfill-1");
        TreeMap<Long, String> atPin = table();
        for (int round = 0; round < 6; round++) {
            randomEpoch(epochs, random, round);
        }
        Follower consumer = new Follower();
        try (UpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES)) {
            assertEquals(pin.epoch(), upstream.snapshotEpoch());
            consumer.readSnapshot(upstream);
            assertEquals(atPin, consumer.rows, "the snapshot is the table as of the pin");
            int caughtUp = consumer.catchUp(upstream);
            assertTrue(caughtUp >= 1 && caughtUp <= 6, "epochs read: " + caughtUp);
            assertEquals(table(), consumer.rows);
            // the table keeps changing: the consumer follows epoch by epoch
            for (int round = 6; round < 20; round++) {
                randomEpoch(epochs, random, round);
                if (round % 3 == 0) {
                    consumer.catchUp(upstream);
                    assertEquals(table(), consumer.rows, "after round " + round);
                }
            }
            consumer.catchUp(upstream);
            assertEquals(store.committedEpoch(), consumer.position, "caught up with the last commit");
            assertEquals(OptionalLong.empty(), upstream.nextEpoch(consumer.position));
        }
        assertEquals(table(), consumer.rows);
        assertTrue(consumer.changesRead > 1000, "changes read: " + consumer.changesRead);
    }

    @Test
    void aSmallSnapshotIsCountedExactlyAndABigOneEstimatedFromSpreadVnodes() {
        Epochs epochs = new Epochs();
        epochs.commit(e -> {
            for (long id = 0; id < 3000; id++) {
                e.put(id, "small" + id);
                e.other(id);
            }
        });
        try (UpstreamTable upstream = LocalUpstreamTable.open(store, pinAndLog("count-small"), REL, TYPES)) {
            assertEquals(3000, upstream.estimatedSnapshotRows(), "another table's rows are not counted");
        }
        long big = 4 * LocalUpstreamTable.SAMPLE_ROWS;
        for (long from = 3000; from < big; from += 100_000) {
            long start = from;
            epochs.commit(e -> {
                for (long id = start; id < Math.min(big, start + 100_000); id++) {
                    e.put(id, "big");
                }
            });
        }
        PinnedSnapshot pin = pinAndLog("count-big");
        epochs.commit(e -> {
            for (long id = big; id < big + 50_000; id++) {
                e.put(id, "after the pin");
            }
        });
        try (UpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES)) {
            long estimate = upstream.estimatedSnapshotRows();
            // a sample of about a quarter of the vnodes: within 2% of the truth
            assertTrue(Math.abs(estimate - big) < big / 50, "estimate " + estimate + " of " + big + " rows");
        }
    }

    /**
     * A backfill's row count runs on a background thread that may still be counting when the job
     * goes live, closes its upstreams and unpins the snapshot: the count must let go of it at its
     * next vnode, never read the pin's closed database (a crash of the whole process), and the pin's
     * files go once it has let go.
     */
    @Test
    void aCountStillRunningWhenTheTableIsClosedAndUnpinnedLetsGoOfTheSnapshot() throws Exception {
        Epochs epochs = new Epochs();
        epochs.commit(e -> {
            for (long id = 0; id < 200_000; id++) {
                e.put(id, "r");
            }
        });
        PinnedSnapshot pin = pinAndLog("count-closed");
        UpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES);
        java.util.concurrent.CompletableFuture<Long> count =
                java.util.concurrent.CompletableFuture.supplyAsync(upstream::estimatedSnapshotRows);
        upstream.close();
        store.unpin(pin.name());
        long counted = count.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(counted == -1 || Math.abs(counted - 200_000) < 200_000 / 50, "count " + counted);
        assertEquals(-1, upstream.estimatedSnapshotRows(), "a closed table counts nothing");
        Path pinDir = dir.resolve("state.pins").resolve(pin.name());
        assertTrue(java.nio.file.Files.isDirectory(dir.resolve("state.pins")), "pins live in " + dir);
        assertTrue(!java.nio.file.Files.exists(pinDir), "the pin's files outlived its last reader");
    }

    @Test
    void theCountsSpreadOrderVisitsEveryVnodeOnceAndItsFirstSixteenEvenly() {
        boolean[] seen = new boolean[VirtualNodes.COUNT];
        for (int i = 0; i < VirtualNodes.COUNT; i++) {
            int vnode = LocalUpstreamTable.spreadOrder(i);
            assertTrue(!seen[vnode], "vnode " + vnode + " twice");
            seen[vnode] = true;
        }
        int[] first = new int[LocalUpstreamTable.SAMPLE_VNODES];
        for (int i = 0; i < first.length; i++) {
            first[i] = LocalUpstreamTable.spreadOrder(i);
        }
        Arrays.sort(first);
        for (int i = 0; i < first.length; i++) {
            assertEquals(i * VirtualNodes.COUNT / first.length, first[i]);
        }
    }

    @Test
    void nextEpochSkipsEpochsWithoutChangesAndReturnsTheLastCommittedWhenCaughtUp() {
        Epochs epochs = new Epochs();
        epochs.commit(e -> e.put(1, "a"));
        PinnedSnapshot pin = pinAndLog("p");
        try (UpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES)) {
            long e0 = pin.epoch();
            assertEquals(OptionalLong.empty(), upstream.nextEpoch(e0), "nothing committed after the snapshot");
            long quiet1 = epochs.commit(e -> e.other(1));
            assertEquals(OptionalLong.of(quiet1), upstream.nextEpoch(e0), "the last committed epoch, unchanged");
            try (ChangeStream s = upstream.changeLog(VirtualNodes.of(pk(1)), quiet1, null)) {
                assertTrue(!s.next());
            }
            long quiet2 = epochs.commit(e -> e.other(2));
            long changed = epochs.commit(e -> e.put(1, "b"));
            long quiet3 = epochs.commit(e -> e.other(3));
            assertEquals(OptionalLong.of(changed), upstream.nextEpoch(e0), "quiet epochs are skipped");
            assertEquals(OptionalLong.of(changed), upstream.nextEpoch(quiet2));
            assertEquals(OptionalLong.of(quiet3), upstream.nextEpoch(changed));
            assertEquals(OptionalLong.empty(), upstream.nextEpoch(quiet3));
            try (ChangeStream s = upstream.changeLog(VirtualNodes.of(pk(1)), changed, null)) {
                assertTrue(s.next());
                assertArrayEquals(new Object[] {1L, "a"}, s.oldRow());
                assertArrayEquals(new Object[] {1L, "b"}, s.newRow());
                assertTrue(!s.next());
            }
        }
    }

    @Test
    void streamsResumeAfterTheLastPkRead() {
        Epochs epochs = new Epochs();
        epochs.commit(e -> {
            for (long id = 0; id < 5000; id++) {
                e.put(id, "v" + id);
            }
        });
        PinnedSnapshot pin = pinAndLog("p");
        long changed = epochs.commit(e -> {
            for (long id = 0; id < 6000; id += 2) {
                if (id % 3 == 0) {
                    e.delete(id);
                } else {
                    e.put(id, "w" + id);
                }
            }
        });
        try (UpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES)) {
            for (int vnode : new int[] {0, 77, VirtualNodes.COUNT - 1}) {
                List<String> all = snapshotRows(upstream, vnode, null, Integer.MAX_VALUE);
                assertTrue(all.size() > 5, "vnode " + vnode + " has rows: " + all.size());
                for (int cut : new int[] {0, 1, all.size() / 2, all.size() - 1, all.size()}) {
                    List<String> head = snapshotRows(upstream, vnode, null, cut);
                    byte[] last = cut == 0
                            ? null
                            : pk(Long.parseLong(head.get(cut - 1).split("=")[0]));
                    List<String> resumed = new ArrayList<>(head);
                    resumed.addAll(snapshotRows(upstream, vnode, last, Integer.MAX_VALUE));
                    assertEquals(all, resumed, "snapshot of vnode " + vnode + " cut after " + cut);
                }
                List<String> changes = changeRows(upstream, vnode, changed, null, Integer.MAX_VALUE);
                assertTrue(changes.size() > 3, "vnode " + vnode + " has changes: " + changes.size());
                for (int cut : new int[] {1, changes.size() / 2, changes.size()}) {
                    List<String> head = changeRows(upstream, vnode, changed, null, cut);
                    byte[] last = pk(Long.parseLong(head.get(cut - 1).split("=")[0]));
                    List<String> resumed = new ArrayList<>(head);
                    resumed.addAll(changeRows(upstream, vnode, changed, last, Integer.MAX_VALUE));
                    assertEquals(changes, resumed, "change log of vnode " + vnode + " cut after " + cut);
                }
            }
        }
    }

    private static List<String> snapshotRows(UpstreamTable upstream, int vnode, byte[] after, int limit) {
        List<String> out = new ArrayList<>();
        try (RowStream s = upstream.snapshot(vnode, upstream.snapshotEpoch(), after)) {
            while (out.size() < limit && s.next()) {
                out.add(s.row()[0] + "=" + s.row()[1]);
            }
        }
        return out;
    }

    private static List<String> changeRows(UpstreamTable upstream, int vnode, long epoch, byte[] after, int limit) {
        List<String> out = new ArrayList<>();
        try (ChangeStream s = upstream.changeLog(vnode, epoch, after)) {
            while (out.size() < limit && s.next()) {
                Object[] any = s.newRow() != null ? s.newRow() : s.oldRow();
                out.add(any[0] + "=" + (s.oldRow() == null ? "" : s.oldRow()[1]) + ">"
                        + (s.newRow() == null ? "" : s.newRow()[1]));
            }
        }
        return out;
    }

    @Test
    void thePinAndTheLogAreReadAfterARestart() {
        Random random = new Random(5);
        Epochs epochs = new Epochs();
        epochs.commit(e -> {
            for (long id = 0; id < 2000; id++) {
                e.put(id, "initial" + id);
            }
        });
        PinnedSnapshot pin = pinAndLog("survivor");
        TreeMap<Long, String> atPin = table();
        for (int round = 0; round < 4; round++) {
            randomEpoch(epochs, random, round);
        }
        // a consumer read the snapshot and part of the log before the restart
        Follower before = new Follower();
        try (UpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES)) {
            before.readSnapshot(upstream);
            before.catchUp(upstream);
        }
        store.close();
        store = RocksStateStore.open(dir.resolve("state"));
        assertEquals(List.of("survivor"), store.pinned());
        for (int round = 4; round < 8; round++) {
            randomEpoch(new Epochs(), random, round);
        }
        // the pin is still the table as of its epoch; the log continues where it was
        try (UpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES)) {
            Follower fresh = new Follower();
            fresh.readSnapshot(upstream);
            assertEquals(atPin, fresh.rows);
            fresh.catchUp(upstream);
            assertEquals(table(), fresh.rows);
            before.catchUp(upstream);
            assertEquals(table(), before.rows, "a consumer resumes from its position after the restart");
        }
    }

    @Test
    void misuseIsRefused() {
        Epochs epochs = new Epochs();
        epochs.commit(e -> e.put(1, "a"));
        PinnedSnapshot pin = pinAndLog("p");
        assertThrows(
                TributaryException.class,
                () -> LocalUpstreamTable.open(store, new PinnedSnapshot("missing", pin.epoch()), REL, TYPES));
        long later = epochs.commit(e -> e.put(1, "b"));
        try (UpstreamTable upstream = LocalUpstreamTable.open(store, pin, REL, TYPES)) {
            assertThrows(IllegalArgumentException.class, () -> upstream.snapshot(0, later, null));
            assertThrows(IllegalArgumentException.class, () -> upstream.changeLog(0, pin.epoch(), null));
            assertThrows(
                    IllegalStateException.class,
                    () -> upstream.changeLog(0, later + 1, null),
                    "an epoch not committed yet");
            assertThrows(
                    IllegalArgumentException.class, () -> upstream.snapshot(VirtualNodes.COUNT, pin.epoch(), null));
        }
        store.unpin(pin.name());
        assertThrows(TributaryException.class, () -> LocalUpstreamTable.open(store, pin, REL, TYPES));
    }

    @Test
    void upstreamsShareOnePinAndReleaseIt() {
        Epochs epochs = new Epochs();
        epochs.commit(e -> e.put(1, "a"));
        PinnedSnapshot pin = pinAndLog("shared");
        UpstreamTable first = LocalUpstreamTable.open(store, pin, REL, TYPES);
        UpstreamTable second = LocalUpstreamTable.open(store, pin, REL, TYPES);
        first.close();
        Follower consumer = new Follower();
        consumer.readSnapshot(second);
        assertEquals(Map.of(1L, "a"), consumer.rows);
        second.close();
        store.unpin(pin.name());
        // the name is free again only if neither upstream still holds the pin
        epochs.commit(e -> e.put(2, "b"));
        PinnedSnapshot again = store.pin(pin.name());
        try (UpstreamTable upstream = LocalUpstreamTable.open(store, again, REL, TYPES)) {
            Follower after = new Follower();
            after.readSnapshot(upstream);
            assertEquals(Map.of(1L, "a", 2L, "b"), after.rows);
        }
    }
}
