package io.tributary.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
        assertNull(get(Keyspace.CHANGELOG, "k"));
        commit(wb -> {
            wb.put(Keyspace.CHANGELOG, b("k"), b("log"));
            wb.put(Keyspace.CATALOG, b("k"), b("catalog"));
        });
        assertEquals("data", get(Keyspace.DATA, "k"));
        assertEquals("catalog", get(Keyspace.CATALOG, "k"));
        assertEquals("log", get(Keyspace.CHANGELOG, "k"));
        commit(wb -> wb.deleteRange(Keyspace.CHANGELOG, b(""), b("z")));
        assertEquals(List.of("k=data"), scanAll(Keyspace.DATA, "", "z"));
        assertEquals(List.of(), scanAll(Keyspace.CHANGELOG, "", "z"));
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
        byte[][] keys = {
            {0x01},
            {0x01, 0x00},
            {0x01, (byte) 0xff},
            {0x02},
            {(byte) 0x7f},
            {(byte) 0x80},
            {(byte) 0xff},
            {(byte) 0xff, 0x00}
        };
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
    void existsSeesThisBuffersLastWriteOverCommitted() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.put(Keyspace.DATA, b("b"), b("2"));
        });
        try (WriteBuffer wb = store.newWriteBuffer()) {
            assertTrue(wb.exists(Keyspace.DATA, b("a")), "an untouched committed key exists");
            assertFalse(wb.exists(Keyspace.DATA, b("c")));
            wb.put(Keyspace.DATA, b("a"), b("11"));
            wb.delete(Keyspace.DATA, b("b"));
            wb.put(Keyspace.DATA, b("c"), b("3"));
            assertTrue(wb.exists(Keyspace.DATA, b("a")));
            assertFalse(wb.exists(Keyspace.DATA, b("b")), "a buffered delete hides the committed key");
            assertTrue(wb.exists(Keyspace.DATA, b("c")), "a buffered put exists before commit");
            assertFalse(wb.exists(Keyspace.DATA, b("d")));
            assertFalse(wb.exists(Keyspace.CATALOG, b("a")), "keyspaces are separate");
            assertFalse(wb.exists(Keyspace.CATALOG, b("c")), "keyspaces are separate");
            // the last write to a key wins, in both directions, also after a lookup has been made
            wb.put(Keyspace.DATA, b("b"), b("22"));
            assertTrue(wb.exists(Keyspace.DATA, b("b")));
            wb.delete(Keyspace.DATA, b("c"));
            assertFalse(wb.exists(Keyspace.DATA, b("c")));
            wb.delete(Keyspace.DATA, b("b"));
            wb.put(Keyspace.DATA, b("c"), b("33"));
            wb.delete(Keyspace.DATA, b("c"));
            wb.put(Keyspace.DATA, b("c"), b("333"));
            assertFalse(wb.exists(Keyspace.DATA, b("b")));
            assertTrue(wb.exists(Keyspace.DATA, b("c")));
            // a key the buffer never wrote falls through to the latest committed state
            commit(other -> other.put(Keyspace.DATA, b("d"), b("4")));
            assertTrue(wb.exists(Keyspace.DATA, b("d")));
            // nothing is visible to readers until commit
            assertEquals(List.of("a=1", "b=2", "d=4"), scanAll(Keyspace.DATA, "", "z"));
            store.commit(store.committedEpoch() + 1, wb);
        }
        assertEquals(List.of("a=11", "c=333", "d=4"), scanAll(Keyspace.DATA, "", "z"));
    }

    @Test
    void existAllAgreesWithExists() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("committed"), b("c"));
            wb.put(Keyspace.DATA, b("deleted"), b("d"));
            wb.put(Keyspace.CATALOG, b("catalogOnly"), b("x"));
        });
        try (WriteBuffer wb = store.newWriteBuffer()) {
            List<byte[]> keys = List.of(
                    b("committed"), b("deleted"), b("new"), b("missing"), b("catalogOnly"), b("committed"), b("new"));
            // before any write: only the committed state answers
            assertArrayEquals(
                    new boolean[] {true, true, false, false, false, true, false}, wb.existAll(Keyspace.DATA, keys));
            wb.delete(Keyspace.DATA, b("deleted"));
            wb.put(Keyspace.DATA, b("new"), b("n"));
            boolean[] all = wb.existAll(Keyspace.DATA, keys);
            assertArrayEquals(new boolean[] {true, false, true, false, false, true, true}, all);
            for (int i = 0; i < keys.size(); i++) {
                assertEquals(wb.exists(Keyspace.DATA, keys.get(i)), all[i], "key " + s(keys.get(i)));
            }
            assertArrayEquals(
                    new boolean[] {false, false, false, false, true, false, false},
                    wb.existAll(Keyspace.CATALOG, keys));
            assertArrayEquals(new boolean[0], wb.existAll(Keyspace.DATA, List.of()));
        }
    }

    @Test
    void existAllFindsOneCommittedKeyAmongManyAbsentOnes() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("k00500"), b("c"));
            wb.put(Keyspace.DATA, b("z"), b("c"));
        });
        List<byte[]> around = new ArrayList<>();
        List<byte[]> past = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            around.add(b(String.format("k%05d", 999 - i)));
            past.add(b(String.format("k%05d", 1000 + i)));
        }
        try (WriteBuffer wb = store.newWriteBuffer()) {
            boolean[] found = wb.existAll(Keyspace.DATA, around);
            for (int i = 0; i < found.length; i++) {
                assertEquals(999 - i == 500, found[i], "key " + (999 - i));
            }
            boolean[] none = wb.existAll(Keyspace.DATA, past);
            for (int i = 0; i < none.length; i++) {
                assertFalse(none[i], "key " + (1000 + i));
            }
        }
    }

    @Test
    void existAllOverMoreThan4096Keys() {
        int n = 10_000;
        // committed: every even key
        commit(wb -> {
            for (int i = 0; i < n; i += 2) {
                wb.put(Keyspace.DATA, b(String.format("k%05d", i)), b("c"));
            }
        });
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(b(String.format("k%05d", i)));
        }
        try (WriteBuffer wb = store.newWriteBuffer()) {
            // an empty buffer: every answer comes from the committed state, in several batched reads
            boolean[] committedOnly = wb.existAll(Keyspace.DATA, keys);
            assertEquals(n, committedOnly.length);
            for (int i = 0; i < n; i++) {
                assertEquals(i % 2 == 0, committedOnly[i], "key " + i);
            }
            // buffer deletes every key divisible by 3 and puts every key divisible by 5
            for (int i = 0; i < n; i += 3) {
                wb.delete(Keyspace.DATA, keys.get(i));
            }
            for (int i = 0; i < n; i += 5) {
                wb.put(Keyspace.DATA, keys.get(i), b("p"));
            }
            boolean[] all = wb.existAll(Keyspace.DATA, keys);
            assertEquals(n, all.length);
            int untouched = 0;
            for (int i = 0; i < n; i++) {
                boolean expected = i % 5 == 0 || (i % 3 != 0 && i % 2 == 0);
                assertEquals(expected, all[i], "key " + i);
                untouched += i % 3 != 0 && i % 5 != 0 ? 1 : 0;
            }
            assertTrue(untouched > 4096, "keys answered by the committed state span more than one batch: " + untouched);
        }
    }

    @Test
    void writesApplyInOrderAtCommit() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("b"), b("committed"));
            wb.put(Keyspace.DATA, b("d"), b("committed"));
        });
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.put(Keyspace.DATA, b("a"), b("2"));
            wb.delete(Keyspace.DATA, b("b"));
            wb.put(Keyspace.DATA, b("b"), b("3"));
            wb.put(Keyspace.DATA, b("c"), b("4"));
            wb.delete(Keyspace.DATA, b("c"));
            wb.put(Keyspace.DATA, b("d"), b("5"));
            wb.delete(Keyspace.DATA, b("d"));
        });
        assertEquals(List.of("a=2", "b=3"), scanAll(Keyspace.DATA, "", "z"));
    }

    @Test
    void savePointRollbackUndoesPutsAndDeletes() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.put(Keyspace.DATA, b("b"), b("2"));
        });
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.DATA, b("kept"), b("k"));
            wb.delete(Keyspace.DATA, b("b"));
            long sizeAtSavePoint = wb.size();
            wb.setSavePoint();
            wb.put(Keyspace.DATA, b("kept"), b("overwritten"));
            wb.put(Keyspace.DATA, b("gone"), b("g"));
            wb.delete(Keyspace.DATA, b("a"));
            wb.put(Keyspace.DATA, b("b"), b("back"));
            wb.delete(Keyspace.DATA, b("kept"));
            wb.rollbackToSavePoint();
            assertEquals(sizeAtSavePoint, wb.size());
            assertTrue(wb.exists(Keyspace.DATA, b("kept")), "the put before the save point survives");
            assertFalse(wb.exists(Keyspace.DATA, b("gone")), "a put after the save point is undone");
            assertTrue(wb.exists(Keyspace.DATA, b("a")), "a delete after the save point is undone");
            assertFalse(wb.exists(Keyspace.DATA, b("b")), "the delete before the save point survives");
            store.commit(store.committedEpoch() + 1, wb);
        }
        assertEquals(List.of("a=1", "kept=k"), scanAll(Keyspace.DATA, "", "z"));
    }

    @Test
    void savePointRollbackAfterLookupsRestoresTheIndex() {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.DATA, b("x"), b("x"));
            wb.setSavePoint();
            wb.delete(Keyspace.DATA, b("x"));
            wb.delete(Keyspace.DATA, b("a"));
            wb.put(Keyspace.DATA, b("y"), b("y"));
            // lookups in the middle of the save point, then more writes after them
            assertFalse(wb.exists(Keyspace.DATA, b("x")));
            assertArrayEquals(new boolean[] {false, true}, wb.existAll(Keyspace.DATA, List.of(b("a"), b("y"))));
            wb.put(Keyspace.DATA, b("x"), b("again"));
            wb.put(Keyspace.DATA, b("z"), b("z"));
            assertTrue(wb.exists(Keyspace.DATA, b("z")));
            wb.put(Keyspace.DATA, b("w"), b("w"));
            wb.rollbackToSavePoint();
            assertArrayEquals(
                    new boolean[] {true, true, false, false, false},
                    wb.existAll(Keyspace.DATA, List.of(b("x"), b("a"), b("y"), b("z"), b("w"))));
            store.commit(store.committedEpoch() + 1, wb);
        }
        assertEquals(List.of("a=1", "x=x"), scanAll(Keyspace.DATA, "", "z"));
    }

    @Test
    void releaseSavePointKeepsWrites() {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.setSavePoint();
            wb.put(Keyspace.DATA, b("released"), b("r"));
            wb.delete(Keyspace.DATA, b("a"));
            wb.releaseSavePoint();
            assertEquals(2, wb.size());
            assertTrue(wb.exists(Keyspace.DATA, b("released")));
            assertFalse(wb.exists(Keyspace.DATA, b("a")));
            // a later save point rolls back only to itself, not past the released one
            wb.setSavePoint();
            wb.put(Keyspace.DATA, b("later"), b("l"));
            assertTrue(wb.exists(Keyspace.DATA, b("later")));
            wb.rollbackToSavePoint();
            assertEquals(2, wb.size());
            assertTrue(wb.exists(Keyspace.DATA, b("released")));
            assertFalse(wb.exists(Keyspace.DATA, b("a")));
            assertFalse(wb.exists(Keyspace.DATA, b("later")));
            // and a released save point with lookups made under it keeps those writes too
            wb.setSavePoint();
            wb.put(Keyspace.DATA, b("kept"), b("k"));
            assertTrue(wb.exists(Keyspace.DATA, b("kept")));
            wb.releaseSavePoint();
            wb.setSavePoint();
            wb.rollbackToSavePoint();
            assertTrue(wb.exists(Keyspace.DATA, b("kept")));
            store.commit(store.committedEpoch() + 1, wb);
        }
        assertEquals(List.of("kept=k", "released=r"), scanAll(Keyspace.DATA, "", "z"));
    }

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
    void savePointRollbackKeepsDeleteRangeMadeBeforeIt() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("b"), b("2"));
            wb.put(Keyspace.DATA, b("x"), b("9"));
        });
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.deleteRange(Keyspace.DATA, b("a"), b("c"));
            wb.setSavePoint();
            wb.deleteRange(Keyspace.DATA, b("w"), b("y"));
            wb.rollbackToSavePoint();
            assertEquals(1, wb.size());
            store.commit(store.committedEpoch() + 1, wb);
        }
        assertEquals(List.of("x=9"), scanAll(Keyspace.DATA, "", "z"));
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
        assertEquals(
                List.of("t1/a=old", "t1/b=old", "t1/c=new", "t2/z=put after range delete", "t3/a=new"),
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
    void writeAppliesOutsideTheEpochsAndPersists() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.put(Keyspace.DATA, b("b"), b("2"));
        });
        long committed = store.committedEpoch();
        try (ReadView before = store.snapshot();
                WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.DATA, b("d"), b("first"));
            wb.put(Keyspace.DATA, b("c"), b("3"));
            wb.delete(Keyspace.DATA, b("a"));
            wb.put(Keyspace.DATA, b("d"), b("4"));
            wb.put(Keyspace.DATA, b("e"), b("gone"));
            wb.delete(Keyspace.DATA, b("e"));
            store.write(wb);
            assertEquals(
                    List.of("a=1", "b=2"),
                    scan(before, Keyspace.DATA, b(""), b("z")),
                    "a snapshot taken before the write does not see it");
        }
        assertEquals(committed, store.committedEpoch());
        assertEquals(List.of("b=2", "c=3", "d=4"), scanAll(Keyspace.DATA, "", "z"));
        // an epoch committed after the write overrides it, and both survive a reopen
        commit(wb -> wb.put(Keyspace.DATA, b("c"), b("5")));
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.DATA, b("f"), b("6"));
            wb.put(Keyspace.CATALOG, b("t"), b("def"));
            store.write(wb);
        }
        store.close();
        store = null;
        store = open(dir);
        assertEquals(List.of("b=2", "c=5", "d=4", "f=6"), scanAll(Keyspace.DATA, "", "z"));
        assertEquals("def", get(Keyspace.CATALOG, "t"));
    }

    /**
     * A backfill checkpoint's keys share long prefixes (table id, vnode, leading key columns) and
     * differ in length; the write must still keep exactly the last write of each key, in unsigned
     * key order. Keys here are short, over a small alphabet that includes 0x00 (so a key and the
     * same key followed by zero bytes both occur), with many rewrites and deletes.
     */
    @Test
    void writeKeepsTheLastWriteOfEachOfManyKeysSharingLongPrefixes() {
        java.util.Random random = new java.util.Random(42);
        java.util.TreeMap<byte[], byte[]> expected = new java.util.TreeMap<>(java.util.Arrays::compareUnsigned);
        byte[] alphabet = {0x00, 0x01, 0x7f, (byte) 0x80, (byte) 0xff};
        try (WriteBuffer wb = store.newWriteBuffer()) {
            for (int i = 0; i < 20_000; i++) {
                byte[] key = new byte[1 + random.nextInt(22)];
                key[0] = 0x10;
                for (int j = 1; j < key.length; j++) {
                    key[j] = j < 14 && random.nextInt(4) > 0 ? 0x00 : alphabet[random.nextInt(alphabet.length)];
                }
                if (random.nextInt(5) == 0) {
                    wb.delete(Keyspace.DATA, key);
                    expected.remove(key);
                } else {
                    byte[] value = b("v" + i);
                    wb.put(Keyspace.DATA, key, value);
                    expected.put(key, value);
                }
            }
            store.write(wb);
        }
        List<String> want = new ArrayList<>();
        expected.forEach((k, v) ->
                want.add(java.util.HexFormat.of().formatHex(k) + "=" + new String(v, StandardCharsets.UTF_8)));
        List<String> got = new ArrayList<>();
        try (ReadView v = store.latest();
                KvIterator it = v.scan(Keyspace.DATA, new byte[] {0x10}, new byte[] {0x11})) {
            while (it.next()) {
                got.add(java.util.HexFormat.of().formatHex(it.key()) + "="
                        + new String(it.value(), StandardCharsets.UTF_8));
            }
        }
        assertEquals(want, got);
    }

    @Test
    void getAllAnswersAsGetOfEachKeyInOrder() {
        commit(wb -> {
            for (int i = 0; i < 5000; i += 3) {
                wb.put(Keyspace.DATA, b("k" + i), b("v" + i));
            }
        });
        List<byte[]> keys = new ArrayList<>();
        for (int i = 4999; i >= 0; i--) {
            keys.add(b("k" + i));
        }
        keys.add(b("k3"));
        try (ReadView v = store.latest()) {
            List<byte[]> values = v.getAll(Keyspace.DATA, keys);
            assertEquals(keys.size(), values.size());
            for (int i = 0; i < keys.size(); i++) {
                assertArrayEquals(v.get(Keyspace.DATA, keys.get(i)), values.get(i));
            }
            assertEquals(List.of(), v.getAll(Keyspace.CATALOG, List.of()));
        }
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

    /** Everything {@code name} holds in {@code ks}, as key=value strings; fails when the pin is missing. */
    protected List<String> pinnedScan(String name, Keyspace ks) {
        try (ReadView v = store.openPinned(name).orElseThrow()) {
            return scan(v, ks, b(""), b("z"));
        }
    }

    @Test
    void pinHoldsTheEpochCommittedJustBeforeIt() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.put(Keyspace.CATALOG, b("c"), b("cat"));
            wb.put(Keyspace.CHANGELOG, b("l"), b("log"));
        });
        long pinnedEpoch = store.committedEpoch();
        PinnedSnapshot pin = store.pin("p");
        assertEquals(new PinnedSnapshot("p", pinnedEpoch), pin);
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("2"));
            wb.put(Keyspace.DATA, b("b"), b("new"));
            wb.delete(Keyspace.CATALOG, b("c"));
            wb.deleteRange(Keyspace.CHANGELOG, b(""), b("z"));
        });
        assertEquals(List.of("a=1"), pinnedScan("p", Keyspace.DATA));
        assertEquals(List.of("l=log"), pinnedScan("p", Keyspace.CHANGELOG));
        try (ReadView v = store.openPinned("p").orElseThrow()) {
            assertEquals("1", s(v.get(Keyspace.DATA, b("a"))));
            assertNull(v.get(Keyspace.DATA, b("b")));
            assertEquals("cat", s(v.get(Keyspace.CATALOG, b("c"))));
        }
        assertNull(get(Keyspace.CATALOG, "c"));
        assertEquals(List.of("a=2", "b=new"), scanAll(Keyspace.DATA, "", "z"), "the store itself moved on");
        assertEquals(List.of("p"), store.pinned());
    }

    @Test
    void pinSurvivesReopen() {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("pinned")));
        PinnedSnapshot pin = store.pin("job-1_snapshot");
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("later")));
        store.close();
        store = null;
        store = open(dir);
        assertEquals(List.of("job-1_snapshot"), store.pinned());
        assertEquals(List.of("a=pinned"), pinnedScan(pin.name(), Keyspace.DATA));
        assertEquals("later", get(Keyspace.DATA, "a"));
        // the store keeps committing, and the pin keeps its state, through a second restart
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("latest")));
        store.close();
        store = open(dir);
        assertEquals(List.of("a=pinned"), pinnedScan(pin.name(), Keyspace.DATA));
        store.unpin(pin.name());
        assertEquals(List.of(), store.pinned());
        store.close();
        store = open(dir);
        assertEquals(List.of(), store.pinned());
        assertEquals(Optional.empty(), store.openPinned(pin.name()));
        assertEquals("latest", get(Keyspace.DATA, "a"));
    }

    @Test
    void unpinRemovesThePinAndFreesItsName() {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        store.pin("p");
        store.unpin("p");
        assertEquals(List.of(), store.pinned());
        assertEquals(Optional.empty(), store.openPinned("p"));
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("2")));
        PinnedSnapshot again = store.pin("p");
        assertEquals(store.committedEpoch(), again.epoch());
        assertEquals(List.of("a=2"), pinnedScan("p", Keyspace.DATA));
    }

    @Test
    void unpinWhileReadKeepsOpenViewsWorkingUntilTheyClose() {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("1"));
            wb.put(Keyspace.DATA, b("b"), b("2"));
        });
        store.pin("p");
        ReadView first = store.openPinned("p").orElseThrow();
        ReadView second = store.openPinned("p").orElseThrow();
        KvIterator it = first.scan(Keyspace.DATA, b(""), b("z"));
        first.close();
        store.unpin("p");
        assertEquals(List.of(), store.pinned(), "an unpinned pin is gone at once");
        assertEquals(Optional.empty(), store.openPinned("p"));
        assertThrows(IllegalStateException.class, () -> store.pin("p"), "its name is taken while it is read");
        // an iterator outliving its view, and another view, still read the pinned state
        assertTrue(it.next());
        assertEquals("a", s(it.key()));
        assertEquals("2", s(second.get(Keyspace.DATA, b("b"))));
        it.close();
        assertEquals(List.of("a=1", "b=2"), scan(second, Keyspace.DATA, b(""), b("z")));
        assertThrows(IllegalStateException.class, () -> store.pin("p"));
        second.close();
        commit(wb -> wb.put(Keyspace.DATA, b("c"), b("3")));
        store.pin("p");
        assertEquals(List.of("a=1", "b=2", "c=3"), pinnedScan("p", Keyspace.DATA));
    }

    @Test
    void pinsAreIndependent() {
        commit(wb -> wb.put(Keyspace.DATA, b("k"), b("1")));
        PinnedSnapshot one = store.pin("one");
        commit(wb -> wb.put(Keyspace.DATA, b("k"), b("2")));
        PinnedSnapshot two = store.pin("two");
        assertTrue(two.epoch() > one.epoch());
        commit(wb -> wb.put(Keyspace.DATA, b("k"), b("3")));
        PinnedSnapshot zero = store.pin("a-zero");
        assertEquals(List.of("a-zero", "one", "two"), store.pinned());
        assertEquals(List.of("k=1"), pinnedScan(one.name(), Keyspace.DATA));
        assertEquals(List.of("k=2"), pinnedScan(two.name(), Keyspace.DATA));
        assertEquals(List.of("k=3"), pinnedScan(zero.name(), Keyspace.DATA));
        store.unpin("one");
        assertEquals(List.of("a-zero", "two"), store.pinned());
        assertEquals(List.of("k=2"), pinnedScan(two.name(), Keyspace.DATA));
    }

    @Test
    void pinNamesAreCheckedAndUnknownPinsAreAbsent() {
        for (String bad : new String[] {"", "a/b", "..", "x.tmp", "sp ace", "\u00e9", "a".repeat(129)}) {
            assertThrows(IllegalArgumentException.class, () -> store.pin(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> store.pin(null));
        store.pin("a".repeat(128));
        store.pin("ok");
        assertThrows(IllegalStateException.class, () -> store.pin("ok"), "a name is pinned once");
        assertEquals(Optional.empty(), store.openPinned("missing"));
        store.unpin("missing");
        assertEquals(List.of("a".repeat(128), "ok"), store.pinned());
    }
}
