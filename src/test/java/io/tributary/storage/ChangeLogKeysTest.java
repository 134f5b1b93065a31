package io.tributary.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.VirtualNodes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Key layouts of change logs and tables, and the encoding of logged changes. */
class ChangeLogKeysTest {
    private record Entry(int relation, long epoch, int vnode, byte[] pk) {}

    private static final Comparator<Entry> TUPLE_ORDER = Comparator.comparingInt(Entry::relation)
            .thenComparingLong(Entry::epoch)
            .thenComparingInt(Entry::vnode)
            .thenComparing(Entry::pk, Arrays::compareUnsigned);

    @Test
    void byteOrderIsRelationEpochVnodePkOrderAndPartsRoundTrip() {
        Random random = new Random(11);
        List<Entry> entries = new ArrayList<>();
        long[] epochs = {0, 1, 255, 256, 1L << 40, (System.currentTimeMillis() << 16) | 3, Long.MAX_VALUE};
        int[] relations = {1, 2, 255, 256, 65_536, Integer.MAX_VALUE};
        for (int i = 0; i < 2000; i++) {
            byte[] pk = new byte[random.nextInt(5)];
            random.nextBytes(pk);
            entries.add(new Entry(
                    relations[random.nextInt(relations.length)],
                    epochs[random.nextInt(epochs.length)],
                    random.nextInt(VirtualNodes.COUNT),
                    pk));
        }
        List<Entry> byTuple = new ArrayList<>(entries);
        byTuple.sort(TUPLE_ORDER);
        List<Entry> byBytes = new ArrayList<>(entries);
        byBytes.sort((a, b) -> Arrays.compareUnsigned(key(a), key(b)));
        for (int i = 0; i < entries.size(); i++) {
            assertEquals(0, TUPLE_ORDER.compare(byTuple.get(i), byBytes.get(i)), "position " + i);
        }
        for (Entry e : entries) {
            byte[] key = key(e);
            assertEquals(e.epoch(), ChangeLogKeys.epochOf(key));
            assertEquals(e.vnode(), ChangeLogKeys.vnodeOf(key));
            assertArrayEquals(e.pk(), ChangeLogKeys.pkOf(key));
            assertTrue(within(key, ChangeLogKeys.relationStart(e.relation()), ChangeLogKeys.relationEnd(e.relation())));
            assertTrue(within(
                    key,
                    ChangeLogKeys.epochStart(e.relation(), e.epoch()),
                    ChangeLogKeys.epochEnd(e.relation(), e.epoch())));
            assertTrue(within(
                    key,
                    ChangeLogKeys.vnodeStart(e.relation(), e.epoch(), e.vnode()),
                    ChangeLogKeys.vnodeEnd(e.relation(), e.epoch(), e.vnode())));
        }
    }

    @Test
    void rangesOfNeighboursDoNotOverlap() {
        byte[] lastOfVnode = ChangeLogKeys.key(5, 9, VirtualNodes.COUNT - 1, new byte[] {(byte) 0xff, (byte) 0xff});
        assertTrue(Arrays.compareUnsigned(lastOfVnode, ChangeLogKeys.vnodeEnd(5, 9, VirtualNodes.COUNT - 1)) < 0);
        assertTrue(
                Arrays.compareUnsigned(
                                ChangeLogKeys.vnodeEnd(5, 9, VirtualNodes.COUNT - 1), ChangeLogKeys.epochStart(5, 10))
                        <= 0,
                "the last vnode ends before the next epoch");
        assertTrue(Arrays.compareUnsigned(
                        ChangeLogKeys.key(5, 9, 3, new byte[] {(byte) 0xff}), ChangeLogKeys.vnodeStart(5, 9, 4))
                < 0);
        assertTrue(Arrays.compareUnsigned(
                        ChangeLogKeys.key(5, Long.MAX_VALUE, 0, new byte[0]), ChangeLogKeys.relationStart(6))
                < 0);
        assertArrayEquals(ChangeLogKeys.relationEnd(5), ChangeLogKeys.epochEnd(5, Long.MAX_VALUE));
    }

