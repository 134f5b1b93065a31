package io.tributary.stream.operators;

import static io.tributary.stream.operators.Rows.row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tributary.batch.Snapshot;
import io.tributary.batch.SnapshotSource;
import io.tributary.batch.TableScan;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.common.types.DataType;
import io.tributary.plan.Field;
import io.tributary.plan.MaterializeNode;
import io.tributary.plan.SourceNode;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.OperatorHarness;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MaterializeOperatorTest {
    private static final int VIEW_ID = 42;
    /** (name TEXT, id BIGINT, amount NUMERIC, n BIGINT) with the key (name, id): a key that is not the first column. */
    private static final List<Field> FIELDS = List.of(
            new Field("name", DataType.TEXT),
            new Field("id", DataType.BIGINT),
            new Field("amount", DataType.NUMERIC),
            new Field("n", DataType.BIGINT));

    private static final int[] KEY = {0, 1};
    private static final MaterializeNode NODE = new MaterializeNode(new SourceNode(7, "t", FIELDS, KEY), VIEW_ID, "v");
    private static final TableDef VIEW = new TableDef(
            VIEW_ID,
            "v",
            FIELDS.stream()
                    .map(f -> new ColumnDef(f.name(), f.type(), false, false))
                    .toList(),
            KEY,
            "CREATE MATERIALIZED VIEW v AS ...",
            RelationKind.MATERIALIZED_VIEW,
            "...",
            new int[] {7},
            new int[0],
            1);

    @TempDir
    Path dir;

    @Test
    void batchReadsTheCommittedViewLikeATable() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> new MaterializeOperator(NODE, view))) {
            h.insert(
                            0,
                            row("a", 1L, new BigDecimal("1.50"), 10L),
                            row("b", 2L, null, 20L),
                            row("c", 3L, new BigDecimal("7"), 30L))
                    .barrier();
            assertEquals(List.of("[a, 1, 1.50, 10]", "[b, 2, null, 20]", "[c, 3, 7, 30]"), scan(h));
            assertEquals(List.of("[a, 1, 1.50, 10]", "[b, 2, null, 20]", "[c, 3, 7, 30]"), h.rows());

            h.delete(0, row("b", 2L, null, 20L))
                    .delete(0, row("c", 3L, new BigDecimal("7"), 30L))
                    .insert(0, row("c", 3L, new BigDecimal("8"), 31L))
                    .barrier();
            assertEquals(List.of("[a, 1, 1.50, 10]", "[c, 3, 8, 31]"), scan(h));
            try (Snapshot s = new SnapshotSource(h.store()).open()) {
                assertArrayEquals(row("c", 3L, new BigDecimal("8"), 31L), s.lookup(VIEW, row("c", 3L)));
                assertNull(s.lookup(VIEW, row("b", 2L)));
            }
        }
    }

    @Test
    void storesAndPassesOnCanonicalValues() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> new MaterializeOperator(NODE, view))) {
            h.insert(0, row("a", 1, 2, 3)).barrier();
            assertEquals(List.of("+[a, 1, 2, 3]"), h.takeEmitted());
            assertEquals(
                    List.of(Arrays.asList("a", 1L, new BigDecimal(2), 3L)),
                    List.copyOf(h.result().keySet()));
            try (Snapshot s = new SnapshotSource(h.store()).open()) {
                assertArrayEquals(row("a", 1L, new BigDecimal(2), 3L), s.lookup(VIEW, row("a", 1L)));
            }
            h.delete(0, row("a", 1, 2, 3)).barrier();
            assertEquals(List.of(), scan(h));
            assertEquals(List.of(), h.rows());
        }
    }

    @Test
    void restoredOperatorContinuesFromTheCommittedRows() {
        try (OperatorHarness h = new OperatorHarness(dir, view -> new MaterializeOperator(NODE, view))) {
            h.insert(0, row("a", 1L, null, 1L), row("b", 2L, null, 2L)).barrier();
            h.insert(0, row("lost", 9L, null, 9L))
                    .delete(0, row("a", 1L, null, 1L))
                    .restore();
            assertEquals(List.of("[a, 1, null, 1]", "[b, 2, null, 2]"), scan(h));
            h.delete(0, row("b", 2L, null, 2L)).insert(0, row("d", 4L, null, 4L));
            assertEquals(2, h.heldChanges(), "the keys written since the barrier");
            h.barrier();
            assertEquals(0, h.heldChanges());
            assertEquals(List.of("[a, 1, null, 1]", "[d, 4, null, 4]"), scan(h));
            assertEquals(scan(h), h.rows());
        }
    }

    @Test
    void endsWithTheSameRowsWhereverBarriersAndRestoresFall() {
        OperatorHarness.verify(dir, view -> new MaterializeOperator(NODE, view))
                .insert(0, row("a", 1L, new BigDecimal("1.50"), 10L), row("b", 2L, null, 20L))
                .insert(0, row("c", 3L, new BigDecimal("7"), 30L))
                .delete(0, row("b", 2L, null, 20L))
                .delete(0, row("c", 3L, new BigDecimal("7"), 30L))
                .insert(0, row("c", 3L, new BigDecimal("8"), 31L))
                .expectRows(List.of("[a, 1, 1.50, 10]", "[c, 3, 8, 31]"));
    }

    /**
     * An update as a DELETE followed by an INSERT under the same key in one chunk (an aggregate's
     * group re-emitted at a barrier) skips the delete's write, which the put overwrites: the stored
     * bytes, the held changes and the changes passed on must equal those of the same changes sent
     * one per chunk, where nothing is skipped. The pairs cover a changed key, an equal key whose
     * NUMERIC differs in scale only outside the key, a delete whose next insert has another key,
     * and a delete at a chunk's end.
     */
    @Test
    void anUpdatePairInOneChunkStoresWhatSeparateChangesStore() {
        Op[] ops = {Op.DELETE, Op.INSERT, Op.DELETE, Op.INSERT, Op.DELETE, Op.INSERT, Op.DELETE};
        Object[][] changes = {
            row("a", 1L, new BigDecimal("1.50"), 10L),
            row("a", 1L, new BigDecimal("1.5"), 11L),
            row("b", 2L, null, 20L),
            row("b", 5L, null, 21L),
            row("c", 3L, null, 30L),
            row("c", 3L, new BigDecimal("2"), 31L),
            row("b", 5L, null, 21L)
        };
        List<String> stored = new ArrayList<>();
        List<List<String>> emitted = new ArrayList<>();
        for (boolean oneChunk : new boolean[] {true, false}) {
            Path d = dir.resolve(oneChunk ? "one" : "separate");
            try (OperatorHarness h = new OperatorHarness(d, view -> new MaterializeOperator(NODE, view))) {
                h.insert(0, row("a", 1L, new BigDecimal("1.50"), 10L))
                        .insert(0, row("b", 2L, null, 20L), row("c", 3L, null, 30L))
                        .barrier();
                h.takeEmitted();
                if (oneChunk) {
                    Chunk.Builder b = new Chunk.Builder();
                    for (int i = 0; i < ops.length; i++) {
                        b.add(ops[i], changes[i]);
                    }
                    h.push(0, b.build());
                } else {
                    for (int i = 0; i < ops.length; i++) {
                        h.push(0, Chunk.of(ops[i], changes[i]));
                    }
                }
                assertEquals(4, h.heldChanges(), "keys written: a, b 2, b 5, c");
                h.barrier();
                emitted.add(h.takeEmitted());
                stored.add(String.join(",", storedBytes(h)));
                assertEquals(List.of("[a, 1, 1.5, 11]", "[c, 3, 2, 31]"), scan(h));
            }
        }
        assertEquals(stored.get(1), stored.get(0));
        assertEquals(emitted.get(1), emitted.get(0));
    }

    /**
     * An upstream's snapshot rows given as their stored bytes ({@link Chunk#ofStored}), as a
     * backfill reads them from a table keyed and typed like the view, are copied, not decoded: the
     * view's stored bytes and the changes passed on equal those of the same rows given decoded.
     * A layout that differs from the view's (another key) takes the decoding path and stores the
     * same. The values cover a NUMERIC's scale, a NULL, an empty and a non-ASCII text.
     */
    @Test
    void storedSnapshotRowsStoreWhatDecodedRowsStore() {
        Object[][] rows = {
            row("a", 1L, new BigDecimal("1.50"), 10L),
            row("", 2L, null, 20L),
            row("ünï", -3L, new BigDecimal("-7.125"), null),
            row("b", Long.MAX_VALUE, new BigDecimal("0"), 40L)
        };
        List<DataType> types = FIELDS.stream().map(Field::type).toList();
        io.tributary.common.codec.RowCodec codec = new io.tributary.common.codec.RowCodec(types);
        byte[][] pks = new byte[rows.length][];
        byte[][] values = new byte[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            io.tributary.common.codec.ByteWriter w = new io.tributary.common.codec.ByteWriter(32);
            io.tributary.common.codec.KeyCodec.encode(w, List.of(DataType.TEXT, DataType.BIGINT), rows[i], KEY);
            pks[i] = w.toByteArray();
            values[i] = codec.encode(rows[i]);
        }
        List<String> stored = new ArrayList<>();
        List<List<String>> emitted = new ArrayList<>();
        for (String mode : new String[] {"decoded", "stored", "other layout"}) {
            try (OperatorHarness h = new OperatorHarness(
                    dir.resolve(mode.replace(' ', '-')), view -> new MaterializeOperator(NODE, view))) {
                h.push(
                        0,
                        switch (mode) {
                            case "decoded" -> Chunk.of(Op.INSERT, rows);
                            case "stored" ->
                                Chunk.ofStored(
                                        new io.tributary.stream.StoredLayout(KEY, types), pks, values, rows.length);
                            default ->
                                Chunk.ofStored(
                                        new io.tributary.stream.StoredLayout(new int[] {1, 0}, types),
                                        pks,
                                        values,
                                        rows.length);
                        });
                assertEquals(rows.length, h.heldChanges(), mode);
                h.barrier();
                emitted.add(h.takeEmitted());
                stored.add(String.join(",", storedBytes(h)));
                h.delete(0, row("a", 1L, new BigDecimal("1.50"), 10L)).barrier();
                assertEquals(
                        List.of("[, 2, null, 20]", "[b, 9223372036854775807, 0, 40]", "[ünï, -3, -7.125, null]"),
                        scan(h),
                        mode);
            }
        }
        assertEquals(stored.get(0), stored.get(1));
        assertEquals(stored.get(0), stored.get(2));
        assertEquals(emitted.get(0), emitted.get(1));
        assertEquals(emitted.get(0), emitted.get(2));
    }

    /**
     * A backfilling job's view writes stored snapshot rows to a file its checkpoint ingests before
     * the pending writes: the stored bytes and the changes passed on equal those of the pending
     * path, also with rows out of key order (those fall back to the pending writes) and with a
     * change-log delete and update in the same interval of keys the file holds (the pending
     * writes win), and with a committed key deleted and then stored again right after a
     * checkpoint, also after a lower key (both stored rows sort above the empty file but not above
     * the pending delete, so they must be pending writes too). Rows written to a file but not
     * checkpointed are dropped by a restore and leave no file behind; an epoch barrier meeting
     * such rows stores them through the pending writes.
     */
    @Test
    void storedSnapshotRowsWrittenToFilesStoreWhatPendingWritesStore() throws java.io.IOException {
        List<DataType> types = FIELDS.stream().map(Field::type).toList();
        io.tributary.common.codec.RowCodec codec = new io.tributary.common.codec.RowCodec(types);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add(row(
                    "n" + (i % 7), (long) i * 7919 % 1000, new BigDecimal(i + ".25"), i % 5 == 0 ? null : (long) i));
        }
        // the order a backfill reads them in: by store key (vnode, then pk), one block out of it
        List<byte[]> pks = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (Object[] r : rows) {
            io.tributary.common.codec.ByteWriter w = new io.tributary.common.codec.ByteWriter(32);
            io.tributary.common.codec.KeyCodec.encode(w, List.of(DataType.TEXT, DataType.BIGINT), r, KEY);
            pks.add(w.toByteArray());
            values.add(codec.encode(r));
        }
        Integer[] order = new Integer[rows.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            byte[] x = pks.get(a);
            byte[] y = pks.get(b);
            int c = Integer.compare(io.tributary.common.VirtualNodes.of(x), io.tributary.common.VirtualNodes.of(y));
            return c != 0 ? c : Arrays.compareUnsigned(x, y);
        });
        java.util.Collections.reverse(Arrays.asList(order).subList(100, 120));
        io.tributary.stream.StoredLayout layout = new io.tributary.stream.StoredLayout(KEY, types);
        List<String> stored = new ArrayList<>();
        List<List<String>> emitted = new ArrayList<>();
        for (boolean files : new boolean[] {false, true}) {
            Path at = dir.resolve(files ? "files" : "pending");
            io.tributary.storage.StateStore[] store = new io.tributary.storage.StateStore[1];
            try (OperatorHarness h = new OperatorHarness(
                    at,
                    view -> new MaterializeOperator(NODE, view, files ? () -> store[0].newSortedFile() : null, 1))) {
                store[0] = h.store();
                for (int from = 0; from < order.length; from += 64) {
                    int n = Math.min(64, order.length - from);
                    byte[][] p = new byte[n][];
                    byte[][] v = new byte[n][];
                    for (int i = 0; i < n; i++) {
                        p[i] = pks.get(order[from + i]);
                        v[i] = values.get(order[from + i]);
                    }
                    h.push(0, Chunk.ofStored(layout, p, v, n));
                    if (from == 128) {
                        h.checkpoint();
                    }
                }
                // change-log rows of keys the interval's file holds
                h.delete(0, rows.get(order[200]), rows.get(order[290]));
                Object[] updated = rows.get(order[250]).clone();
                updated[3] = -1L;
                h.delete(0, rows.get(order[250])).insert(0, updated);
                h.checkpoint();
                emitted.add(h.takeEmitted());
                stored.add(String.join(",", storedBytes(h)));
                assertEquals(rows.size() - 2, storedBytes(h).size());

                // written to a file, never checkpointed: a restart drops them
                byte[][] p = {pks.get(order[200])};
                byte[][] v = {values.get(order[200])};
                h.push(0, Chunk.ofStored(layout, p, v, 1)).restore();
                assertEquals(rows.size() - 2, storedBytes(h).size());

                // right after a checkpoint (no file yet): a change-log delete of a committed key, then its
                // stored row again, is above every key of the (empty) file but not above the pending delete
                h.delete(0, rows.get(order[280])).push(0, stored(layout, pks, values, order[280]));
                h.checkpoint();
                assertEquals(rows.size() - 2, storedBytes(h).size());
                stored.add(String.join(",", storedBytes(h)));
                // the same with a lower key first, which the file would take and then the re-insert above it
                h.delete(0, rows.get(order[295]))
                        .push(0, stored(layout, pks, values, order[290]))
                        .push(0, stored(layout, pks, values, order[295]));
                h.checkpoint();
                assertEquals(rows.size() - 1, storedBytes(h).size());
                stored.add(String.join(",", storedBytes(h)));
                // written to a file, then met by an epoch barrier (the job joined the epochs): stored
                h.push(0, Chunk.ofStored(layout, p, v, 1)).barrier();
                assertEquals(rows.size(), storedBytes(h).size());
                stored.add(String.join(",", storedBytes(h)));
                try (java.util.stream.Stream<Path> left = java.nio.file.Files.list(at.resolve("state.ingest"))) {
                    assertEquals(List.of(), left.toList());
                }
            }
        }
        for (int i = 0; i < stored.size() / 2; i++) {
            assertEquals(stored.get(i), stored.get(stored.size() / 2 + i));
        }
        assertEquals(emitted.get(0), emitted.get(1));
    }

    /**
     * A backfilling view whose rows come mostly out of key order (an aggregate's groups, in hash
     * order) stops making files after a checkpoint whose file held fewer rows than its pending
     * writes; what it stores is the same.
     */
    @Test
    void viewWhoseRowsComeOutOfKeyOrderStopsMakingFiles() {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rows.add(row("n" + i, (long) i, null, (long) i));
        }
        // the view's key order (vnode, then key)
        rows.sort((a, b) -> {
            byte[] x = pk(a);
            byte[] y = pk(b);
            int c = Integer.compare(io.tributary.common.VirtualNodes.of(x), io.tributary.common.VirtualNodes.of(y));
            return c != 0 ? c : Arrays.compareUnsigned(x, y);
        });
        List<io.tributary.storage.SortedFile> made = new ArrayList<>();
        io.tributary.storage.StateStore[] store = new io.tributary.storage.StateStore[1];
        try (OperatorHarness h = new OperatorHarness(
                dir,
                view -> new MaterializeOperator(
                        NODE,
                        view,
                        () -> {
                            io.tributary.storage.SortedFile f = store[0].newSortedFile();
                            made.add(f);
                            return f;
                        },
                        MaterializeOperator.MIN_INGESTED_PAIRS))) {
            store[0] = h.store();
            // descending: the file takes the first row only
            List<Object[]> descending = new ArrayList<>(rows.subList(0, 10));
            java.util.Collections.reverse(descending);
            h.insert(0, descending.toArray(Object[][]::new));
            assertEquals(9, h.heldChanges());
            h.checkpoint();
            // ascending now, but no file any more
            h.insert(0, rows.subList(10, 20).toArray(Object[][]::new));
            assertEquals(10, h.heldChanges());
            assertEquals(1, made.size());
            h.checkpoint();
            List<String> expected = new ArrayList<>();
            for (Object[] r : rows) {
                expected.add(Arrays.toString(r));
            }
            expected.sort(null);
            assertEquals(expected, scan(h));
        }
    }

    /** The view's encoded key of {@code row}. */
    private static byte[] pk(Object[] row) {
        io.tributary.common.codec.ByteWriter w = new io.tributary.common.codec.ByteWriter(32);
        io.tributary.common.codec.KeyCodec.encode(w, List.of(DataType.TEXT, DataType.BIGINT), row, KEY);
        return w.toByteArray();
    }

    /** A chunk of the one stored row {@code i}. */
    private static Chunk stored(io.tributary.stream.StoredLayout layout, List<byte[]> pks, List<byte[]> values, int i) {
        return Chunk.ofStored(layout, new byte[][] {pks.get(i)}, new byte[][] {values.get(i)}, 1);
    }

    /**
     * A backfilling job's view writes decoded INSERTs (a join's rows) whose keys sort after every
     * key written since the last barrier to a file the checkpoint ingests before the pending
     * writes; the stored bytes and the changes passed on equal those of the pending path, with rows
     * out of key order, deletes, updates (in one chunk and across chunks), a key deleted and
     * inserted again (also right after a checkpoint, with no file yet, alone and after a lower key:
     * below the pending delete, so pending too), rows a restore drops, and rows met by
     * the epoch barrier at which the job joins the epochs (read back into the pending writes under
     * the later writes of their keys); from the moment the job joins the live flow
     * ({@code onJoinLive}) no row goes to a file, and later epochs write no files. Files are ingested, or read
     * back at every barrier when smaller than the minimum.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(longs = {1, MaterializeOperator.MIN_INGESTED_PAIRS})
    void decodedRowsWrittenToFilesStoreWhatPendingWritesStore(long minIngestedPairs) throws java.io.IOException {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            rows.add(row(
                    "n" + (i % 7), (long) i * 7919 % 1000, new BigDecimal(i + ".25"), i % 5 == 0 ? null : (long) i));
        }
        List<byte[]> pks = new ArrayList<>();
        for (Object[] r : rows) {
            io.tributary.common.codec.ByteWriter w = new io.tributary.common.codec.ByteWriter(32);
            io.tributary.common.codec.KeyCodec.encode(w, List.of(DataType.TEXT, DataType.BIGINT), r, KEY);
            pks.add(w.toByteArray());
        }
        // the view's key order (vnode, then key), as a join emits rows of a big side read in it
        Integer[] order = new Integer[rows.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            byte[] x = pks.get(a);
            byte[] y = pks.get(b);
            int c = Integer.compare(io.tributary.common.VirtualNodes.of(x), io.tributary.common.VirtualNodes.of(y));
            return c != 0 ? c : Arrays.compareUnsigned(x, y);
        });
        java.util.Collections.reverse(Arrays.asList(order).subList(100, 120));
        List<String> stored = new ArrayList<>();
        List<List<String>> emitted = new ArrayList<>();
        for (boolean files : new boolean[] {false, true}) {
            Path at = dir.resolve((files ? "files-" : "pending-") + minIngestedPairs);
            io.tributary.storage.StateStore[] store = new io.tributary.storage.StateStore[1];
            MaterializeOperator[] op = new MaterializeOperator[1];
            List<io.tributary.storage.SortedFile> made = new ArrayList<>();
            java.util.function.Supplier<io.tributary.storage.SortedFile> newFile = () -> {
                io.tributary.storage.SortedFile f = store[0].newSortedFile();
                made.add(f);
                return f;
            };
            try (OperatorHarness h = new OperatorHarness(
                    at,
                    view -> op[0] = new MaterializeOperator(NODE, view, files ? newFile : null, minIngestedPairs))) {
                store[0] = h.store();
                for (int from = 0; from < 300; from += 50) {
                    List<Object[]> chunk = new ArrayList<>();
                    for (int i = from; i < from + 50; i++) {
                        chunk.add(rows.get(order[i]));
                    }
                    h.insert(0, chunk.toArray(Object[][]::new));
                    if (from == 0) {
                        // in the file, not held in memory
                        assertEquals(files ? 0 : 50, h.heldChanges());
                    }
                    if (from == 100) {
                        h.checkpoint();
                    }
                    if (from == 150) {
                        // a change-log delete and re-insert of a key the file holds, in separate chunks
                        Object[] again = rows.get(order[160]).clone();
                        again[3] = -2L;
                        h.delete(0, rows.get(order[160])).insert(0, again);
                    }
                }
                Object[] updated = rows.get(order[250]).clone();
                updated[3] = -1L;
                h.delete(0, rows.get(order[200]), rows.get(order[290]));
                h.push(0, new Chunk(new Op[] {Op.DELETE, Op.INSERT}, new Object[][] {rows.get(order[250]), updated}));
                // above the file's last key (order[299]) and the highest pending write (order[290]): the file
                h.insert(0, rows.get(order[300]));
                h.checkpoint();
                assertEquals(300 - 2 + 1, storedBytes(h).size());
                stored.add(String.join(",", storedBytes(h)));

                // written to a file, never checkpointed: a restore drops them
                h.insert(0, rows.get(order[301]), rows.get(order[302])).restore();
                assertEquals(299, storedBytes(h).size());

                // right after a checkpoint (no file yet): a committed key deleted, then inserted again in a
                // later chunk, is above every key of the (empty) file but not above the pending delete:
                // pending, else the checkpoint would apply the delete after the file's insert
                Object[] back = rows.get(order[280]).clone();
                back[3] = -3L;
                h.delete(0, rows.get(order[280])).insert(0, back).checkpoint();
                assertEquals(299, storedBytes(h).size());
                stored.add(String.join(",", storedBytes(h)));
                // the same with a lower key first, which the file would take and then the re-insert above it
                h.delete(0, rows.get(order[270]))
                        .insert(0, rows.get(order[200]))
                        .insert(0, rows.get(order[270]))
                        .checkpoint();
                assertEquals(300, storedBytes(h).size());
                stored.add(String.join(",", storedBytes(h)));

                // the epoch barrier at which the job goes live meets a file of rows read before the job
                // joined: they are stored, under the later writes of their keys
                Object[] changed = rows.get(order[320]).clone();
                changed[2] = null;
                h.insert(0, rows.get(order[310]), rows.get(order[320]));
                assertEquals(files ? 0 : 2, h.heldChanges());
                int filesMade = made.size();
                // the joining epoch, which foreground writers wait for, writes no file: its rows, even
                // those above the file's last key, are pending writes
                op[0].onJoinLive();
                h.insert(0, rows.get(order[330]));
                h.delete(0, rows.get(order[310]), rows.get(order[320])).insert(0, changed);
                assertEquals(3, h.heldChanges());
                assertEquals(filesMade, made.size());
                if (files) {
                    assertEquals(2, made.get(filesMade - 1).pairs());
                }
                h.barrier();
                assertEquals(300 + 2, storedBytes(h).size());
                // live from here on: later epochs write no files
                h.insert(0, rows.get(order[340]), rows.get(order[350])).barrier();
                stored.add(String.join(",", storedBytes(h)));
                emitted.add(h.takeEmitted());
                try (java.util.stream.Stream<Path> left = java.nio.file.Files.list(at.resolve("state.ingest"))) {
                    assertEquals(List.of(), left.toList());
                }
            }
        }
        for (int i = 0; i < stored.size() / 2; i++) {
            assertEquals(stored.get(i), stored.get(stored.size() / 2 + i));
        }
        assertEquals(emitted.get(0), emitted.get(1));
    }

    /** Every key and value of the view's table in the store, as hex. */
    private static List<String> storedBytes(OperatorHarness h) {
        List<String> out = new ArrayList<>();
        try (ReadView view = h.store().snapshot();
                KvIterator it = view.scan(Keyspace.DATA, TableKeys.tableStart(VIEW_ID), TableKeys.tableEnd(VIEW_ID))) {
            HexFormat hex = HexFormat.of();
            while (it.next()) {
                out.add(hex.formatHex(it.key()) + "=" + hex.formatHex(it.value()));
            }
        }
        return out;
    }

    /** The view's committed rows as a batch SELECT reads them, sorted as strings. */
    private static List<String> scan(OperatorHarness h) {
        List<String> out = new ArrayList<>();
        try (Snapshot s = new SnapshotSource(h.store()).open();
                TableScan scan = s.scan(VIEW)) {
            scan.forEachRemaining(r -> out.add(Arrays.toString(r)));
        }
        out.sort(null);
        return out;
    }
}
