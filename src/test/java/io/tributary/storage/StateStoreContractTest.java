package io.tributary.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every {@link StateStore} implementation must do; subclasses open the store under test. */
public abstract class StateStoreContractTest {
    @TempDir
    protected Path dir;

    protected StateStore store;

    /** Opens (or reopens) the store kept in {@code dir}. */
    protected abstract StateStore open(Path dir);

    @BeforeEach
    void openStore() {
        store = open(dir);
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    protected static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    protected static String s(byte[] v) {
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    private long epoch = 1000;

    /** Commits the writes in one buffer at the next epoch. */
    protected void commit(java.util.function.Consumer<WriteBuffer> writes) {
        try (WriteBuffer wb = store.newWriteBuffer()) {
            writes.accept(wb);
            store.commit(++epoch + store.committedEpoch(), wb);
        }
    }

    protected String get(Keyspace ks, String key) {
        try (ReadView v = store.snapshot()) {
            return s(v.get(ks, b(key)));
        }
    }

    protected static List<String> scan(ReadView v, Keyspace ks, byte[] from, byte[] to) {
        List<String> out = new ArrayList<>();
        try (KvIterator it = v.scan(ks, from, to)) {
            while (it.next()) {
                out.add(s(it.key()) + "=" + s(it.value()));
            }
        }
        return out;
    }

    protected List<String> scanAll(Keyspace ks, String from, String to) {
        try (ReadView v = store.snapshot()) {
            return scan(v, ks, b(from), b(to));
        }
    }

    @Test
    void freshStoreIsEmptyAtEpochZero() {
        assertEquals(0, store.committedEpoch());
        assertNull(get(Keyspace.DATA, "a"));
        assertEquals(List.of(), scanAll(Keyspace.DATA, "", "\u007f"));
    }

    @Test
    void commitMakesPutsAndDeletesVisibleTogether() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.put(Keyspace.DATA, b("b"), b("2"));
        });
        try (ReadView before = store.snapshot()) {
            commit(wb -> {
                wb.delete(Keyspace.DATA, b("a"));
                wb.put(Keyspace.DATA, b("b"), b("22"));
                wb.put(Keyspace.CATALOG, b("c"), b("3"));
            });
            assertEquals("1", s(before.get(Keyspace.DATA, b("a"))));
            assertEquals("2", s(before.get(Keyspace.DATA, b("b"))));
            assertNull(before.get(Keyspace.CATALOG, b("c")));
        }
        assertNull(get(Keyspace.DATA, "a"));
        assertEquals("22", get(Keyspace.DATA, "b"));
        assertEquals("3", get(Keyspace.CATALOG, "c"));
    }

    @Test
    void keyspacesAreSeparate() {
        commit(wb -> wb.put(Keyspace.DATA, b("k"), b("data")));
        assertEquals("data", get(Keyspace.DATA, "k"));
        assertNull(get(Keyspace.CATALOG, "k"));
    }

    @Test
    void uncommittedWritesAreInvisible() {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.DATA, b("a"), b("changed"));
            wb.put(Keyspace.DATA, b("new"), b("x"));
            wb.delete(Keyspace.DATA, b("a"));
            wb.put(Keyspace.DATA, b("a"), b("again"));
            assertEquals("1", get(Keyspace.DATA, "a"));
            assertNull(get(Keyspace.DATA, "new"));
            assertEquals(List.of("a=1"), scanAll(Keyspace.DATA, "", "z"));
        }
        // closing a buffer without committing discards it
        assertEquals("1", get(Keyspace.DATA, "a"));
        assertNull(get(Keyspace.DATA, "new"));
    }

    @Test
    void snapshotIsolation() {
        commit(wb -> wb.put(Keyspace.DATA, b("k1"), b("v1")));
        try (ReadView old = store.snapshot()) {
            try (KvIterator it = old.scan(Keyspace.DATA, b("k"), b("l"))) {
                commit(wb -> {
                    wb.put(Keyspace.DATA, b("k0"), b("v0"));
                    wb.put(Keyspace.DATA, b("k2"), b("v2"));
                    wb.delete(Keyspace.DATA, b("k1"));
                });
                // an iterator opened before the commit keeps its view
                assertTrue(it.next());
                assertEquals("k1", s(it.key()));
                assertEquals("v1", s(it.value()));
                assertTrue(!it.next());
            }
            assertEquals(List.of("k1=v1"), scan(old, Keyspace.DATA, b("k"), b("l")));
            assertEquals("v1", s(old.get(Keyspace.DATA, b("k1"))));
            assertNull(old.get(Keyspace.DATA, b("k2")));
        }
        assertEquals(List.of("k0=v0", "k2=v2"), scanAll(Keyspace.DATA, "k", "l"));
    }

    @Test
    void scanOrderIsUnsignedAndBoundsAreHalfOpen() {
        byte[][] keys = {{0x01}, {0x01, 0x00}, {0x01, (byte) 0xff}, {0x02}, {(byte) 0x7f}, {(byte) 0x80},
            {(byte) 0xff}, {(byte) 0xff, 0x00}};
        commit(wb -> {
            for (int i = keys.length - 1; i >= 0; i--) {
                wb.put(Keyspace.DATA, keys[i], new byte[] {(byte) i});
            }
        });
        try (ReadView v = store.snapshot()) {
            List<Integer> order = new ArrayList<>();
            try (KvIterator it = v.scan(Keyspace.DATA, new byte[0], new byte[] {(byte) 0xff, (byte) 0xff})) {
                while (it.next()) {
                    order.add((int) it.value()[0]);
                }
            }
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), order);
            // [0x01 0x00, 0x7f): start inclusive, end exclusive
            List<Integer> range = new ArrayList<>();
            try (KvIterator it = v.scan(Keyspace.DATA, new byte[] {0x01, 0x00}, new byte[] {(byte) 0x7f})) {
                while (it.next()) {
                    range.add((int) it.value()[0]);
                }
            }
            assertEquals(List.of(1, 2, 3), range);
            try (KvIterator it = v.scan(Keyspace.DATA, new byte[] {0x03}, new byte[] {0x04})) {
                assertTrue(!it.next());
            }
        }
    }

    @Test
    void getBufferedSeesOnlyTheBuffer() {
        commit(wb -> wb.put(Keyspace.DATA, b("committed"), b("c")));
        try (WriteBuffer wb = store.newWriteBuffer()) {
            assertNull(wb.getBuffered(Keyspace.DATA, b("committed")));
            wb.put(Keyspace.DATA, b("new"), b("n"));
            assertEquals("n", s(wb.getBuffered(Keyspace.DATA, b("new"))));
            wb.put(Keyspace.DATA, b("new"), b("n2"));
            assertEquals("n2", s(wb.getBuffered(Keyspace.DATA, b("new"))), "later writes replace earlier ones");
            wb.delete(Keyspace.DATA, b("new"));
            assertNull(wb.getBuffered(Keyspace.DATA, b("new")));
            assertNull(wb.getBuffered(Keyspace.CATALOG, b("new")));
        }
    }

    @Test
    void getThroughSeesBufferOverCommitted() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.put(Keyspace.DATA, b("b"), b("2"));
        });
        try (WriteBuffer wb = store.newWriteBuffer()) {
            assertEquals("1", s(wb.getThrough(Keyspace.DATA, b("a"))));
            wb.put(Keyspace.DATA, b("a"), b("11"));
            wb.delete(Keyspace.DATA, b("b"));
            wb.put(Keyspace.DATA, b("c"), b("3"));
            assertEquals("11", s(wb.getThrough(Keyspace.DATA, b("a"))));
            assertNull(wb.getThrough(Keyspace.DATA, b("b")), "a buffered delete hides the committed value");
            assertEquals("3", s(wb.getThrough(Keyspace.DATA, b("c"))));
            assertNull(wb.getThrough(Keyspace.DATA, b("d")));
            // a commit from elsewhere is seen through the buffer (reads fall through to the latest state)
            commit(other -> other.put(Keyspace.DATA, b("d"), b("4")));
            assertEquals("4", s(wb.getThrough(Keyspace.DATA, b("d"))));
        }
    }

    @Disabled("bug: RocksWriteBuffer.getThrough ignores deleteRange (range deletes are kept in a side list), so "
            + "after deleteRange(DATA, a, c) getThrough(DATA, b) still returns the committed value although the "
            + "WriteBuffer contract says getThrough is 'the value as it would be after commit' (which is null)")
    @Test
    void getThroughHonoursDeleteRange() {
        commit(wb -> wb.put(Keyspace.DATA, b("b"), b("2")));
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.deleteRange(Keyspace.DATA, b("a"), b("c"));
            assertNull(wb.getThrough(Keyspace.DATA, b("b")));
        }
    }

    @Test
    void savePointsRollBack() {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.DATA, b("kept"), b("k"));
            wb.setSavePoint();
            wb.put(Keyspace.DATA, b("kept"), b("overwritten"));
            wb.put(Keyspace.DATA, b("gone"), b("g"));
            wb.delete(Keyspace.DATA, b("a"));
            wb.rollbackToSavePoint();
            assertEquals("k", s(wb.getBuffered(Keyspace.DATA, b("kept"))));
            assertNull(wb.getBuffered(Keyspace.DATA, b("gone")));
            assertEquals("1", s(wb.getThrough(Keyspace.DATA, b("a"))));
            // nested: pop keeps the writes
            wb.setSavePoint();
            wb.put(Keyspace.DATA, b("outer"), b("o"));
            wb.setSavePoint();
            wb.put(Keyspace.DATA, b("inner"), b("i"));
            wb.popSavePoint();
            wb.rollbackToSavePoint();
            assertNull(wb.getBuffered(Keyspace.DATA, b("outer")));
            assertNull(wb.getBuffered(Keyspace.DATA, b("inner")));
            wb.setSavePoint();
            wb.put(Keyspace.DATA, b("popped"), b("p"));
            wb.popSavePoint();
            store.commit(store.committedEpoch() + 1, wb);
        }
        assertEquals(List.of("a=1", "kept=k", "popped=p"), scanAll(Keyspace.DATA, "", "z"));
    }

    @Disabled("bug: RocksWriteBuffer.rollbackToSavePoint does not undo deleteRange calls made after the save "
            + "point (they live outside the WriteBatchWithIndex), so a rolled-back range delete still removes "
            + "committed keys at commit. BarrierManager.stage relies on save points to undo a failed stage()")
    @Test
    void savePointRollsBackDeleteRange() {
        commit(wb -> wb.put(Keyspace.DATA, b("b"), b("2")));
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.setSavePoint();
            wb.deleteRange(Keyspace.DATA, b("a"), b("c"));
            wb.rollbackToSavePoint();
            assertEquals(0, wb.size());
            store.commit(store.committedEpoch() + 1, wb);
        }
        assertEquals("2", get(Keyspace.DATA, "b"));
    }

    @Test
    void forEachVisitsBufferedWritesInKeyOrder() {
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.DATA, b("c"), b("3"));
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.delete(Keyspace.DATA, b("b"));
            wb.put(Keyspace.DATA, b("a"), b("1b"));
            wb.put(Keyspace.CATALOG, b("x"), b("cat"));
            List<String> seen = new ArrayList<>();
            wb.forEach(Keyspace.DATA, (k, v) -> seen.add(s(k) + "=" + s(v)));
            assertEquals(List.of("a=1b", "b=null", "c=3"), seen);
        }
    }

    @Test
    void deleteRangeRemovesCommittedKeysButKeepsOtherWrites() {
        commit(wb -> {
            for (String k : new String[] {"t1/a", "t1/b", "t2/a", "t2/b", "t3/a"}) {
                wb.put(Keyspace.DATA, b(k), b("old"));
            }
            wb.put(Keyspace.CATALOG, b("t2/a"), b("catalog"));
        });
        commit(wb -> {
            wb.deleteRange(Keyspace.DATA, b("t2/"), b("t20"));
            wb.put(Keyspace.DATA, b("t1/c"), b("new"));
            wb.put(Keyspace.DATA, b("t3/a"), b("new"));
            wb.put(Keyspace.DATA, b("t2/z"), b("put after range delete")); // applied after the range delete
        });
        assertEquals(List.of("t1/a=old", "t1/b=old", "t1/c=new", "t2/z=put after range delete", "t3/a=new"),
                scanAll(Keyspace.DATA, "", "z"));
        assertEquals("catalog", get(Keyspace.CATALOG, "t2/a"), "range deletes are per keyspace");
    }

    @Test
    void committedEpochAdvancesAndMustGrow() {
        try (WriteBuffer wb = store.newWriteBuffer()) {
            store.commit(500, wb);
        }
        assertEquals(500, store.committedEpoch());
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.DATA, b("x"), b("y"));
            assertThrows(IllegalArgumentException.class, () -> store.commit(500, wb));
        }
        assertNull(get(Keyspace.DATA, "x"), "a rejected commit writes nothing");
        assertEquals(500, store.committedEpoch());
    }

    @Test
    void dataAndEpochPersistAcrossReopen() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.put(Keyspace.CATALOG, b("t"), b("def"));
        });
        commit(wb -> {
            wb.delete(Keyspace.DATA, b("a"));
            wb.put(Keyspace.DATA, b("b"), b("2"));
        });
        long committed = store.committedEpoch();
        assertTrue(committed > 0);
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.DATA, b("uncommitted"), b("x"));
        }
        store.close();
        store = null;
        store = open(dir);
        assertEquals(committed, store.committedEpoch());
        assertNull(get(Keyspace.DATA, "a"));
        assertEquals("2", get(Keyspace.DATA, "b"));
        assertEquals("def", get(Keyspace.CATALOG, "t"));
        assertNull(get(Keyspace.DATA, "uncommitted"));
        // and it keeps working after the reopen
        commit(wb -> wb.put(Keyspace.DATA, b("c"), b("3")));
        assertTrue(store.committedEpoch() > committed);
        store.close();
        store = open(dir);
        assertEquals("3", get(Keyspace.DATA, "c"));
    }

    @Test
    void bufferSizeCountsWrites() {
        try (WriteBuffer wb = store.newWriteBuffer()) {
            assertEquals(0, wb.size());
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.delete(Keyspace.DATA, b("b"));
            wb.deleteRange(Keyspace.DATA, b("c"), b("d"));
            assertEquals(3, wb.size());
        }
    }

    @Test
    void valuesAreCopiedNotAliased() {
        byte[] key = b("k");
        byte[] value = b("v");
        commit(wb -> wb.put(Keyspace.DATA, key, value));
        key[0] = 'x';
        value[0] = 'x';
        assertArrayEquals(b("v"), b(get(Keyspace.DATA, "k")));
    }
}