    @Test
    void resumeKeySitsRightAfterThePk() {
        byte[] pk = {1, 2, 3};
        byte[] resume = ChangeLogKeys.resumeKey(4, 100, 7, pk);
        assertTrue(Arrays.compareUnsigned(ChangeLogKeys.key(4, 100, 7, pk), resume) < 0);
        // the next possible pk (pk extended by a zero byte) is not skipped, a larger one neither
        assertTrue(Arrays.compareUnsigned(resume, ChangeLogKeys.key(4, 100, 7, new byte[] {1, 2, 3, 0})) <= 0);
        assertTrue(Arrays.compareUnsigned(resume, ChangeLogKeys.key(4, 100, 7, new byte[] {1, 2, 4})) < 0);
        assertArrayEquals(ChangeLogKeys.vnodeStart(4, 100, 7), ChangeLogKeys.resumeKey(4, 100, 7, null));

        byte[] tableResume = TableKeys.resumeKey(4, 7, pk);
        byte[] rowKey = ChangeLogKeysTest.tableKey(4, 7, pk);
        assertTrue(Arrays.compareUnsigned(rowKey, tableResume) < 0);
        assertTrue(Arrays.compareUnsigned(tableResume, ChangeLogKeysTest.tableKey(4, 7, new byte[] {1, 2, 3, 0})) <= 0);
        assertArrayEquals(TableKeys.vnodeStart(4, 7), TableKeys.resumeKey(4, 7, null));
    }

    @Test
    void tableKeysSplitIntoVnodeAndPk() {
        Random random = new Random(3);
        for (int i = 0; i < 500; i++) {
            byte[] pk = new byte[1 + random.nextInt(6)];
            random.nextBytes(pk);
            byte[] key = TableKeys.rowKey(42, pk);
            assertEquals(VirtualNodes.of(pk), TableKeys.vnodeOf(key));
            assertArrayEquals(pk, TableKeys.pkOf(key));
            int vnode = TableKeys.vnodeOf(key);
            assertTrue(within(key, TableKeys.vnodeStart(42, vnode), TableKeys.vnodeEnd(42, vnode)));
            assertTrue(within(key, TableKeys.tableStart(42), TableKeys.tableEnd(42)));
        }
        assertTrue(Arrays.compareUnsigned(TableKeys.vnodeEnd(42, VirtualNodes.COUNT - 1), TableKeys.tableEnd(42)) <= 0);
    }

