package io.tributary.storage.rocksdb;

import io.tributary.common.BackgroundPriority;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.storage.Keyspace;
import io.tributary.storage.SharedStore;
import io.tributary.storage.TableKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.Priority;
import org.rocksdb.RateLimiter;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.WriteOptions;

/**
 * {@link SharedStore} on one RocksDB: a namespace is a set of column families, one per {@link
 * Keyspace} ({@code ns<id>.data}, {@code ns<id>.catalog}, {@code ns<id>.changelog}; namespace 0 keeps
 * the original names {@code default}, {@code catalog}, {@code changelog}), and the root record is the
 * one key of column family {@code root}.
 *
 * <p>Why column families rather than a key prefix per namespace: removing a namespace is then a
 * constant-time drop of its column families instead of range deletes over three keyspaces whose
 * tombstones every later scan would walk over; each namespace's keys sort, flush and compact apart, so
 * a busy database's compactions never rewrite a quiet one's files; and no key of any table, log or
 * catalog record changes layout, so a store made before namespaces opens unchanged as namespace 0.
 * What they share: the write-ahead log (each commit is still one synced batch, of one namespace's
 * column families only), the block cache, the background threads and the statistics.
 *
 * <p>Thread-safe; creating and dropping column families lock this object.
 */
public final class RocksSharedStore implements SharedStore {
    static {
        RocksNativeLibrary.load();
    }

    private static final String ROOT_FAMILY = "root";
    private static final byte[] ROOT_KEY = "databases".getBytes(StandardCharsets.UTF_8);
    private static final String PREFIX = "ns";

    private final Path dir;
    private final RocksDB db;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions cfOptions;
    /** The store's options as one object, for SST file readers (each copies them when opened). */
    private final Options sstReaderOptions;

    private final LRUCache blockCache;
    private final Statistics statistics;
    private final WriteOptions syncWrite = new WriteOptions().setSync(true);
    /** Every open column family by name; the shared store closes them. */
    private final Map<String, ColumnFamilyHandle> families = new HashMap<>();

    private final Set<Integer> open = new HashSet<>();
    /** Where checkpoint SST files are built before RocksDB takes them in; emptied at open. */
    private final Path ingestDirectory;
    /** Numbers the SST files of every namespace's checkpoints, so their names never collide. */
    private final AtomicLong ingestSeq = new AtomicLong();
    /** Paces the checkpoints' SST files of every namespace: one disk, one budget. */
    private final BackgroundWritePace checkpointPace;
    /** Paces RocksDB's own flushes and compactions at the same rate; null when unpaced. */
    private final RateLimiter rateLimiter;

    private RocksSharedStore(
            Path dir,
            RocksDB db,
            DBOptions dbOptions,
            ColumnFamilyOptions cfOptions,
            LRUCache cache,
            Statistics statistics,
            List<ColumnFamilyDescriptor> descriptors,
            List<ColumnFamilyHandle> handles,
            Path ingestDirectory,
            BackgroundWritePace checkpointPace,
            RateLimiter rateLimiter) {
        this.checkpointPace = checkpointPace;
        this.rateLimiter = rateLimiter;
        this.dir = dir;
        this.db = db;
        this.dbOptions = dbOptions;
        this.cfOptions = cfOptions;
        this.sstReaderOptions = new Options(dbOptions, cfOptions);
        this.blockCache = cache;
        this.statistics = statistics;
        this.ingestDirectory = ingestDirectory;
        for (int i = 0; i < descriptors.size(); i++) {
            families.put(new String(descriptors.get(i).getName(), StandardCharsets.UTF_8), handles.get(i));
        }
    }

