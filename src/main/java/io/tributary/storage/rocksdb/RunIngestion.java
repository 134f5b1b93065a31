package io.tributary.storage.rocksdb;

import io.tributary.common.VirtualNodes;
import io.tributary.storage.KeyValueRun;
import io.tributary.storage.Keyspace;
import io.tributary.storage.TableKeys;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * A commit's bulk loads ({@link KeyValueRun}s) written as sorted SST files and ingested into the
 * data keyspace ahead of the commit's batch, for {@link RocksStateStore#commit}: the rows bypass
 * the write-ahead log and the memtables, which cost a bulk load's commit most of its time.
 *
 * <p>Atomic with the epoch by an undo record: before ingesting, a synced write records the epoch
 * and each run's key range in each of its vnodes (which held no committed key, see
 * {@link RocksWriteBuffer#ingestableRuns}); the epoch's batch deletes the record. A store that
 * opens with the record present crashed between the two, so it deletes those ranges, which removes
 * exactly the ingested rows ({@link #undoPending}). Committing thread only, under the store's
 * commit lock; {@link #write} lends half of a large run to a helper thread of its own and waits
 * for it before returning.
 */
final class RunIngestion {
    /** In the catalog keyspace: the epoch and key ranges of loads ingested but not yet committed. */
    static final byte[] PENDING_KEY = "\u0000meta/pending_ingested_loads".getBytes(StandardCharsets.UTF_8);

    /** Runs of fewer pairs go through the batch: a file per load costs a MANIFEST write and a sync. */
    static final int MIN_PAIRS = 16_384;

    /**
     * Runs of at least this many pairs are written as two files at once ({@link #write}): each
     * half is then at least a {@link #MIN_PAIRS} run, and a 40,000-row load (as the crash tests
     * make) takes this path too.
     */
    static final int SPLIT_PAIRS = 2 * MIN_PAIRS;

    /** Whether a second core can write the other half while this thread writes one. */
    private static final boolean SPLIT = Runtime.getRuntime().availableProcessors() > 1;

    private final RocksSharedStore shared;
    private final RocksDB db;
    private final List<Path> files = new ArrayList<>();
    private final List<byte[]> ranges = new ArrayList<>();

    RunIngestion(RocksSharedStore shared, RocksDB db) {
        this.shared = shared;
        this.db = db;
    }

    /**
     * Writes {@code run} as SST files in whole-key order: its pairs ascend by primary key, so a
     * stable grouping by vnode (the two prefix bytes after the table id all its keys share) sorts
     * them. A run of at least {@link #SPLIT_PAIRS} pairs on a machine of several cores is cut at a
     * vnode boundary near its middle and its two halves written at once, the upper by a helper
     * thread: each pair costs a copy and a JNI call into {@code SstFileWriter}, most of a large
     * load's commit, and the halves' key ranges are disjoint, so they are two files that the one
     * {@link #ingest} call takes together. Every file is synced when this returns; when it throws,
     * neither writer is still running.
     */
    void write(KeyValueRun run) throws RocksDBException {
        int[] order = vnodeOrder(run);
        int split = SPLIT ? halfway(run, order) : order.length;
        Path lower = shared.newIngestFile("load");
        files.add(lower);
        if (split == order.length) {
            writeFile(run, order, 0, order.length, lower);
        } else {
            Path upper = shared.newIngestFile("load");
            files.add(upper);
            FutureTask<Void> helper = new FutureTask<>(() -> {
                writeFile(run, order, split, order.length, upper);
                return null;
            });
            Thread thread = new Thread(helper, "sst-load-writer");
            thread.setDaemon(true);
            thread.start();
            try {
                writeFile(run, order, 0, split, lower);
            } finally {
                awaitUninterruptibly(thread);
            }
            rethrow(helper);
        }
        int[] bounds = vnodeBounds(run);
        for (int b = 0; b < bounds.length; b += 2) {
            ranges.add(run.key(bounds[b]));
            ranges.add(successor(run.key(bounds[b + 1])));
        }
    }

    /** Writes the pairs {@code order[from, to)} to {@code file} and syncs it. Any one thread. */
    private void writeFile(KeyValueRun run, int[] order, int from, int to, Path file) throws RocksDBException {
        // Each pair is copied once into `pair`; `key` and `value` are views of its two parts.
        ByteBuffer pair = ByteBuffer.allocateDirect(run.largestPair());
        ByteBuffer key = pair.duplicate();
        ByteBuffer value = pair.duplicate();
        try (SstOutput writer = shared.openSst(file)) {
            for (int i = from; i < to; i++) {
                int keyLength = run.copyPair(order[i], pair);
                key.limit(4 + keyLength).position(4);
                value.limit(pair.position()).position(8 + keyLength);
                writer.put(key, value);
            }
            writer.finish();
        }
    }

    /**
     * Where {@code order} (grouped by vnode) is cut in two: the first position at or after its
     * middle whose vnode differs from the one before; {@code order.length} (no cut) for a run of
     * fewer than {@link #SPLIT_PAIRS} pairs or when one vnode holds the whole upper half.
     */
    static int halfway(KeyValueRun run, int[] order) {
        if (order.length < SPLIT_PAIRS) {
            return order.length;
        }
        int at = order.length / 2;
        while (at < order.length && vnode(run, order[at]) == vnode(run, order[at - 1])) {
            at++;
        }
        return at;
    }

    /** Waits for the helper even when this thread is interrupted, then restores the interrupt. */
    private static void awaitUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Throws what the finished {@code helper} threw, as it was thrown. */
    private static void rethrow(FutureTask<Void> helper) throws RocksDBException {
        try {
            helper.get();
        } catch (InterruptedException e) {
            throw new IllegalStateException("the helper had finished", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RocksDBException r) {
                throw r;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw (Error) cause;
        }
    }

    /**
     * For each vnode {@code run} writes, ascending, the positions of its first and last pair:
     * its least and greatest keys in that vnode, since the pairs ascend by primary key.
     */
    static int[] vnodeBounds(KeyValueRun run) {
        int[] first = new int[VirtualNodes.COUNT];
        int[] last = new int[VirtualNodes.COUNT];
        Arrays.fill(first, -1);
        int vnodes = 0;
        for (int i = 0; i < run.size(); i++) {
            int v = vnode(run, i);
            if (first[v] < 0) {
                first[v] = i;
                vnodes++;
            }
            last[v] = i;
        }
        int[] out = new int[vnodes * 2];
        int at = 0;
        for (int v = 0; v < first.length; v++) {
            if (first[v] >= 0) {
                out[at++] = first[v];
                out[at++] = last[v];
            }
        }
        return out;
    }

    /** The positions of {@code run}'s pairs grouped by vnode, ascending, each group in run order. */
    private static int[] vnodeOrder(KeyValueRun run) {
        int[] starts = new int[VirtualNodes.COUNT + 1];
        int n = run.size();
        for (int i = 0; i < n; i++) {
            starts[vnode(run, i) + 1]++;
        }
        for (int v = 1; v < starts.length; v++) {
            starts[v] += starts[v - 1];
        }
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[starts[vnode(run, i)]++] = i;
        }
        return order;
    }

    private static int vnode(KeyValueRun run, int i) {
        byte[] chunk = run.chunk(i);
        int at = run.keyAt(i) + TableKeys.PREFIX_LENGTH - 2;
        return (chunk[at] & 0xff) << 8 | (chunk[at + 1] & 0xff);
    }

    /** The least key greater than every key that starts with {@code key}: past it by a zero byte. */
    private static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /**
     * Adds finished sorted files ({@link RocksWriteBuffer#putFile}) to this ingestion, with their
     * ranges ({@code ranges}: each file's start then exclusive end), which held no committed key,
     * so undoing them removes exactly their pairs as for the loads. Their links beside the store
     * are removed with the loads' files.
     */
    void addFiles(List<Path> sorted, List<byte[]> fileRanges) {
        files.addAll(sorted);
        ranges.addAll(fileRanges);
    }

    /** Records, synced, that the written files' ranges belong to {@code epoch} until it commits. */
    void recordPending(long epoch, RocksStateStore store) throws RocksDBException {
        ByteBuffer record = ByteBuffer.allocate(
                8 + ranges.stream().mapToInt(r -> 4 + r.length).sum());
        record.putLong(epoch);
        for (byte[] r : ranges) {
            record.putInt(r.length).put(r);
        }
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(store.handle(Keyspace.CATALOG), PENDING_KEY, record.array());
            db.write(shared.syncWrite(), batch);
        }
    }

    /** Ingests every written file into the data keyspace at once: atomic, and durable on return. */
    void ingest(RocksStateStore store) throws RocksDBException {
        shared.ingest(store.handle(Keyspace.DATA), files);
    }

    /**
     * After a failure between {@link #recordPending} and the epoch's batch: removes the ranges
     * and the record, as the next open would.
     */
    void undo(RocksStateStore store) throws RocksDBException {
        deleteRanges(db, store, ranges);
    }

    /** Removes the written files' links beside the store; the ingested copies stay. */
    void deleteFiles() {
        for (Path f : files) {
            try {
                Files.deleteIfExists(f);
            } catch (java.io.IOException e) {
                // a leftover is removed at the next open
            }
        }
    }

    /**
     * At open, before anything reads the store: when an undo record is present, the loads it
     * names were ingested (or not yet) but their epoch never committed, so their ranges, which
     * held nothing else, are deleted with the record in one synced write.
     */
    static void undoPending(RocksDB db, RocksStateStore store) throws RocksDBException {
        byte[] record = db.get(store.handle(Keyspace.CATALOG), PENDING_KEY);
        if (record == null) {
            return;
        }
        ByteBuffer in = ByteBuffer.wrap(record);
        in.getLong();
        List<byte[]> ranges = new ArrayList<>();
        while (in.hasRemaining()) {
            byte[] r = new byte[in.getInt()];
            in.get(r);
            ranges.add(r);
        }
        deleteRanges(db, store, ranges);
    }

    private static void deleteRanges(RocksDB db, RocksStateStore store, List<byte[]> ranges) throws RocksDBException {
        try (WriteBatch batch = new WriteBatch()) {
            for (int i = 0; i + 1 < ranges.size(); i += 2) {
                batch.deleteRange(store.handle(Keyspace.DATA), ranges.get(i), ranges.get(i + 1));
            }
            batch.delete(store.handle(Keyspace.CATALOG), PENDING_KEY);
            db.write(store.shared().syncWrite(), batch);
        }
    }
}
