package io.tributary.storage.rocksdb;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.storage.Keyspace;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.SortedFile;
import io.tributary.storage.StateStore;
import io.tributary.storage.StoreStats;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.Range;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SizeApproximationFlag;
import org.rocksdb.Slice;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * {@link StateStore} on RocksDB: one namespace of a {@link RocksSharedStore}, one column family per
 * {@link Keyspace}; each commit is one {@code WriteBatch} with {@code sync=true}, so a commit is
 * atomic and durable or absent after a crash. The committed epoch is stored in the same batch, in the
 * namespace's own catalog keyspace, so every namespace has its own epochs. Pinned snapshots are
 * checkpoints in a directory beside the store (see {@link RocksPins}).
 */
public final class RocksStateStore implements StateStore {
    /** How many pairs a checkpoint's SST writer puts between two looks at its file's size (a power of two). */
    private static final long PACE_EVERY_PAIRS = 1024;

    private static final byte[] COMMITTED_EPOCH_KEY = "\u0000meta/committed_epoch".getBytes(StandardCharsets.UTF_8);

    private final RocksSharedStore shared;
    private final int namespace;
    private final boolean ownsShared;
    private final RocksDB db;
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    /** Per keyspace ordinal, its column family's id (fixed for the life of the store). */
    private final int[] familyIds;

    private final WriteOptions syncWrite;
    private final RocksPins pins;

    private volatile long committedEpoch;

    RocksStateStore(
            RocksSharedStore shared,
            int namespace,
            List<ColumnFamilyHandle> handles,
            RocksPins pins,
            boolean ownsShared) {
        this.shared = shared;
        this.namespace = namespace;
        this.ownsShared = ownsShared;
        this.db = shared.db();
        this.pins = pins;
        this.handles.addAll(handles);
        this.familyIds = handles.stream().mapToInt(ColumnFamilyHandle::getID).toArray();
        this.syncWrite = shared.syncWrite();
        try {
            RunIngestion.undoPending(db, this);
        } catch (RocksDBException e) {
            throw storageError(e);
        }
        byte[] epoch = get(Keyspace.CATALOG, COMMITTED_EPOCH_KEY);
        this.committedEpoch = epoch == null ? 0 : ByteBuffer.wrap(epoch).getLong();
    }

    /**
     * Opens (creating if needed) a store of one namespace in {@code dir}; recovers from the WAL after
     * a crash. Closing it closes the RocksDB.
     */
    public static RocksStateStore open(Path dir) {
        RocksSharedStore shared = RocksSharedStore.open(dir);
        try {
            return shared.openNamespace(0, true);
        } catch (RuntimeException e) {
            shared.close();
            throw e;
        }
    }

    ColumnFamilyHandle handle(Keyspace keyspace) {
        return handles.get(keyspace.ordinal());
    }

    /** RocksDB's id of the column family of the keyspace with this ordinal, as a write batch names it. */
    int familyId(int keyspaceOrdinal) {
        return familyIds[keyspaceOrdinal];
    }

    RocksDB db() {
        return db;
    }

    RocksSharedStore shared() {
        return shared;
    }

    private byte[] get(Keyspace keyspace, byte[] key) {
        try {
            return db.get(handle(keyspace), key);
        } catch (RocksDBException e) {
            throw storageError(e);
        }
    }

    @Override
    public ReadView snapshot() {
        visibility.readLock().lock();
        try {
            return new RocksReadView(db, handles, true, null, true);
        } finally {
            visibility.readLock().unlock();
        }
    }

    /**
     * Held exclusively from a commit's ingestion of bulk loads until its batch is written, and
     * shared while a snapshot is taken: no snapshot sees a load's rows without the rest of its epoch.
     */
    private final ReadWriteLock visibility = new ReentrantReadWriteLock();

    @Override
    public ReadView latest() {
        return new RocksReadView(db, handles, false, null, true);
    }

    @Override
    public WriteBuffer newWriteBuffer() {
        return new RocksWriteBuffer(this);
    }