    /** Opens (creating if needed) the store in {@code dir}; recovers from the WAL after a crash. */
    public static RocksSharedStore open(Path dir) {
        try {
            Files.createDirectories(dir);
            LRUCache cache = new LRUCache(256L << 20);
            BlockBasedTableConfig table = new BlockBasedTableConfig()
                    .setBlockCache(cache)
                    .setFilterPolicy(new BloomFilter(10, false))
                    .setBlockSize(16 << 10);
            ColumnFamilyOptions cfOptions = withInsertHints()
                    .setTableFormatConfig(table)
                    .setCompressionType(CompressionType.LZ4_COMPRESSION)
                    // a bulk statement commits as one batch; room for it in the memtables avoids
                    // stalling the commit on a flush halfway through
                    .setWriteBufferSize(128L << 20)
                    .setMaxWriteBufferNumber(4);
            Statistics statistics = new Statistics();
            statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
            // compactions (the low-priority pool) run at nice 19: they catch up in the time writers
            // leave idle instead of taking the core from a commit; flushes keep normal priority,
            // since a late flush stalls writes
            Env env = Env.getDefault();
            if (BackgroundPriority.enabled()) {
                env.lowerThreadPoolCPUPriority(Priority.LOW);
            }
            DBOptions dbOptions = new DBOptions()
                    .setEnv(env)
                    .setStatistics(statistics)
                    .setCreateIfMissing(true)
                    .setCreateMissingColumnFamilies(true)
                    .setMaxBackgroundJobs(2)
                    // flushes and compactions reach the disk a megabyte at a time as they are
                    // written, not in one burst at their final sync (see BackgroundWritePace)
                    .setBytesPerSync(1L << 20);
            BackgroundWritePace pace = BackgroundWritePace.fromSystemProperty();
            RateLimiter rateLimiter = null;
            if (pace.bytesPerSecond() > 0) {
                rateLimiter = new RateLimiter(pace.bytesPerSecond());
                dbOptions.setRateLimiter(rateLimiter);
            }
            List<ColumnFamilyDescriptor> descriptors = descriptors(dir, cfOptions);
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
            return new RocksSharedStore(
                    dir,
                    db,
                    dbOptions,
                    cfOptions,
                    cache,
                    statistics,
                    descriptors,
                    handles,
                    emptyIngestDirectory(dir),
                    pace,
                    rateLimiter);
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
        } catch (IOException e) {
            throw new TributaryException(
                    SqlState.INTERNAL_ERROR, "cannot open the state store in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * New column family options whose memtables keep an insert position per table and vnode (the
     * first {@link TableKeys#PREFIX_LENGTH} bytes of a key). Without it RocksDB inserts a batch
     * through one remembered position and, whenever the next key is not the one right after the
     * previous insert, descends the whole skip list again from the top; a commit's batch is in key
     * order, but other epochs' keys lie between its keys, so nearly every insert of a view's
     * state did that (perf of {@code bench stream}'s three-view rounds: {@code
     * RecomputeSpliceLevels} a quarter of the process's CPU). A position per prefix is moved up
     * only as far as the new key needs ({@code allow_partial_splice_fix}), and keys of one
     * vnode written epoch after epoch (ascending ids, the same groups) start near their last
     * insert. Only where a key goes in the memtable is affected, never what it holds. RocksJava has
     * no setter for the option; it is read from an options string.
     */
    static ColumnFamilyOptions withInsertHints() {
        Properties props = new Properties();
        props.setProperty(
                "memtable_insert_with_hint_prefix_extractor", "rocksdb.FixedPrefix." + TableKeys.PREFIX_LENGTH);
        ColumnFamilyOptions options = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(props);
        if (options == null) {
            throw new IllegalStateException("RocksDB refused the memtable insert hint option");
        }
        return options;
    }

    /**
     * Namespace 0's and the root's column families (created if missing: the change log and the root
     * came after the first stores), then every other column family the store has.
     */
    private static List<ColumnFamilyDescriptor> descriptors(Path dir, ColumnFamilyOptions cfOptions)
            throws RocksDBException {
        List<String> names = new ArrayList<>(familyNames(0));
        names.add(ROOT_FAMILY);
        if (Files.exists(dir.resolve("CURRENT"))) {
            try (Options options = new Options()) {
                for (byte[] existing : RocksDB.listColumnFamilies(options, dir.toString())) {
                    String name = new String(existing, StandardCharsets.UTF_8);
                    if (!names.contains(name)) {
                        names.add(name);
                    }
                }
            }
        }
        List<ColumnFamilyDescriptor> out = new ArrayList<>();
        for (String name : names) {
            out.add(new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), cfOptions));
        }
        return out;
    }

    /** The column family names of namespace {@code id}, in {@link Keyspace} order. */
    static List<String> familyNames(int id) {
        List<String> out = new ArrayList<>();
        for (Keyspace keyspace : Keyspace.values()) {
            String base = switch (keyspace) {
                case DATA -> "data";
                case CATALOG -> "catalog";
                case CHANGELOG -> "changelog";
            };
            if (id == 0) {
                out.add(
                        keyspace == Keyspace.DATA
                                ? new String(RocksDB.DEFAULT_COLUMN_FAMILY, StandardCharsets.UTF_8)
                                : base);
            } else {
                out.add(PREFIX + id + "." + base);
            }
        }
        return out;
    }

    /** Where the pins of namespace {@code id} live: beside the store, one directory per namespace. */
    Path pinsDirectory(int id) {
        Path absolute = dir.toAbsolutePath();
        String suffix = id == 0 ? ".pins" : "." + PREFIX + id + ".pins";
        return absolute.resolveSibling(absolute.getFileName() + suffix);
    }

    /**
     * Beside the store (on its file system, so ingestion links rather than copies), emptied of
     * files a crash left half-built.
     */
    private static Path emptyIngestDirectory(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        Path ingest = absolute.resolveSibling(absolute.getFileName() + ".ingest");
        Files.createDirectories(ingest);
        try (Stream<Path> leftovers = Files.list(ingest)) {
            for (Path p : (Iterable<Path>) leftovers::iterator) {
                Files.deleteIfExists(p);
            }
        }
        return ingest;
    }

    @Override
    public synchronized RocksStateStore openNamespace(int id) {
        return openNamespace(id, false);
    }

    /** @param ownsShared the namespace closes this store when it closes (a store of one namespace) */
    synchronized RocksStateStore openNamespace(int id, boolean ownsShared) {
        if (id < 0) {
            throw new IllegalArgumentException("namespace " + id);
        }
        if (!open.add(id)) {
            throw new IllegalStateException("namespace " + id + " is open already");
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            for (String name : familyNames(id)) {
                ColumnFamilyHandle h = families.get(name);
                if (h == null) {
                    h = db.createColumnFamily(
                            new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), cfOptions));
                    families.put(name, h);
                }
                handles.add(h);
            }
        } catch (RocksDBException e) {
            open.remove(id);
            throw RocksStateStore.storageError(e);
        }
        RocksPins pins = new RocksPins(pinsDirectory(id), cfOptions, pinFamilies(id));
        return new RocksStateStore(this, id, handles, pins, ownsShared);
    }

