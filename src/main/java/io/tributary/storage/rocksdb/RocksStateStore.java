package io.tributary.storage.rocksdb;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.storage.Keyspace;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.EnvOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.Range;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SizeApproximationFlag;
import org.rocksdb.Slice;
import org.rocksdb.SstFileWriter;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * {@link StateStore} on RocksDB: one column family per {@link Keyspace}; each commit is one
 * {@code WriteBatch} with {@code sync=true}, so a commit is atomic and durable or absent after a
 * crash. The committed epoch is stored in the same batch. Pinned snapshots are checkpoints in
 * {@code <store dir>.pins} (see {@link RocksPins}).
 */
public final class RocksStateStore implements StateStore {
    static {
        RocksDB.loadLibrary();
    }

    private static final byte[] COMMITTED_EPOCH_KEY = "\u0000meta/committed_epoch".getBytes(StandardCharsets.UTF_8);

    private final RocksDB db;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions cfOptions;
    private final LRUCache blockCache;
    /** At RocksDB's default level (no detailed timers); read for its tickers. */
    private final Statistics statistics;

    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    /** Per keyspace ordinal, its column family's id (fixed for the life of the store). */
    private final int[] familyIds;

    private final WriteOptions syncWrite;
    private final RocksPins pins;
    /** Where checkpoint SST files are built before RocksDB takes them in; emptied at open. */
    private final Path ingestDirectory;

    private final AtomicLong ingestSeq = new AtomicLong();
    private volatile long committedEpoch;

    private RocksStateStore(
            RocksDB db,
            DBOptions dbOptions,
            ColumnFamilyOptions cfOptions,
            LRUCache cache,
            Statistics statistics,
            List<ColumnFamilyHandle> handles,
            RocksPins pins,
            Path ingestDirectory) {
        this.db = db;
        this.ingestDirectory = ingestDirectory;
        this.pins = pins;
        this.dbOptions = dbOptions;
        this.cfOptions = cfOptions;
        this.blockCache = cache;
        this.statistics = statistics;
        this.handles.addAll(handles);
        this.familyIds = handles.stream().mapToInt(ColumnFamilyHandle::getID).toArray();
        this.syncWrite = new WriteOptions().setSync(true);
        byte[] epoch = get(Keyspace.CATALOG, COMMITTED_EPOCH_KEY);
        this.committedEpoch = epoch == null ? 0 : ByteBuffer.wrap(epoch).getLong();
    }