    @Override
    public synchronized void commit(long epoch, WriteBuffer buffer) {
        if (epoch <= committedEpoch) {
            throw new IllegalArgumentException("epoch " + epoch + " is not after " + committedEpoch);
        }
        RocksWriteBuffer rb = (RocksWriteBuffer) buffer;
        List<Integer> loads = rb.ingestableRuns(RunIngestion.MIN_PAIRS);
        RunIngestion ingestion = loads.isEmpty() ? null : writeLoads(rb, loads);
        if (ingestion == null) {
            loads = List.of();
        }
        List<Path> files = rb.filePaths();
        if (!files.isEmpty()) {
            // sorted files cannot go through the batch: when the loads' files could not be
            // written, the loads go through the batch and the sorted files are ingested alone
            ingestion = ingestion == null ? new RunIngestion(shared, db) : ingestion;
            ingestion.addFiles(files, rb.fileRanges());
        }
        rb.put(
                Keyspace.CATALOG,
                COMMITTED_EPOCH_KEY,
                ByteBuffer.allocate(8).putLong(epoch).array());
        if (ingestion == null) {
            rb.writeTo(db, syncWrite);
        } else {
            commitIngesting(epoch, rb, loads, ingestion);
        }
        committedEpoch = epoch;
    }

    /**
     * The SST files of the bulk loads at {@code loads}, written before anything is recorded; null
     * (files removed) when one cannot be written, so the loads go through the batch instead.
     */
    private RunIngestion writeLoads(RocksWriteBuffer rb, List<Integer> loads) {
        RunIngestion ingestion = new RunIngestion(shared, db);
        try {
            for (int at : loads) {
                ingestion.write(rb.run(at));
            }
            return ingestion;
        } catch (RocksDBException | RuntimeException e) {
            ingestion.deleteFiles();
            return null;
        }
    }

    /**
     * Records the loads' ranges, ingests their files and writes the rest of the epoch with the
     * record's removal; on a failure after the record, removes the ranges again before throwing.
     */
    private void commitIngesting(long epoch, RocksWriteBuffer rb, List<Integer> loads, RunIngestion ingestion) {
        try {
            ingestion.recordPending(epoch, this);
            rb.delete(Keyspace.CATALOG, RunIngestion.PENDING_KEY);
            visibility.writeLock().lock();
            try {
                ingestion.ingest(this);
                for (int at : loads) {
                    rb.dropRun(at);
                }
                rb.writeTo(db, syncWrite);
            } catch (RocksDBException | RuntimeException e) {
                try {
                    ingestion.undo(this);
                } catch (RocksDBException | RuntimeException undo) {
                    e.addSuppressed(undo);
                }
                throw e;
            } finally {
                visibility.writeLock().unlock();
            }
        } catch (RocksDBException e) {
            throw storageError(e);
        } finally {
            ingestion.deleteFiles();
        }
    }

    /**
     * Puts and deletes of the data keyspace (a backfill's checkpoint) become one SST file,
     * ingested atomically: they bypass the write-ahead log and the memtables, so the epoch
     * commits of foreground writes never queue behind a checkpoint's hundreds of thousands of rows
     * (they did, for hundreds of milliseconds). Ingestion is durable when it returns: the file is
     * synced before it is linked in, and the MANIFEST that adds it is synced. Anything else goes
     * through a synced batch.
     */
    @Override
    public void write(WriteBuffer buffer) {
        RocksWriteBuffer rb = (RocksWriteBuffer) buffer;
        if (rb.onlyPointWritesTo(Keyspace.DATA)) {
            ingest(rb, List.of());
        } else if (rb.size() > 0) {
            rb.writeTo(db, syncWrite);
        }
    }

    /**
     * The files and the buffer's SST file go into one ingestion, the buffer's last: RocksDB gives
     * each file of one ingestion its own sequence number in list order, so of files that overlap
     * the later one wins ({@code RocksStateStoreTest} holds this version of RocksDB to it).
     */
    @Override
    public void write(WriteBuffer buffer, List<SortedFile> files) {
        if (files.isEmpty()) {
            write(buffer);
            return;
        }
        RocksWriteBuffer rb = (RocksWriteBuffer) buffer;
        List<Path> paths = new ArrayList<>(files.size() + 1);
        for (SortedFile f : files) {
            paths.add(((RocksSortedFile) f).finishedPath());
        }
        if (rb.onlyPointWritesTo(Keyspace.DATA)) {
            ingest(rb, paths);
        } else if (rb.size() > 0) {
            throw new IllegalArgumentException(
                    "sorted files are written with puts and deletes of the data keyspace only");
        } else {
            try {
                shared.ingest(handle(Keyspace.DATA), paths);
            } catch (RocksDBException e) {
                throw storageError(e);
            }
        }
    }

    @Override
    public SortedFile newSortedFile() {
        return new RocksSortedFile(shared, shared.newIngestFile("sorted"));
    }

