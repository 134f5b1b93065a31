package io.tributary.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.storage.KeyValueRun;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;

/** Bulk loads committed as ingested SST files, on a real RocksDB: what is ingested, and the undo at open. */
class RunIngestionTest {
    private static final int TABLE = 42;
    private static final int ROWS = RunIngestion.MIN_PAIRS + 1000;

    @TempDir
    Path dir;

    @Test
    void aLoadIntoAnEmptyRangeIsIngestedNotLogged() {
        try (RocksStateStore store = RocksStateStore.open(dir.resolve("state"))) {
            WriteBuffer buffer = store.newWriteBuffer();
            buffer.putRun(Keyspace.DATA, run(0, ROWS));
            buffer.put(Keyspace.DATA, key(TABLE + 1, 5), new byte[] {1});
            store.commit(1, buffer);
            assertEquals(ROWS, count(store, TABLE));
            assertEquals(1, count(store, TABLE + 1));
            assertNotThroughMemtable(store);
        } catch (org.rocksdb.RocksDBException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aLoadAboveATablesKeysIsIngestedAndOneAmongThemIsNot() {
        try (RocksStateStore store = RocksStateStore.open(dir.resolve("state"))) {
            commitRun(store, 1, run(0, ROWS));
            // above every key of every vnode: each vnode's range is empty
            RocksWriteBuffer above = (RocksWriteBuffer) store.newWriteBuffer();
            above.putRun(Keyspace.DATA, run(ROWS, ROWS));
            assertEquals(1, above.ingestableRuns(RunIngestion.MIN_PAIRS).size());
            // odd keys among the committed even ones: no range is empty
            RocksWriteBuffer among = (RocksWriteBuffer) store.newWriteBuffer();
            KeyValueRun odd = new KeyValueRun(TableKeys.PREFIX_LENGTH);
            for (long pk = 1; pk < 2L * ROWS; pk += 2) {
                byte[] k = key(TABLE, pk);
                odd.add(k, k.length, new byte[] {2}, 1);
            }
            among.putRun(Keyspace.DATA, odd);
            assertEquals(List.of(), among.ingestableRuns(RunIngestion.MIN_PAIRS));
            store.commit(2, above);
            assertEquals(2L * ROWS, count(store, TABLE));
        }
    }

    @Test
    void anIngestedLoadWhoseEpochNeverCommittedIsUndoneAtOpen() throws Exception {
        try (RocksStateStore store = RocksStateStore.open(dir.resolve("state"))) {
            commitRun(store, 1, run(0, ROWS));
            // the first half of a commit: files written, record synced, ingested; then the crash
            RunIngestion ingestion = new RunIngestion(store.shared(), store.db());
            ingestion.write(run(ROWS, ROWS));
            ingestion.recordPending(2, store);
            ingestion.ingest(store);
            ingestion.deleteFiles();
            assertEquals(2L * ROWS, count(store, TABLE));
        }
        try (RocksStateStore store = RocksStateStore.open(dir.resolve("state"))) {
            assertEquals(1, store.committedEpoch());
            assertEquals(ROWS, count(store, TABLE));
            try (ReadView view = store.snapshot()) {
                assertNull(view.get(Keyspace.CATALOG, RunIngestion.PENDING_KEY));
                assertArrayEquals(new byte[] {7}, view.get(Keyspace.DATA, key(TABLE, 2L * (ROWS - 1))));
            }
        }
    }

    @Test
    void everyIngestedPairReadsBackWithItsOwnValue() {
        try (RocksStateStore store = RocksStateStore.open(dir.resolve("state"))) {
            KeyValueRun run = new KeyValueRun(TableKeys.PREFIX_LENGTH);
            for (long i = 0; i < ROWS; i++) {
                byte[] k = key(TABLE, i);
                byte[] v = value(i);
                run.add(k, k.length, v, v.length);
            }
            commitRun(store, 1, run);
            assertNotThroughMemtable(store);
            try (ReadView view = store.snapshot()) {
                for (long i = 0; i < ROWS; i++) {
                    assertArrayEquals(value(i), view.get(Keyspace.DATA, key(TABLE, i)), "key " + i);
                }
            }
            assertEquals(ROWS, count(store, TABLE));
        } catch (org.rocksdb.RocksDBException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aLargeLoadIsWrittenAsTwoDisjointFilesAtOnceAndReadsBackWhole() {
        int rows = RunIngestion.SPLIT_PAIRS + 1000;
        try (RocksStateStore store = RocksStateStore.open(dir)) {
            KeyValueRun run = new KeyValueRun(TableKeys.PREFIX_LENGTH);
            for (long i = 0; i < rows; i++) {
                byte[] k = key(TABLE, i);
                byte[] v = value(i);
                run.add(k, k.length, v, v.length);
            }
            commitRun(store, 1, run);
            List<LiveFileMetaData> files = store.db().getLiveFilesMetaData();
            long entries =
                    files.stream().mapToLong(LiveFileMetaData::numEntries).sum();
            assertEquals(rows, entries, "every pair lies in an ingested file");
            int expected = Runtime.getRuntime().availableProcessors() > 1 ? 2 : 1;
            assertEquals(expected, files.size(), "files of the load");
            if (files.size() == 2) {
                LiveFileMetaData a = files.get(0);
                LiveFileMetaData b = files.get(1);
                LiveFileMetaData low = Arrays.compareUnsigned(a.smallestKey(), b.smallestKey()) < 0 ? a : b;
                LiveFileMetaData high = low == a ? b : a;
                assertTrue(Arrays.compareUnsigned(low.largestKey(), high.smallestKey()) < 0, "disjoint halves");
                long lower = low.numEntries();
                assertTrue(lower >= rows / 2 && lower < rows, "cut at or after the middle: " + lower);
            }
            try (ReadView view = store.snapshot()) {
                for (long i = 0; i < rows; i++) {
                    assertArrayEquals(value(i), view.get(Keyspace.DATA, key(TABLE, i)), "key " + i);
                }
            }
            assertEquals(rows, count(store, TABLE));
        }
    }

    /**
     * A sorted file put into an epoch's buffer (a table rewritten under a new id) commits with the
     * epoch's other writes, a range deletion among them, and never passes through the memtable.
     */
    @Test
    void aSortedFileCommitsWithItsEpochBesideARangeDeletion() {
        try (RocksStateStore store = RocksStateStore.open(dir.resolve("state"))) {
            commitRun(store, 1, run(0, ROWS));
            WriteBuffer buffer = store.newWriteBuffer();
            buffer.putFile(
                    sortedFile(store, TABLE + 1, 1000), TableKeys.tableStart(TABLE + 1), TableKeys.tableEnd(TABLE + 1));
            buffer.deleteRange(Keyspace.DATA, TableKeys.tableStart(TABLE), TableKeys.tableEnd(TABLE));
            buffer.put(Keyspace.CATALOG, new byte[] {9}, new byte[] {9});
            store.commit(2, buffer);
            buffer.close();
            assertEquals(0, count(store, TABLE));
            assertEquals(1000, count(store, TABLE + 1));
            try (ReadView view = store.snapshot()) {
                assertArrayEquals(value(999), view.get(Keyspace.DATA, key(TABLE + 1, 999)));
                assertArrayEquals(new byte[] {9}, view.get(Keyspace.CATALOG, new byte[] {9}));
                assertNull(view.get(Keyspace.CATALOG, RunIngestion.PENDING_KEY));
            }
            assertNotThroughMemtable(store);
        } catch (org.rocksdb.RocksDBException e) {
            throw new AssertionError(e);
        }
    }

    /** A sorted file put after a save point is dropped by the rollback to it: its epoch commits without it. */
    @Test
    void aRollbackToASavePointDropsTheFilesPutSince() {
        try (RocksStateStore store = RocksStateStore.open(dir.resolve("state"))) {
            WriteBuffer buffer = store.newWriteBuffer();
            buffer.setSavePoint();
            buffer.putFile(
                    sortedFile(store, TABLE + 1, 10), TableKeys.tableStart(TABLE + 1), TableKeys.tableEnd(TABLE + 1));
            assertEquals(10, buffer.size());
            buffer.rollbackToSavePoint();
            assertEquals(0, buffer.size());
            buffer.put(Keyspace.DATA, key(TABLE, 1), new byte[] {1});
            store.commit(1, buffer);
            buffer.close();
            assertEquals(0, count(store, TABLE + 1));
            assertEquals(1, count(store, TABLE));
        }
    }

    /** A sorted file ingested for an epoch that then never committed (a crash) is gone after the next open. */
    @Test
    void anIngestedSortedFileWhoseEpochNeverCommittedIsUndoneAtOpen() throws Exception {
        try (RocksStateStore store = RocksStateStore.open(dir.resolve("state"))) {
            commitRun(store, 1, run(0, ROWS));
            RocksWriteBuffer buffer = (RocksWriteBuffer) store.newWriteBuffer();
            buffer.putFile(
                    sortedFile(store, TABLE + 1, 1000), TableKeys.tableStart(TABLE + 1), TableKeys.tableEnd(TABLE + 1));
            RunIngestion ingestion = new RunIngestion(store.shared(), store.db());
            ingestion.addFiles(buffer.filePaths(), buffer.fileRanges());
            ingestion.recordPending(2, store);
            ingestion.ingest(store);
            ingestion.deleteFiles();
            buffer.close();
            assertEquals(1000, count(store, TABLE + 1));
        }
        try (RocksStateStore store = RocksStateStore.open(dir.resolve("state"))) {
            assertEquals(1, store.committedEpoch());
            assertEquals(0, count(store, TABLE + 1));
            assertEquals(ROWS, count(store, TABLE));
        }
    }

    /** A finished sorted file of table {@code table}'s keys {@code [0, n)}, each with {@link #value}. */
    private static io.tributary.storage.SortedFile sortedFile(RocksStateStore store, int table, int n) {
        byte[][] keys = new byte[n][];
        for (int i = 0; i < n; i++) {
            keys[i] = key(table, i);
        }
        Arrays.sort(keys, Arrays::compareUnsigned);
        io.tributary.storage.SortedFile file = store.newSortedFile();
        for (byte[] k : keys) {
            file.put(
                    k,
                    k.length,
                    value(ByteBuffer.wrap(k, TableKeys.PREFIX_LENGTH, 8).getLong()));
        }
        file.finish();
        return file;
    }

    /** Fails when more than a handful of entries of the data keyspace went through the memtable. */
    private static void assertNotThroughMemtable(RocksStateStore store) throws org.rocksdb.RocksDBException {
        long inMemtables =
                store.db().getLongProperty(store.handle(Keyspace.DATA), "rocksdb.num-entries-active-mem-table");
        assertTrue(inMemtables < 10, inMemtables + " entries went through the memtable");
    }

    /** A value of 0 to 40 bytes that differs from its neighbours' in length and content. */
    private static byte[] value(long i) {
        byte[] v = new byte[(int) (i * 7 % 41)];
        for (int b = 0; b < v.length; b++) {
            v[b] = (byte) (i + b);
        }
        return v;
    }

    private static void commitRun(RocksStateStore store, long epoch, KeyValueRun run) {
        WriteBuffer buffer = store.newWriteBuffer();
        buffer.putRun(Keyspace.DATA, run);
        store.commit(epoch, buffer);
    }

    /** Rows of {@link #TABLE} with the even keys {@code 2 * [from, from + n)}, value 7. */
    private static KeyValueRun run(long from, int n) {
        KeyValueRun run = new KeyValueRun(TableKeys.PREFIX_LENGTH);
        for (long i = from; i < from + n; i++) {
            byte[] k = key(TABLE, 2 * i);
            run.add(k, k.length, new byte[] {7}, 1);
        }
        return run;
    }

    private static byte[] key(int table, long pk) {
        return TableKeys.rowKey(table, ByteBuffer.allocate(8).putLong(pk).array());
    }

    private static long count(RocksStateStore store, int table) {
        long n = 0;
        try (ReadView view = store.snapshot();
                KvIterator it = view.scan(Keyspace.DATA, TableKeys.tableStart(table), TableKeys.tableEnd(table))) {
            while (it.next()) {
                n++;
            }
        }
        return n;
    }
}
