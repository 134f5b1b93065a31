package io.tributary.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.StateStoreContractTest;
import io.tributary.storage.WriteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namespace other than 0 keeps the whole {@link StateStore} contract, and namespaces of one store
 * are apart: keys, committed epochs and pins of one are invisible to another, a dropped namespace
 * comes back empty, and the root record is durable.
 */
class RocksSharedStoreTest extends StateStoreContractTest {
    @TempDir
    Path shared;

    /** The contract, on namespace 5 of a shared store that also holds namespace 0. */
    @Override
    protected StateStore open(Path dir) {
        return RocksSharedStore.open(dir.resolve("rocks")).openNamespace(5, true);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void commit(StateStore store, long epoch, String key, String value) {
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.DATA, bytes(key), bytes(value));
            wb.put(Keyspace.CHANGELOG, bytes(key), bytes(value));
            store.commit(epoch, wb);
        }
    }

    private static byte[] read(StateStore store, Keyspace keyspace, String key) {
        try (ReadView v = store.snapshot()) {
            return v.get(keyspace, bytes(key));
        }
    }

    @Test
    void namespacesAreApartAndDropEmptiesOne() {
        Path dir = shared.resolve("state");
        RocksSharedStore engine = RocksSharedStore.open(dir);
        StateStore zero = engine.openNamespace(0);
        StateStore one = engine.openNamespace(1);
        assertThrows(IllegalStateException.class, () -> engine.openNamespace(1));
        commit(zero, 10, "k", "zero");
        commit(one, 3, "k", "one");
        commit(one, 4, "j", "one");
        assertArrayEquals(bytes("zero"), read(zero, Keyspace.DATA, "k"));
        assertArrayEquals(bytes("one"), read(one, Keyspace.DATA, "k"));
        assertNull(read(zero, Keyspace.CHANGELOG, "j"));
        assertEquals(10, zero.committedEpoch());
        assertEquals(4, one.committedEpoch());
        one.pin("p");
        assertEquals(List.of("p"), one.pinned());
        assertEquals(List.of(), zero.pinned());
        try (ReadView pinned = one.openPinned("p").orElseThrow()) {
            assertArrayEquals(bytes("one"), pinned.get(Keyspace.DATA, bytes("j")));
        }
        engine.writeRoot(bytes("list"));
        assertEquals(List.of(0, 1), engine.namespaces());
        one.close();
        zero.close();
        engine.close();

        RocksSharedStore reopened = RocksSharedStore.open(dir);
        assertArrayEquals(bytes("list"), reopened.readRoot());
        assertEquals(List.of(0, 1), reopened.namespaces());
        StateStore again = reopened.openNamespace(1);
        assertEquals(4, again.committedEpoch());
        again.close();
        reopened.dropNamespace(1);
        assertThrows(IllegalArgumentException.class, () -> reopened.dropNamespace(0));
        assertEquals(List.of(0), reopened.namespaces());
        assertTrue(!Files.exists(reopened.pinsDirectory(1)));
        StateStore fresh = reopened.openNamespace(1);
        assertEquals(0, fresh.committedEpoch());
        assertNull(read(fresh, Keyspace.DATA, "k"));
        fresh.close();
        StateStore zeroAgain = reopened.openNamespace(0);
        assertArrayEquals(bytes("zero"), read(zeroAgain, Keyspace.DATA, "k"));
        zeroAgain.close();
        reopened.close();
    }

    /**
     * Every column family's memtable inserts with a position per table and vnode (see {@link
     * RocksSharedStore#withInsertHints}), as the store's OPTIONS file records; keys shorter than
     * the prefix, keys of one prefix written out of order and rewritten read back as written.
     */
    @Test
    void memtablesInsertWithAHintPerTableAndVnode() throws Exception {
        Path dir = shared.resolve("hinted");
        RocksSharedStore engine = RocksSharedStore.open(dir);
        StateStore zero = engine.openNamespace(0);
        java.util.TreeMap<String, String> model = new java.util.TreeMap<>();
        java.util.Random random = new java.util.Random(7);
        for (int epoch = 1; epoch <= 20; epoch++) {
            try (WriteBuffer wb = zero.newWriteBuffer()) {
                for (int i = 0; i < 200; i++) {
                    int n = random.nextInt(500);
                    // "tbl:" + vnode-like byte pairs: one prefix for many keys, and some short keys
                    String key = n % 50 == 0 ? "k" + n % 7 : "tbl:" + (char) ('a' + n % 3) + "/" + n;
                    if (random.nextInt(4) == 0) {
                        wb.delete(Keyspace.DATA, bytes(key));
                        model.remove(key);
                    } else {
                        String value = epoch + "." + i;
                        wb.put(Keyspace.DATA, bytes(key), bytes(value));
                        model.put(key, value);
                    }
                }
                zero.commit(epoch, wb);
            }
        }
        for (int n = 0; n < 500; n++) {
            for (String key : List.of("k" + n % 7, "tbl:" + (char) ('a' + n % 3) + "/" + n)) {
                byte[] stored = read(zero, Keyspace.DATA, key);
                String expected = model.get(key);
                assertEquals(expected, stored == null ? null : new String(stored, StandardCharsets.UTF_8), key);
            }
        }
        zero.close();
        engine.close();
        List<String> optionFiles;
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            optionFiles = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("OPTIONS-"))
                    .sorted()
                    .toList();
        }
        String options = Files.readString(dir.resolve(optionFiles.get(optionFiles.size() - 1)));
        long families = options.lines().filter(l -> l.startsWith("[CFOptions ")).count();
        long hinted = options.lines()
                .filter(l -> l.strip()
                        .equals("memtable_insert_with_hint_prefix_extractor=rocksdb.FixedPrefix."
                                + io.tributary.storage.TableKeys.PREFIX_LENGTH))
                .count();
        assertTrue(families >= 4, options);
        assertEquals(families, hinted, "column families without the insert hint in\n" + options);
    }
}