    @Test
    void vnodesAndEpochsOutOfRangeAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> ChangeLogKeys.key(1, 1, VirtualNodes.COUNT, new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> ChangeLogKeys.vnodeStart(1, 1, -1));
        assertThrows(IllegalArgumentException.class, () -> ChangeLogKeys.epochStart(1, -1));
        assertThrows(IllegalArgumentException.class, () -> TableKeys.vnodeEnd(1, VirtualNodes.COUNT));
    }

    @Test
    void loggedChangesRoundTrip() {
        byte[] longRow = new byte[300]; // an old-row length that needs two varint bytes
        Arrays.fill(longRow, (byte) 0x80);
        List<LoggedChange> changes = List.of(
                new LoggedChange(ChangeLogOp.INSERT, null, new byte[] {1, 2}),
                new LoggedChange(ChangeLogOp.DELETE, new byte[] {3}, null),
                new LoggedChange(ChangeLogOp.UPDATE, new byte[] {4, 5}, new byte[] {6}),
                new LoggedChange(ChangeLogOp.UPDATE, longRow, new byte[] {7, 8, 9}),
                new LoggedChange(ChangeLogOp.UPDATE, new byte[0], new byte[] {1}),
                new LoggedChange(ChangeLogOp.INSERT, null, new byte[0]));
        for (LoggedChange c : changes) {
            LoggedChange back = LoggedChange.decode(c.encode());
            assertEquals(c.op(), back.op());
            assertArrayEquals(c.oldRow(), back.oldRow(), c.toString());
            assertArrayEquals(c.newRow(), back.newRow(), c.toString());
        }
    }

    @Test
    void aChangeNeedsExactlyTheRowsOfItsOp() {
        assertThrows(
                IllegalArgumentException.class, () -> new LoggedChange(ChangeLogOp.INSERT, new byte[0], new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new LoggedChange(ChangeLogOp.INSERT, null, null));
        assertThrows(
                IllegalArgumentException.class, () -> new LoggedChange(ChangeLogOp.DELETE, new byte[0], new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new LoggedChange(ChangeLogOp.UPDATE, null, new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new LoggedChange(ChangeLogOp.UPDATE, new byte[0], null));
    }

    @Test
    void changesOfOneKeyFoldToTheirNetChange() {
        byte[] a = {'a'};
        byte[] b = {'b'};
        byte[] c = {'c'};
        LoggedChange insertA = new LoggedChange(ChangeLogOp.INSERT, null, a);
        LoggedChange updateAB = new LoggedChange(ChangeLogOp.UPDATE, a, b);
        LoggedChange updateBC = new LoggedChange(ChangeLogOp.UPDATE, b, c);
        LoggedChange updateBA = new LoggedChange(ChangeLogOp.UPDATE, b, a);
        LoggedChange deleteA = new LoggedChange(ChangeLogOp.DELETE, a, null);
        LoggedChange deleteB = new LoggedChange(ChangeLogOp.DELETE, b, null);
        LoggedChange insertB = new LoggedChange(ChangeLogOp.INSERT, null, b);

        assertChange(ChangeLogOp.INSERT, null, b, insertA.then(updateAB));
        assertNull(insertA.then(deleteA), "inserted and deleted within the epoch: no change");
        assertChange(ChangeLogOp.UPDATE, a, c, updateAB.then(updateBC));
        assertNull(updateAB.then(updateBA), "updated back to the old row: no change");
        assertChange(ChangeLogOp.DELETE, a, null, updateAB.then(deleteB));
        assertChange(ChangeLogOp.UPDATE, a, b, deleteA.then(insertB));
        assertNull(deleteA.then(new LoggedChange(ChangeLogOp.INSERT, null, a)), "deleted and put back as it was");

        assertThrows(IllegalStateException.class, () -> insertA.then(insertB), "insert of a present key");
        assertThrows(IllegalStateException.class, () -> deleteA.then(deleteA), "delete of an absent key");
        assertThrows(IllegalStateException.class, () -> deleteA.then(updateAB), "update of an absent key");
        assertThrows(IllegalStateException.class, () -> insertA.then(updateBC), "update from another row");
    }

    private static void assertChange(ChangeLogOp op, byte[] oldRow, byte[] newRow, LoggedChange actual) {
        assertEquals(op, actual.op());
        assertArrayEquals(oldRow, actual.oldRow());
        assertArrayEquals(newRow, actual.newRow());
    }

    private static byte[] key(Entry e) {
        return ChangeLogKeys.key(e.relation(), e.epoch(), e.vnode(), e.pk());
    }

    private static byte[] tableKey(int tableId, int vnode, byte[] pk) {
        byte[] key = Arrays.copyOf(TableKeys.vnodeStart(tableId, vnode), TableKeys.PREFIX_LENGTH + pk.length);
        System.arraycopy(pk, 0, key, TableKeys.PREFIX_LENGTH, pk.length);
        return key;
    }

    private static boolean within(byte[] key, byte[] from, byte[] toExclusive) {
        return Arrays.compareUnsigned(from, key) <= 0 && Arrays.compareUnsigned(key, toExclusive) < 0;
    }
}