    /** What a pin of namespace {@code id} opens: its keyspaces, then the default family RocksDB requires. */
    private static List<String> pinFamilies(int id) {
        List<String> names = new ArrayList<>(familyNames(id));
        String dflt = new String(RocksDB.DEFAULT_COLUMN_FAMILY, StandardCharsets.UTF_8);
        if (!names.contains(dflt)) {
            names.add(dflt);
        }
        return names;
    }

    /** Called by a namespace's state store as it closes. */
    synchronized void closed(int id) {
        open.remove(id);
    }

    @Override
    public synchronized void dropNamespace(int id) {
        if (id == 0) {
            throw new IllegalArgumentException("namespace 0 cannot be dropped");
        }
        if (open.contains(id)) {
            throw new IllegalStateException("namespace " + id + " is open");
        }
        try {
            for (String name : familyNames(id)) {
                ColumnFamilyHandle h = families.remove(name);
                if (h != null) {
                    db.dropColumnFamily(h);
                    h.close();
                }
            }
            deleteTree(pinsDirectory(id));
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        } catch (IOException e) {
            throw new TributaryException(
                    SqlState.INTERNAL_ERROR, "cannot remove the pins of namespace " + id + ": " + e, e);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Override
    public synchronized List<Integer> namespaces() {
        TreeSet<Integer> ids = new TreeSet<>(open);
        ids.add(0);
        for (String name : families.keySet()) {
            int dot = name.indexOf('.');
            if (name.startsWith(PREFIX) && dot > PREFIX.length()) {
                try {
                    ids.add(Integer.parseInt(name.substring(PREFIX.length(), dot)));
                } catch (NumberFormatException e) {
                    // not a namespace's family
                }
            }
        }
        return List.copyOf(ids);
    }

    @Override
    public byte[] readRoot() {
        try {
            return db.get(families.get(ROOT_FAMILY), ROOT_KEY);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    @Override
    public void writeRoot(byte[] record) {
        try {
            db.put(families.get(ROOT_FAMILY), syncWrite, ROOT_KEY, record);
        } catch (RocksDBException e) {
            throw RocksStateStore.storageError(e);
        }
    }

    RocksDB db() {
        return db;
    }

    DBOptions dbOptions() {
        return dbOptions;
    }

    ColumnFamilyOptions cfOptions() {
        return cfOptions;
    }

    /** The options an {@code SstFileReader} of this store's files opens with; owned by the store. */
    Options sstReaderOptions() {
        return sstReaderOptions;
    }

    Statistics statistics() {
        return statistics;
    }

    LRUCache blockCache() {
        return blockCache;
    }

    WriteOptions syncWrite() {
        return syncWrite;
    }

    /** A new file name in the ingest directory, {@code prefix} then a number no other file of this store has. */
    Path newIngestFile(String prefix) {
        return ingestDirectory.resolve(prefix + "-" + ingestSeq.incrementAndGet() + ".sst");
    }

    /** The pace of checkpoint files ({@link BackgroundWritePace}); bulk loads are not paced. */
    BackgroundWritePace checkpointPace() {
        return checkpointPace;
    }

    /** Opens an SST file at {@code file} for ingestion (see {@link SstOutput}); the caller closes it. */
    SstOutput openSst(Path file) throws RocksDBException {
        return new SstOutput(this, file);
    }

    /**
     * Moves the finished {@code files} into column family {@code family} in one atomic ingestion,
     * durable when it returns: RocksDB links the synced files in and syncs the MANIFEST that adds
     * them. The files' names in the ingest directory are gone or stale afterwards.
     */
    void ingest(ColumnFamilyHandle family, List<Path> files) throws RocksDBException {
        List<String> paths = files.stream().map(Path::toString).toList();
        try (IngestExternalFileOptions options = new IngestExternalFileOptions().setMoveFiles(true)) {
            db.ingestExternalFile(family, paths, options);
        }
    }

    @Override
    public synchronized void close() {
        if (!open.isEmpty()) {
            throw new IllegalStateException("namespaces " + open + " are still open");
        }
        for (ColumnFamilyHandle h : families.values()) {
            h.close();
        }
        families.clear();
        db.close();
        syncWrite.close();
        sstReaderOptions.close();
        dbOptions.close();
        if (rateLimiter != null) {
            rateLimiter.close();
        }
        cfOptions.close();
        blockCache.close();
        statistics.close();
    }
}
