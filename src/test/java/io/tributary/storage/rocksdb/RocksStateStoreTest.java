package io.tributary.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.SortedFile;
import io.tributary.storage.StateStore;
import io.tributary.storage.StateStoreContractTest;
import io.tributary.storage.WriteBuffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;

class RocksStateStoreTest extends StateStoreContractTest {
    @Override
    protected StateStore open(Path dir) {
        return RocksStateStore.open(dir.resolve("rocks"));
    }

    private Path pins() {
        return dir.resolve("rocks.pins");
    }

    @Test
    void pinsLiveBesideTheStoreAndUnpinDeletesTheirFiles() throws IOException {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        store.pin("p");
        Path pin = pins().resolve("p");
        assertTrue(Files.isDirectory(pin));
        try (Stream<Path> files = Files.list(pin)) {
            assertTrue(files.anyMatch(f -> f.toString().endsWith(".sst")), "the flushed data is in the pin");
        }
        store.unpin("p");
        assertFalse(Files.exists(pin));
        assertEquals(List.of(), listNames(pins()));
    }

    /**
     * The pin's SST files are hard links: once the store compacted its own data away, they are the
     * only thing holding it, and unpinning gives the space back.
     */
    @Test
    void unpinReleasesStorageOnlyThePinHeld() throws Exception {
        Random random = new Random(7);
        int rows = 4000;
        commit(wb -> {
            for (int i = 0; i < rows; i++) {
                byte[] value = new byte[1024];
                random.nextBytes(value); // incompressible, so the bytes on disk are predictable
                wb.put(Keyspace.DATA, b(String.format("k%05d", i)), value);
            }
        });
        store.pin("p");
        commit(wb -> wb.deleteRange(Keyspace.DATA, b("k"), b("l")));
        RocksStateStore rocks = (RocksStateStore) store;
        rocks.db().compactRange(rocks.handle(Keyspace.DATA));
        long held = diskUsage();
        store.unpin("p");
        long released = held - diskUsage();
        assertTrue(released >= rows * 1024L, "unpinning released " + released + " of " + held + " bytes");
    }

    /**
     * A pin is read by bulk copies (a backfill's snapshot, a sink's), each block once: its scans
     * leave the shared block cache to the live store, while the live store's own scans still fill
     * it.
     */
    @Test
    void scansOfAPinDoNotFillTheBlockCache() throws Exception {
        Random random = new Random(11);
        int rows = 4000;
        commit(wb -> {
            for (int i = 0; i < rows; i++) {
                byte[] value = new byte[1024];
                random.nextBytes(value); // incompressible: the blocks hold about 4 MB
                wb.put(Keyspace.DATA, b(String.format("k%05d", i)), value);
            }
        });
        store.pin("p");
        long before = store.stats().blockCacheBytes();
        int read = 0;
        try (ReadView view = store.openPinned("p").orElseThrow();
                KvIterator it = view.scan(Keyspace.DATA, b("k"), b("l"))) {
            while (it.next()) {
                read++;
            }
        }
        assertEquals(rows, read);
        long grown = store.stats().blockCacheBytes() - before;
        assertTrue(grown < rows * 1024L / 8, "a scan of the pin cached " + grown + " bytes");
        try (ReadView view = store.latest();
                KvIterator it = view.scan(Keyspace.DATA, b("k"), b("l"))) {
            while (it.next()) {
                read++;
            }
        }
        assertTrue(
                store.stats().blockCacheBytes() - before >= rows * 1024L / 2,
                "the live store's scan fills the cache as before");
    }

