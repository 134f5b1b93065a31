package io.tributary.meta.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.TributaryException;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.rocksdb.RocksStateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's state taken over as ingested files holds exactly what writing the same pairs one by
 * one in order gives: tables staged out of id order, a key that does not ascend (the later pair
 * wins), and nothing of a state that holds a key of another table.
 */
class WorkerStateFilesTest {
    private static final int VIEW = 40;
    private static final int STATE = 12;
    private static final int[] TABLES = {VIEW, STATE};

    @TempDir
    Path dir;

    @Test
    void ingestedStateEqualsThePairsWrittenInOrder() {
        List<byte[][]> pairs = new ArrayList<>();
        // the view's table first (id 40), then its state table (id 12): not in key order across tables
        for (int i = 0; i < 300; i++) {
            pairs.add(pair(VIEW, i, "v" + i));
        }
        for (int i = 0; i < 200; i++) {
            pairs.add(pair(STATE, i, "s" + i));
        }
        // a key again, out of order: the later value wins, as with row writes
        pairs.add(pair(VIEW, 7, "again"));
        try (StateStore files = RocksStateStore.open(dir.resolve("files"));
                StateStore rows = RocksStateStore.open(dir.resolve("rows"))) {
            try (WorkerStateFiles state = new WorkerStateFiles(files, "v", TABLES)) {
                assertTrue(state.available());
                for (byte[][] p : pairs) {
                    state.accept(p[0], p[1]);
                }
                assertEquals(pairs.size(), state.ingest());
            }
            io.tributary.storage.WriteBuffer buffer = rows.newWriteBuffer();
            for (byte[][] p : pairs) {
                buffer.put(Keyspace.DATA, p[0], p[1]);
            }
            rows.write(buffer);
            assertEquals(contents(rows), contents(files));
            assertEquals(500, contents(files).size());
        }
        assertTrue(leftoverSstFiles().isEmpty(), "no file is left outside the store: " + leftoverSstFiles());
    }

    @Test
    void aKeyOfAnotherTableTakesNothingOver() {
        try (StateStore store = RocksStateStore.open(dir.resolve("s"))) {
            try (WorkerStateFiles state = new WorkerStateFiles(store, "v", TABLES)) {
                state.accept(pair(VIEW, 1, "a")[0], pair(VIEW, 1, "a")[1]);
                TributaryException e = assertThrows(
                        TributaryException.class, () -> state.accept(pair(99, 1, "x")[0], pair(99, 1, "x")[1]));
                assertEquals("22023", e.sqlState());
                assertThrows(TributaryException.class, () -> state.accept(pair(VIEW, 2, "b")[0], null));
            }
            assertTrue(contents(store).isEmpty());
        }
        assertTrue(leftoverSstFiles().isEmpty(), "the files not ingested are deleted: " + leftoverSstFiles());
    }

    private static byte[][] pair(int table, int row, String value) {
        byte[] pk = java.nio.ByteBuffer.allocate(8).putLong(row).array();
        return new byte[][] {TableKeys.rowKey(table, pk), value.getBytes(java.nio.charset.StandardCharsets.UTF_8)};
    }

    private static List<String> contents(StateStore store) {
        List<String> out = new ArrayList<>();
        try (ReadView view = store.latest();
                KvIterator it = view.scan(Keyspace.DATA, TableKeys.tableStart(0), TableKeys.tableEnd(1000))) {
            while (it.next()) {
                out.add(HexFormat.of().formatHex(it.key()) + "=" + new String(it.value()));
            }
        }
        return out;
    }

    /** Sorted files the stores' ingest directories still hold after the takeover. */
    private List<Path> leftoverSstFiles() {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("sorted"))
                    .toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