    private void ingest(RocksWriteBuffer buffer, List<Path> before) {
        Path file = shared.newIngestFile("checkpoint");
        try {
            try (SstOutput writer = shared.openSst(file)) {
                PairBuffer pair = new PairBuffer();
                BackgroundWritePace pace = shared.checkpointPace();
                long[] pairsAndPacedBytes = new long[2];
                buffer.writeSorted((key, value) -> {
                    if (value == null) {
                        writer.delete(key);
                    } else {
                        pair.fill(key, value);
                        writer.put(pair.key, pair.value);
                    }
                    // the file's size is a JNI call: asked every so many pairs
                    if ((++pairsAndPacedBytes[0] & (PACE_EVERY_PAIRS - 1)) == 0) {
                        long size = writer.fileSize();
                        pace.paced(size - pairsAndPacedBytes[1]);
                        pairsAndPacedBytes[1] = size;
                    }
                });
                pace.paced(writer.fileSize() - pairsAndPacedBytes[1]);
                writer.finish();
            }
            List<Path> files = new ArrayList<>(before);
            files.add(file);
            shared.ingest(handle(Keyspace.DATA), files);
        } catch (RocksDBException e) {
            throw storageError(e);
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (java.io.IOException e) {
                // a leftover is removed at the next open
            }
        }
    }

    @Override
    public long committedEpoch() {
        return committedEpoch;
    }

    /** Synchronized with {@link #commit}, so no commit lands between reading the epoch and the checkpoint. */
    @Override
    public synchronized PinnedSnapshot pin(String name) {
        return pins.create(db, name, committedEpoch);
    }

    @Override
    public void flushMemory() {
        try (FlushOptions options = new FlushOptions().setWaitForFlush(true)) {
            db.flush(options, handles);
        } catch (RocksDBException e) {
            throw storageError(e);
        }
    }

    @Override
    public Optional<ReadView> openPinned(String name) {
        return pins.open(name);
    }

    @Override
    public void unpin(String name) {
        pins.unpin(name);
    }

    /** How many times this store opened a pin's database (for tests of its reuse across views); any thread. */
    long pinDatabaseOpens() {
        return pins.databaseOpens();
    }

    @Override
    public List<String> pinned() {
        return pins.names();
    }

    static TributaryException storageError(RocksDBException e) {
        return new TributaryException(SqlState.INTERNAL_ERROR, "storage error: " + e.getMessage(), e);
    }

    @Override
    public synchronized void close() {
        monitoring.writeLock().lock();
        try {
            closeNative();
        } finally {
            monitoring.writeLock().unlock();
        }
    }

    private void closeNative() {
        if (closed) {
            return;
        }
        pins.close();
        closed = true;
        shared.closed(namespace);
        if (ownsShared) {
            shared.close();
        }
    }

    /**
     * Monitoring reads hold it shared, {@link #close()} exclusively: they never wait for a commit
     * (which holds this object's monitor) and never touch freed native objects.
     */
    private final ReadWriteLock monitoring = new ReentrantReadWriteLock();
    /** Set by {@link #close()} under {@link #monitoring}'s write lock. */
    private boolean closed;

    /** Sums the column families' properties and reads the tickers. */
    @Override
    public StoreStats stats() {
        monitoring.readLock().lock();
        try {
            if (closed) {
                return StoreStats.NONE;
            }
            long pending = 0;
            long memtables = 0;
            boolean stopped = false;
            for (ColumnFamilyHandle h : handles) {
                pending += db.getLongProperty(h, "rocksdb.estimate-pending-compaction-bytes");
                memtables += db.getLongProperty(h, "rocksdb.cur-size-all-mem-tables");
                stopped |= db.getLongProperty(h, "rocksdb.is-write-stopped") != 0;
            }
            return new StoreStats(
                    shared.statistics().getTickerCount(TickerType.STALL_MICROS),
                    stopped,
                    pending,
                    memtables,
                    shared.statistics().getTickerCount(TickerType.BLOCK_CACHE_HIT),
                    shared.statistics().getTickerCount(TickerType.BLOCK_CACHE_MISS),
                    shared.blockCache().getUsage());
        } catch (RocksDBException e) {
            throw storageError(e);
        } finally {
            monitoring.readLock().unlock();
        }
    }

    @Override
    public long approximateBytes(int tableId) {
        monitoring.readLock().lock();
        try (Slice start = new Slice(TableKeys.tableStart(tableId));
                Slice end = new Slice(TableKeys.tableEnd(tableId))) {
            if (closed) {
                return 0;
            }
            long[] sizes = db.getApproximateSizes(
                    handle(Keyspace.DATA),
                    List.of(new Range(start, end)),
                    SizeApproximationFlag.INCLUDE_FILES,
                    SizeApproximationFlag.INCLUDE_MEMTABLES);
            return sizes[0];
        } finally {
            monitoring.readLock().unlock();
        }
    }
}