    /** Opens (creating if needed) the store in {@code dir}; recovers from the WAL after a crash. */
    public static RocksStateStore open(Path dir) {
        try {
            Files.createDirectories(dir);
            LRUCache cache = new LRUCache(256L << 20);
            BlockBasedTableConfig table = new BlockBasedTableConfig()
                    .setBlockCache(cache)
                    .setFilterPolicy(new BloomFilter(10, false))
                    .setBlockSize(16 << 10);
            ColumnFamilyOptions cfOptions = new ColumnFamilyOptions()
                    .setTableFormatConfig(table)
                    .setCompressionType(CompressionType.LZ4_COMPRESSION)
                    // a bulk statement commits as one batch; room for it in the memtables avoids
                    // stalling the commit on a flush halfway through
                    .setWriteBufferSize(128L << 20)
                    .setMaxWriteBufferNumber(4);
            Statistics statistics = new Statistics();
            statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
            DBOptions dbOptions = new DBOptions()
                    .setStatistics(statistics)
                    .setCreateIfMissing(true)
                    .setCreateMissingColumnFamilies(true)
                    .setMaxBackgroundJobs(2);
            RocksPins pins = new RocksPins(pinsDirectory(dir), cfOptions);
            // column families added since a store was created (the change log) are created on open
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = RocksDB.open(dbOptions, dir.toString(), descriptors(cfOptions), handles);
            return new RocksStateStore(
                    db, dbOptions, cfOptions, cache, statistics, handles, pins, emptyIngestDirectory(dir));
        } catch (RocksDBException e) {
            if (String.valueOf(e.getMessage()).contains("lock file")) {
                // RocksDB holds an exclusive lock on its directory while open
                throw new TributaryException(
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                        "cannot open the state store in " + dir + ": it is in use by another Tributary server ("
                                + e.getMessage() + ")",
                        e);
            }
            throw new TributaryException(
                    SqlState.INTERNAL_ERROR, "cannot open the state store in " + dir + ": " + e.getMessage(), e);
        } catch (java.io.IOException e) {
            throw new TributaryException(
                    SqlState.INTERNAL_ERROR, "cannot open the state store in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Beside the store (on its file system, so ingestion links rather than copies), emptied of
     * files a crash left half-built.
     */
    private static Path emptyIngestDirectory(Path dir) throws java.io.IOException {
        Path absolute = dir.toAbsolutePath();
        Path ingest = absolute.resolveSibling(absolute.getFileName() + ".ingest");
        Files.createDirectories(ingest);
        try (var leftovers = Files.list(ingest)) {
            for (Path p : (Iterable<Path>) leftovers::iterator) {
                Files.deleteIfExists(p);
            }
        }
        return ingest;
    }

    /** Where the pinned snapshots of the store in {@code dir} live: beside it, never inside RocksDB's own directory. */
    static Path pinsDirectory(Path dir) {
        Path absolute = dir.toAbsolutePath();
        return absolute.resolveSibling(absolute.getFileName() + ".pins");
    }

    /** One column family per keyspace, in {@link Keyspace} order. */
    static List<ColumnFamilyDescriptor> descriptors(ColumnFamilyOptions cfOptions) {
        List<ColumnFamilyDescriptor> out = new ArrayList<>();
        for (Keyspace keyspace : Keyspace.values()) {
            byte[] name = switch (keyspace) {
                case DATA -> RocksDB.DEFAULT_COLUMN_FAMILY;
                case CATALOG -> "catalog".getBytes(StandardCharsets.UTF_8);
                case CHANGELOG -> "changelog".getBytes(StandardCharsets.UTF_8);
            };
            out.add(new ColumnFamilyDescriptor(name, cfOptions));
        }
        return out;
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

    private byte[] get(Keyspace keyspace, byte[] key) {
        try {
            return db.get(handle(keyspace), key);
        } catch (RocksDBException e) {
            throw storageError(e);
        }
    }

    @Override
    public ReadView snapshot() {
        return new RocksReadView(db, handles, true, null);
    }

    @Override
    public ReadView latest() {
        return new RocksReadView(db, handles, false, null);
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
        rb.put(
                Keyspace.CATALOG,
                COMMITTED_EPOCH_KEY,
                ByteBuffer.allocate(8).putLong(epoch).array());
        rb.writeTo(db, syncWrite);
        committedEpoch = epoch;
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
            ingest(rb);
        } else if (rb.size() > 0) {
            rb.writeTo(db, syncWrite);
        }
    }

    private void ingest(RocksWriteBuffer buffer) {
        Path file = ingestDirectory.resolve("checkpoint-" + ingestSeq.incrementAndGet() + ".sst");
        try {
            try (EnvOptions env = new EnvOptions();
                    Options options = new Options(dbOptions, cfOptions);
                    SstFileWriter writer = new SstFileWriter(env, options)) {
                writer.open(file.toString());
                buffer.writeSorted((key, value) -> {
                    if (value == null) {
                        writer.delete(key);
                    } else {
                        writer.put(key, value);
                    }
                });
                writer.finish();
            }
            try (IngestExternalFileOptions options = new IngestExternalFileOptions().setMoveFiles(true)) {
                db.ingestExternalFile(handle(Keyspace.DATA), List.of(file.toString()), options);
            }
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
        pins.close();
        for (ColumnFamilyHandle h : handles) {
            h.close();
        }
        db.close();
        syncWrite.close();
        dbOptions.close();
        cfOptions.close();
        blockCache.close();
        statistics.close();
        closed = true;
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
                    statistics.getTickerCount(TickerType.STALL_MICROS),
                    stopped,
                    pending,
                    memtables,
                    statistics.getTickerCount(TickerType.BLOCK_CACHE_HIT),
                    statistics.getTickerCount(TickerType.BLOCK_CACHE_MISS),
                    blockCache.getUsage());
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