    /**
     * A worker reads an exported snapshot one piece per statement, each piece a view of its own:
     * the pin's database is opened once for all of them (also for views open side by side), a pin
     * read before and unread now is deleted at once when unpinned, and a pin pinned again under the
     * same name is a new database holding the new state.
     */
    @Test
    void viewsOfAPinInTurnShareOneOpeningOfItsDatabase() throws IOException {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        store.pin("p");
        RocksStateStore rocks = (RocksStateStore) store;
        long before = rocks.pinDatabaseOpens();
        for (int piece = 0; piece < 5; piece++) {
            try (ReadView view = store.openPinned("p").orElseThrow();
                    KvIterator it = view.scan(Keyspace.DATA, b(""), b("z"))) {
                assertTrue(it.next());
                assertEquals("1", s(it.value()));
            }
        }
        try (ReadView one = store.openPinned("p").orElseThrow();
                ReadView two = store.openPinned("p").orElseThrow()) {
            assertEquals("1", s(one.get(Keyspace.DATA, b("a"))));
            assertEquals("1", s(two.get(Keyspace.DATA, b("a"))));
        }
        assertEquals(before + 1, rocks.pinDatabaseOpens(), "one opening for seven views");
        store.unpin("p");
        assertFalse(Files.exists(pins().resolve("p")), "read by no one: deleted at unpin");
        assertEquals(List.of(), listNames(pins()));
        assertEquals(List.of(), store.pinned());
        assertTrue(store.openPinned("p").isEmpty());
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("2")));
        store.pin("p");
        try (ReadView view = store.openPinned("p").orElseThrow()) {
            assertEquals("2", s(view.get(Keyspace.DATA, b("a"))), "the new pin, not the old database");
        }
        assertEquals(before + 2, rocks.pinDatabaseOpens());
    }

    /**
     * A pin unpinned while read (its database kept open from earlier views) stays on disk, unlisted
     * and not openable, until its last view and iterator close, and is deleted then.
     */
    @Test
    void anUnpinnedPinIsDeletedOnceItsLastReaderCloses() throws IOException {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        store.pin("p");
        try (ReadView earlier = store.openPinned("p").orElseThrow()) {
            assertEquals("1", s(earlier.get(Keyspace.DATA, b("a"))));
        }
        ReadView view = store.openPinned("p").orElseThrow();
        KvIterator it = view.scan(Keyspace.DATA, b(""), b("z"));
        store.unpin("p");
        assertTrue(Files.isDirectory(pins().resolve("p")), "still read: its files stay");
        assertEquals(List.of(), store.pinned());
        assertTrue(store.openPinned("p").isEmpty(), "unpinned: no new view");
        view.close();
        assertTrue(Files.isDirectory(pins().resolve("p")), "an iterator still reads it");
        assertTrue(it.next());
        assertEquals("1", s(it.value()));
        it.close();
        assertFalse(Files.exists(pins().resolve("p")), "deleted with its last reader");
        assertEquals(List.of(), listNames(pins()));
    }

    /** Closing the store closes a pin's database kept open between views; the pin itself stays. */
    @Test
    void aPinKeptOpenBetweenViewsOutlivesTheStoresClose() {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        store.pin("p");
        try (ReadView view = store.openPinned("p").orElseThrow()) {
            assertEquals("1", s(view.get(Keyspace.DATA, b("a"))));
        }
        store.close();
        store = open(dir);
        assertEquals(List.of("p"), store.pinned());
        try (ReadView view = store.openPinned("p").orElseThrow()) {
            assertEquals("1", s(view.get(Keyspace.DATA, b("a"))));
        }
        store.unpin("p");
        assertFalse(Files.exists(pins().resolve("p")));
    }

    @Test
    void aPinUnpinnedWhileReadIsDeletedAtTheNextOpenIfTheProcessEndsFirst() {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        store.pin("p");
        ReadView view = store.openPinned("p").orElseThrow();
        KvIterator it = view.scan(Keyspace.DATA, b(""), b("z"));
        store.unpin("p");
        assertTrue(Files.isDirectory(pins().resolve("p")), "still read: its files stay");
        store.close();
        store = null;
        // a reader that outlives the store still reads safely, and lets go of the pin when it closes
        assertTrue(it.next());
        assertEquals("1", s(it.value()));
        it.close();
        view.close();
        store = open(dir);
        assertFalse(Files.exists(pins().resolve("p")));
        assertEquals(List.of(), store.pinned());
    }

    @Test
    void whatACrashLeftOfPinsIsCleanedAtOpen() throws IOException {
        commit(wb -> wb.put(Keyspace.DATA, b("a"), b("1")));
        store.pin("kept");
        store.pin("marked");
        store.close();
        store = null;
        // a checkpoint RocksDB was still staging, a pin half deleted, a pin unpinned while it was read
        Files.createDirectories(pins().resolve("staging.tmp"));
        Files.write(pins().resolve("staging.tmp").resolve("000001.sst"), new byte[10]);
        Files.createDirectories(pins().resolve("gone.deleting"));
        Files.write(pins().resolve("gone.deleting").resolve("CURRENT"), new byte[10]);
        Files.write(pins().resolve("marked").resolve("UNPINNED"), new byte[0]);
        store = open(dir);
        assertEquals(List.of("kept"), listNames(pins()));
        assertEquals(List.of("kept"), store.pinned());
        try (ReadView v = store.openPinned("kept").orElseThrow()) {
            assertEquals("1", s(v.get(Keyspace.DATA, b("a"))));
        }
    }

    @Test
    void aStoreMadeBeforeTheChangeLogKeyspaceOpensAndGainsIt() throws Exception {
        store.close();
        store = null;
        Path old = dir.resolve("old");
        Files.createDirectories(old);
        try (DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)) {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            try (RocksDB db = RocksDB.open(
                    options,
                    old.toString(),
                    List.of(
                            new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                            new ColumnFamilyDescriptor("catalog".getBytes(StandardCharsets.UTF_8))),
                    handles)) {
                db.put(handles.get(0), b("row"), b("data"));
                db.put(handles.get(1), b("table"), b("def"));
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
        store = RocksStateStore.open(old);
        assertEquals("data", get(Keyspace.DATA, "row"));
        assertEquals("def", get(Keyspace.CATALOG, "table"));
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.put(Keyspace.CHANGELOG, b("log"), b("entry"));
            store.commit(1, wb);
        }
        store.close();
        store = RocksStateStore.open(old);
        assertEquals("entry", get(Keyspace.CHANGELOG, "log"));
        assertEquals("data", get(Keyspace.DATA, "row"));
    }

    /**
     * A write with sorted files applies the files in list order, then the buffer, atomically: where
     * they overlap the later one wins (RocksDB gives each file of one ingestion its own sequence
     * number; a RocksDB that stopped doing so fails here), and the files' names are gone after.
     */
    @Test
    void sortedFilesApplyInOrderBeforeTheBuffer() throws IOException {
        commit(wb -> {
            wb.put(Keyspace.DATA, b("a"), b("old"));
            wb.put(Keyspace.DATA, b("c"), b("old"));
        });
        SortedFile first = sorted("b=1", "c=1", "d=1", "e=1");
        SortedFile second = sorted("a=2", "d=2", "z=2");
        try (WriteBuffer wb = store.newWriteBuffer()) {
            wb.delete(Keyspace.DATA, b("e"));
            wb.put(Keyspace.DATA, b("b"), b("3"));
            store.write(wb, List.of(first, second));
        }
        first.close();
        second.close();
        try (ReadView v = store.snapshot()) {
            assertEquals(List.of("a=2", "b=3", "c=1", "d=2", "z=2"), scan(v, Keyspace.DATA, b("a"), b("zz")));
        }
        assertEquals(List.of(), listNames(dir.resolve("rocks.ingest")));
    }

    /** Files alone (nothing else written) are ingested too; a file closed unwritten leaves nothing behind. */
    @Test
    void sortedFilesWithAnEmptyBufferAndAbandonedFiles() throws IOException {
        SortedFile only = sorted("k=1", "l=1");
        SortedFile abandoned = sorted("m=1");
        try (WriteBuffer wb = store.newWriteBuffer()) {
            store.write(wb, List.of(only));
        }
        only.close();
        abandoned.close();
        try (ReadView v = store.snapshot()) {
            assertEquals(List.of("k=1", "l=1"), scan(v, Keyspace.DATA, b("a"), b("zz")));
        }
        assertEquals(List.of(), listNames(dir.resolve("rocks.ingest")));
    }

    /** A key not above the last one put is refused, and {@code above} says so beforehand. */
    @Test
    void sortedFileKeysMustAscend() {
        try (SortedFile f = store.newSortedFile()) {
            f.put(b("b"), 1, b("1"));
            assertFalse(f.above(b("b"), 1));
            assertFalse(f.above(b("a"), 1));
            assertTrue(f.above(b("ba"), 2));
            // only the given length counts: "c" of "cz"
            assertTrue(f.above(b("cz"), 1));
            assertThrows(IllegalArgumentException.class, () -> f.put(b("a"), 1, b("1")));
            assertEquals(1, f.pairs());
        }
    }

    /**
     * A finished file read back ({@code forEach}) hands over its pairs in key order, values cut to
     * the length put, and its close leaves no file behind; the store stays unchanged.
     */
    @Test
    void finishedSortedFileReadsBackInKeyOrder() throws IOException {
        SortedFile f = store.newSortedFile();
        f.put(b("a1"), 1, b("1"));
        f.put(b("b"), 1, b("22x"), 2);
        f.put(b("c"), 1, b("3"));
        f.finish();
        List<String> read = new ArrayList<>();
        f.forEach((k, v) ->
                read.add(new String(k, StandardCharsets.UTF_8) + "=" + new String(v, StandardCharsets.UTF_8)));
        f.close();
        assertEquals(List.of("a=1", "b=22", "c=3"), read);
        assertEquals(List.of(), listNames(dir.resolve("rocks.ingest")));
        try (ReadView v = store.snapshot()) {
            assertEquals(List.of(), scan(v, Keyspace.DATA, b("a"), b("zz")));
        }
    }

    /** A finished file of {@code pairs} ("key=value", ascending). */
    private SortedFile sorted(String... pairs) {
        SortedFile f = store.newSortedFile();
        for (String pair : pairs) {
            String[] kv = pair.split("=");
            byte[] key = b(kv[0]);
            f.put(key, key.length, b(kv[1]));
        }
        f.finish();
        return f;
    }

    private static List<String> listNames(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** Bytes of the store and its pins on disk, counting each hard-linked file once. */
    private long diskUsage() throws IOException {
        Map<Object, Long> sizes = new HashMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                sizes.put(Files.getAttribute(f, "unix:ino"), Files.size(f));
            }
        }
        return sizes.values().stream().mapToLong(Long::longValue).sum();
    }
}
