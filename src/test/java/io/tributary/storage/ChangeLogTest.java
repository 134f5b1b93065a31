package io.tributary.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.VirtualNodes;
import io.tributary.storage.rocksdb.RocksStateStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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

/** Writing, reading and truncating change logs in a real store. */
class ChangeLogTest {
    private static final int REL = 17;
    private static final int OTHER = 18;

    @TempDir
    Path dir;

    private StateStore store;

    @BeforeEach
    void open() {
        store = RocksStateStore.open(dir.resolve("rocks"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** Commits {@code writes} as epoch {@code epoch}. */
    private void commit(long epoch, Consumer<WriteBuffer> writes) {
        try (WriteBuffer wb = store.newWriteBuffer()) {
            writes.accept(wb);
            store.commit(epoch, wb);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** "op:old>new" per entry of one vnode of one epoch, from the first entry after {@code after}. */
    private List<String> read(int relation, long epoch, int vnode, byte[] after) {
        List<String> out = new ArrayList<>();
        try (ReadView view = store.snapshot();
                ChangeLogCursor cursor = new ChangeLogReader(view).scan(relation, epoch, vnode, after)) {
            while (cursor.next()) {
                LoggedChange c = cursor.change();
                out.add(new String(cursor.pk()) + "=" + c.op() + ":" + str(c.oldRow()) + ">" + str(c.newRow()));
            }
        }
        return out;
    }

    private static String str(byte[] row) {
        return row == null ? "" : new String(row);
    }

    private long logKeys() {
        long n = 0;
        try (ReadView view = store.snapshot();
                KvIterator it = view.scan(Keyspace.CHANGELOG, new byte[0], new byte[] {(byte) 0xff})) {
            while (it.next()) {
                n++;
            }
        }
        return n;
    }

    private static void append(WriteBuffer wb, long epoch, String pk, ChangeLogOp op, String oldRow, String newRow) {
        ChangeLogWriter.append(
                wb,
                REL,
                epoch,
                3,
                bytes(pk),
                op,
                oldRow == null ? null : bytes(oldRow),
                newRow == null ? null : bytes(newRow));
    }

    @Test
    void appendKeepsOneNetChangePerKeyPerEpoch() {
        commit(10, wb -> {
            append(wb, 10, "ins-upd", ChangeLogOp.INSERT, null, "a");
            append(wb, 10, "ins-upd", ChangeLogOp.UPDATE, "a", "b");
            append(wb, 10, "ins-del", ChangeLogOp.INSERT, null, "a");
            append(wb, 10, "ins-del", ChangeLogOp.DELETE, "a", null);
            append(wb, 10, "del-ins", ChangeLogOp.DELETE, "old", null);
            append(wb, 10, "del-ins", ChangeLogOp.INSERT, null, "new");
            append(wb, 10, "upd-back", ChangeLogOp.UPDATE, "x", "y");
            append(wb, 10, "upd-back", ChangeLogOp.UPDATE, "y", "x");
            append(wb, 10, "same-row", ChangeLogOp.UPDATE, "s", "s");
            append(wb, 10, "upd-del", ChangeLogOp.UPDATE, "p", "q");
            append(wb, 10, "upd-del", ChangeLogOp.DELETE, "q", null);
        });
        assertEquals(
                List.of("del-ins=UPDATE:old>new", "ins-upd=INSERT:>b", "upd-del=DELETE:p>"), read(REL, 10, 3, null));
        // a later epoch logs the key again, apart from the earlier one
        commit(11, wb -> append(wb, 11, "ins-upd", ChangeLogOp.DELETE, "b", null));
        assertEquals(List.of("ins-upd=DELETE:b>"), read(REL, 11, 3, null));
        assertEquals(3, read(REL, 10, 3, null).size());
    }

    @Test
    void appendOutOfStepWithTheEpochFailsAndWritesNothing() {
        try (WriteBuffer wb = store.newWriteBuffer()) {
            append(wb, 5, "k", ChangeLogOp.INSERT, null, "a");
            assertThrows(IllegalStateException.class, () -> append(wb, 5, "k", ChangeLogOp.INSERT, null, "b"));
            assertThrows(IllegalStateException.class, () -> append(wb, 5, "k", ChangeLogOp.UPDATE, "z", "b"));
            assertThrows(IllegalArgumentException.class, () -> append(wb, 5, "j", ChangeLogOp.DELETE, null, null));
            store.commit(5, wb);
        }
        assertEquals(List.of("k=INSERT:>a"), read(REL, 5, 3, null));
    }

    @Test
    void aRolledBackSavePointTakesItsAppendsBack() {
        try (WriteBuffer wb = store.newWriteBuffer()) {
            append(wb, 5, "kept", ChangeLogOp.INSERT, null, "a");
            wb.setSavePoint();
            append(wb, 5, "kept", ChangeLogOp.UPDATE, "a", "b");
            append(wb, 5, "gone", ChangeLogOp.INSERT, null, "g");
            wb.rollbackToSavePoint();
            // folding after the rollback starts from what the buffer holds again
            append(wb, 5, "kept", ChangeLogOp.UPDATE, "a", "c");
            store.commit(5, wb);
        }
        assertEquals(List.of("kept=INSERT:>c"), read(REL, 5, 3, null));
    }

    /**
     * Random changes of many keys over all vnodes and several epochs, two relations interleaved:
     * the reader lists exactly the epochs with changes and returns each vnode's entries in pk
     * order, also when resuming after any pk.
     */
    @Test
    void readerListsEpochsAndScansEveryVnodeInPkOrder() {
        Random random = new Random(42);
        // epoch -> vnode -> pk -> new row
        Map<Long, Map<Integer, TreeMap<String, String>>> model = new TreeMap<>();
        long epoch = 1000;
        for (int e = 0; e < 12; e++) {
            epoch += 1 + random.nextInt(1000);
            long thisEpoch = epoch;
            boolean touchesRel = e % 4 != 2; // some epochs change only the other relation
            Map<Integer, TreeMap<String, String>> byVnode = new HashMap<>();
            commit(thisEpoch, wb -> {
                for (int i = 0; i < 600; i++) {
                    String pk = "k" + random.nextInt(5000);
                    int vnode = VirtualNodes.of(bytes(pk));
                    String row = "r" + i;
                    if (touchesRel
                            && byVnode.computeIfAbsent(vnode, v -> new TreeMap<>())
                                            .putIfAbsent(pk, row)
                                    == null) {
                        ChangeLogWriter.append(
                                wb, REL, thisEpoch, vnode, bytes(pk), ChangeLogOp.INSERT, null, bytes(row));
                    }
                    ChangeLogWriter.append(
                            wb, OTHER, thisEpoch, vnode, bytes(pk + "/" + i), ChangeLogOp.INSERT, null, bytes(row));
                }
            });
            if (touchesRel) {
                model.put(thisEpoch, byVnode);
            }
        }
        List<Long> epochs = new ArrayList<>(model.keySet());
        try (ReadView view = store.snapshot()) {
            ChangeLogReader reader = new ChangeLogReader(view);
            assertEquals(epochs, reader.epochsAfter(REL, 0));
            assertEquals(epochs.subList(3, epochs.size()), reader.epochsAfter(REL, epochs.get(2)));
            assertEquals(OptionalLong.of(epochs.get(1)), reader.nextEpoch(REL, epochs.get(0)));
            assertEquals(OptionalLong.of(epochs.get(1)), reader.nextEpoch(REL, epochs.get(1) - 1));
            assertEquals(OptionalLong.empty(), reader.nextEpoch(REL, epochs.get(epochs.size() - 1)));
            assertEquals(OptionalLong.empty(), reader.nextEpoch(REL, Long.MAX_VALUE));
            assertEquals(12, reader.epochsAfter(OTHER, 0).size());
        }
        int vnodesSeen = 0;
        for (Map.Entry<Long, Map<Integer, TreeMap<String, String>>> e : model.entrySet()) {
            for (int vnode = 0; vnode < VirtualNodes.COUNT; vnode++) {
                TreeMap<String, String> expected = e.getValue().getOrDefault(vnode, new TreeMap<>());
                List<String> want = expected.entrySet().stream()
                        .map(x -> x.getKey() + "=INSERT:>" + x.getValue())
                        .toList();
                assertEquals(want, read(REL, e.getKey(), vnode, null), "epoch " + e.getKey() + " vnode " + vnode);
                vnodesSeen += expected.isEmpty() ? 0 : 1;
                if (!expected.isEmpty()) {
                    String after = new ArrayList<>(expected.keySet()).get(random.nextInt(expected.size()));
                    List<String> rest = expected.tailMap(after, false).entrySet().stream()
                            .map(x -> x.getKey() + "=INSERT:>" + x.getValue())
                            .toList();
                    assertEquals(rest, read(REL, e.getKey(), vnode, bytes(after)), "resume after " + after);
                    // resuming after a pk that is not logged starts at the next logged one
                    assertEquals(want, read(REL, e.getKey(), vnode, bytes("")));
                }
            }
        }
        assertTrue(vnodesSeen > 9 * VirtualNodes.COUNT / 2, "entries spread over the vnodes: " + vnodesSeen);
    }

    @Test
    void truncationReturnsTheLogToZero() {
        long[] epochs = {100, 200, 300, 400};
        for (long epoch : epochs) {
            commit(epoch, wb -> {
                for (int i = 0; i < 500; i++) {
                    byte[] pk = bytes("k" + i);
                    ChangeLogWriter.append(wb, REL, epoch, VirtualNodes.of(pk), pk, ChangeLogOp.INSERT, null, pk);
                    ChangeLogWriter.append(wb, OTHER, epoch, VirtualNodes.of(pk), pk, ChangeLogOp.DELETE, pk, null);
                }
            });
        }
        assertEquals(4000, logKeys());
        commit(401, wb -> ChangeLogWriter.truncate(wb, REL, 200));
        assertEquals(3000, logKeys());
        try (ReadView view = store.snapshot()) {
            ChangeLogReader reader = new ChangeLogReader(view);
            assertEquals(List.of(300L, 400L), reader.epochsAfter(REL, 0));
            assertEquals(
                    List.of(100L, 200L, 300L, 400L), reader.epochsAfter(OTHER, 0), "other relations keep their log");
        }
        // truncating through an epoch between logged ones, then through the last
        commit(402, wb -> ChangeLogWriter.truncate(wb, REL, 350));
        assertEquals(2500, logKeys());
        commit(403, wb -> ChangeLogWriter.truncate(wb, REL, 400));
        commit(404, wb -> ChangeLogWriter.drop(wb, OTHER));
        assertEquals(0, logKeys());
        try (ReadView view = store.snapshot()) {
            assertFalse(new ChangeLogReader(view).nextEpoch(REL, 0).isPresent());
        }
        // and the log goes on after truncation
        commit(500, wb -> append(wb, 500, "again", ChangeLogOp.INSERT, null, "a"));
        assertEquals(List.of("again=INSERT:>a"), read(REL, 500, 3, null));
        assertEquals(1, logKeys());
    }

    @Test
    void theLogSurvivesReopen() {
        commit(7, wb -> append(wb, 7, "k", ChangeLogOp.UPDATE, "a", "b"));
        store.close();
        store = RocksStateStore.open(dir.resolve("rocks"));
        assertEquals(List.of("k=UPDATE:a>b"), read(REL, 7, 3, null));
        try (ReadView view = store.snapshot();
                ChangeLogCursor c = new ChangeLogReader(view).scan(REL, 7, 3, null)) {
            assertTrue(c.next());
            assertArrayEquals(bytes("k"), c.pk());
            assertFalse(c.next());
        }
    }

    @Test
    void logAndTableRowsNeverMix() {
        byte[] pk = bytes("same");
        commit(9, wb -> {
            wb.put(Keyspace.DATA, TableKeys.rowKey(REL, pk), bytes("row"));
            ChangeLogWriter.append(wb, REL, 9, VirtualNodes.of(pk), pk, ChangeLogOp.INSERT, null, bytes("row"));
        });
        try (ReadView view = store.snapshot();
                KvIterator it = view.scan(Keyspace.DATA, TableKeys.tableStart(REL), TableKeys.tableEnd(REL))) {
            assertTrue(it.next());
            assertArrayEquals(TableKeys.rowKey(REL, pk), it.key());
            assertFalse(it.next(), "a table scan does not see the table's log");
        }
        assertEquals(1, logKeys());
        assertEquals(Arrays.asList("same=INSERT:>row"), read(REL, 9, VirtualNodes.of(pk), null));
    }
}
