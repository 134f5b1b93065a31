package io.tributary.meta;

import io.tributary.batch.SnapshotSource;
import io.tributary.catalog.Catalog;
import io.tributary.catalog.DatabaseEntry;
import io.tributary.catalog.SystemTables;
import io.tributary.catalog.TableDef;
import io.tributary.common.metrics.MetricSets;
import io.tributary.connector.BuiltinConnectors;
import io.tributary.connector.Connectors;
import io.tributary.meta.ddl.CatalogService;
import io.tributary.meta.ddl.DdlController;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.ingest.SourceEngine;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.meta.sink.SinkManager;
import io.tributary.meta.system.EngineMetrics;
import io.tributary.meta.system.SystemTablesOfEngine;
import io.tributary.meta.write.RowIdGenerator;
import io.tributary.meta.write.Sequences;
import io.tributary.meta.write.TableChecks;
import io.tributary.meta.write.TableTruncation;
import io.tributary.meta.write.TableWriter;
import io.tributary.meta.write.Watermarks;
import io.tributary.plan.ViewPlanner;
import io.tributary.storage.StateStore;
import io.tributary.storage.rocksdb.RocksStateStore;
import io.tributary.stream.runtime.StreamRuntime;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Tributary database: its state store (a namespace of the cluster's store, see {@link Cluster}),
 * the barrier manager committing its own epochs and the catalog recovered from it. Opening it after a crash is the recovery: RocksDB replays its WAL
 * up to the last synced epoch write, which holds the catalog and the data of that epoch together.
 * Thread-safe.
 */
public final class Database implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    private final String name;
    private final StateStore store;
    private final BarrierManager barriers;
    private final CatalogService catalogService;
    private final RowIdGenerator rowIds;
    private final Sequences sequences;
    private final Watermarks watermarks;
    private final SnapshotSource snapshots;
    private final StreamRuntime streams;
    /** Keeps index builds and ALTER TABLE's rewrites of one table apart. */
    private final io.tributary.meta.ddl.IndexBuildGate indexBuilds = new io.tributary.meta.ddl.IndexBuildGate();

    private final SourceManager sources;
    private final SinkManager sinks;
    private final JobPlacement placement;
    private final DdlController ddl;
    /** The tables' CHECK constraints, planned for the writers. */
    private final TableChecks checks;

    private final io.tributary.meta.write.ColumnDefaults defaults;

    private final io.tributary.meta.ddl.CheckDdl checkDdl;
    private final io.tributary.meta.ddl.ForeignKeyDdl foreignKeyDdl;
    private final io.tributary.meta.ddl.ColumnDdl columnDdl;
    private final io.tributary.meta.ddl.RelationRename relationRename;
    private final io.tributary.meta.ddl.CommentDdl commentDdl;

    private final SystemTables systemTables = new SystemTables();
    private final MetricSets metrics = new MetricSets();

    private Database(
            String name,
            Supplier<List<DatabaseEntry>> all,
            StateStore store,
            long barrierIntervalMs,
            Function<Catalog, ViewPlanner> planners,
            Connectors connectors,
            JobPlacement placement) {
        this.name = name;
        this.store = store;
        this.placement = placement;
        this.barriers = new BarrierManager(store, barrierIntervalMs);
        this.catalogService = CatalogService.recover(store);
        catalogService.catalog().bindDatabase(name, all);
        this.rowIds = new RowIdGenerator(store.committedEpoch());
        this.sequences = new Sequences(store);
        this.watermarks = new Watermarks(store);
        this.snapshots = new SnapshotSource(store);
        this.streams = new StreamRuntime(store, barrierIntervalMs);
        streams.readWatermarksFrom(watermarks::committed);
        streams.setFollowerGate(barriers.stagingLock());
        this.sources = new SourceManager(
                new SourceEngine(catalogService.catalog(), barriers, store, streams, rowIds, watermarks), connectors);
        this.sinks = new SinkManager(store, streams, barriers, catalogService.catalog(), placement);
        ViewPlanner planner = planners.apply(catalogService.catalog());
        this.checks = new TableChecks(planner);
        this.defaults = new io.tributary.meta.write.ColumnDefaults(planner);
        this.checkDdl = new io.tributary.meta.ddl.CheckDdl(catalogService, barriers, store, planner);
        this.foreignKeyDdl = new io.tributary.meta.ddl.ForeignKeyDdl(
                catalogService,
                barriers,
                (catalog, epoch, table, constraint) ->
                        io.tributary.meta.write.ForeignKeyChecks.validate(catalog, store, epoch, table, constraint));
        this.columnDdl = new io.tributary.meta.ddl.ColumnDdl(
                catalogService, barriers, store, streams, sinks, sequences::moved, watermarks::moved);
        this.relationRename = new io.tributary.meta.ddl.RelationRename(catalogService, barriers, store, sinks, planner);
        this.commentDdl = new io.tributary.meta.ddl.CommentDdl(catalogService, barriers);
        this.ddl = new DdlController(catalogService, barriers, store, streams, planner, sources, sinks, placement);
    }

    /**
     * Recovers the jobs, sources and sinks and starts the barrier loop. Separate from construction so
     * that a cluster can make every database's catalog and store reachable to the others before any
     * database replans views reading another one.
     */
    private void start() {
        // sinks keep their relations' logs before the views' jobs start (and before unread logs are dropped)
        sinks.recover();
        ddl.recoverViews();
        SystemTablesOfEngine.register(
                systemTables, catalogService.catalog(), ddl, sources, sinks, placement, watermarks);
        EngineMetrics.register(metrics, catalogService.catalog(), ddl, sources, sinks, store);
        barriers.start();
        sources.recover();
        sinks.startAll();
    }

    /**
     * Opens (or creates) the database in {@code dataDir}, resumes every view's job and starts
     * committing epochs.
     *
     * @param planners makes the planner that (re)plans views over the recovered catalog
     */
    public static Database open(Path dataDir, long barrierIntervalMs, Function<Catalog, ViewPlanner> planners) {
        return open(dataDir, barrierIntervalMs, planners, BuiltinConnectors.create());
    }

    /** Like {@link #open(Path, long, Function)}, with the given connectors instead of the built-in ones. */
    public static Database open(
            Path dataDir, long barrierIntervalMs, Function<Catalog, ViewPlanner> planners, Connectors connectors) {
        return open(dataDir, barrierIntervalMs, planners, connectors, JobPlacement.localOnly());
    }

    /**
     * Like {@link #open(Path, long, Function, Connectors)}, placing jobs (sink backfills with {@code
     * backfill.remote}) with {@code placement}, which the database closes.
     */
    public static Database open(
            Path dataDir,
            long barrierIntervalMs,
            Function<Catalog, ViewPlanner> planners,
            Connectors connectors,
            JobPlacement placement) {
        StateStore store = RocksStateStore.open(dataDir.resolve("state"));
        try {
            return open(
                    Catalog.DATABASE,
                    () -> List.of(new DatabaseEntry(Catalog.DATABASE, 0)),
                    store,
                    barrierIntervalMs,
                    planners,
                    connectors,
                    placement);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * Opens database {@code name} over {@code store} (one namespace of a cluster's store), resumes its
     * view jobs and starts its own barrier loop. Called by {@link Cluster}; closing the database
     * closes {@code store} and {@code placement}.
     *
     * @param all lists every database of the cluster, for {@code pg_database}
     */
    static Database open(
            String name,
            Supplier<List<DatabaseEntry>> all,
            StateStore store,
            long barrierIntervalMs,
            Function<Catalog, ViewPlanner> planners,
            Connectors connectors,
            JobPlacement placement) {
        Database db = openUnstarted(name, all, store, barrierIntervalMs, planners, connectors, placement);
        db.startRecovered();
        return db;
    }

    /**
     * Like {@link #open(String, Supplier, StateStore, long, Function, Connectors, JobPlacement)} but
     * runs nothing: the catalog is read, no job, source or barrier loop is started until
     * {@link #startRecovered}. The cluster binds the databases to each other in between.
     */
    static Database openUnstarted(
            String name,
            Supplier<List<DatabaseEntry>> all,
            StateStore store,
            long barrierIntervalMs,
            Function<Catalog, ViewPlanner> planners,
            Connectors connectors,
            JobPlacement placement) {
        return new Database(name, all, store, barrierIntervalMs, planners, connectors, placement);
    }

    /** Resumes the jobs and starts committing epochs; once, after {@link #openUnstarted}. */
    void startRecovered() {
        start();
        LOG.info(
                "database {}: recovered {} table(s) at epoch {}",
                name,
                catalog().tables().size(),
                store.committedEpoch());
    }

    /** The name sessions connect to this database with. */
    public String name() {
        return name;
    }

    /** The in-memory catalog; any thread. */
    public Catalog catalog() {
        return catalogService.catalog();
    }

    /**
     * The system tables of this instance ({@code tributary_catalog.*}); parts of the engine register
     * theirs here. Any thread.
     */
    public SystemTables systemTables() {
        return systemTables;
    }

    /**
     * The metric sets of this instance, for {@code /metrics} and the dashboard; parts of the engine
     * (and sinks) register theirs here. Any thread.
     */
    public MetricSets metrics() {
        return metrics;
    }

    /**
     * Roughly how many bytes a relation's or state table's rows take in the store (files and
     * memtables); 0 when empty or unknown. Any thread, cheap.
     */
    public long approximateBytes(int tableId) {
        return store.approximateBytes(tableId);
    }

    /** Executes every CREATE, DROP and ALTER, and steers view creation jobs; any thread. */
    public DdlController ddl() {
        return ddl;
    }

    /** Stages writes into epochs and waits for their commits; any thread. */
    public BarrierManager barriers() {
        return barriers;
    }

    /** Opens snapshots of the last committed epoch; the caller closes each. Any thread. */
    public SnapshotSource snapshots() {
        return snapshots;
    }

    /**
     * A writer for one statement's changes to {@code table}; the caller closes it.
     *
     * @throws io.tributary.common.TributaryException 42809 for a connector's table that takes no DML
     *     ({@link SourceManager#checkWritable})
     */
    public TableWriter newTableWriter(TableDef table) {
        SourceManager.checkWritable(table);
        TableWriter writer = new TableWriter(
                table, rowIds, streams, barriers, catalogService.catalog(), store, watermarks, checks, defaults);
        return writer;
    }

    /** The sequences of SERIAL and identity columns; any thread. */
    public Sequences sequences() {
        return sequences;
    }

    /**
     * Removes every row of {@code tables} in one epoch, the views reading them seeing a delete of
     * each; returns the ticket to await. Any thread.
     *
     * @throws io.tributary.common.TributaryException 0A000 for a table with a watermark (append-only);
     *     42809 for a materialized view or a table fed
     *     by a connector; 42P01 when a table was dropped meanwhile
     */
    public long truncate(List<TableDef> tables) {
        for (TableDef table : tables) {
            if (table.isView()) {
                throw new io.tributary.common.TributaryException(
                        io.tributary.common.SqlState.WRONG_OBJECT_TYPE, "\"" + table.name() + "\" is not a table");
            }
            SourceManager.checkWritable(table);
            if (table.watermark() != null) {
                throw new io.tributary.common.TributaryException(
                        io.tributary.common.SqlState.FEATURE_NOT_SUPPORTED,
                        "table \"" + table.name()
                                + "\" has a watermark, so it is append-only: TRUNCATE is not supported on it");
            }
        }
        return barriers.stageAtBoundary(new TableTruncation(tables, catalogService.catalog(), store, streams));
    }

    /**
     * {@code ALTER TABLE ... ADD PRIMARY KEY}: rebuilds a table without a key under one, in one
     * epoch; see {@link io.tributary.meta.ddl.PrimaryKeyAddition#add}. Session threads.
     */
    public void addPrimaryKey(String table, String constraint, List<String> columns) throws InterruptedException {
        new io.tributary.meta.ddl.PrimaryKeyAddition(catalogService, barriers, store, streams, sinks, sequences::moved)
                .add(table, constraint, columns);
    }

    /**
     * Claims table {@code table} for a rewrite and waits until no index build runs on it: ALTER
     * TABLE ... ADD or DROP COLUMN and ADD PRIMARY KEY, which refuse a table a job reads (a build's
     * key watch counts), wait for the builds first, as PostgreSQL's wait for the lock CREATE INDEX
     * holds, and builds asked for meanwhile wait for the claim (see {@link
     * io.tributary.meta.ddl.IndexBuildGate}). Session threads.
     *
     * @param check run every few milliseconds while waiting; it throws 57014 on a cancel or {@code
     *     statement_timeout}
     * @return the claim: close it once the ALTER returned (committed or failed)
     */
    public io.tributary.meta.ddl.IndexBuildGate.Claim awaitIndexBuilds(String table, Runnable check)
            throws InterruptedException {
        TableDef def = catalogService.catalog().table(table).orElse(null);
        return indexBuilds.claim(def == null ? table : def.name(), check);
    }

    /** ALTER TABLE ... ADD, DROP and RENAME COLUMN; any thread. */
    public io.tributary.meta.ddl.ColumnDdl columnDdl() {
        return columnDdl;
    }

    /** COMMENT ON; any thread. */
    public io.tributary.meta.ddl.CommentDdl commentDdl() {
        return commentDdl;
    }

    /** ALTER TABLE / MATERIALIZED VIEW ... RENAME TO; any thread. */
    public io.tributary.meta.ddl.RelationRename relationRename() {
        return relationRename;
    }

    /** ALTER TABLE ... ADD CHECK and DROP CONSTRAINT; any thread. */
    public io.tributary.meta.ddl.CheckDdl checkDdl() {
        return checkDdl;
    }

    /** ALTER TABLE ... ADD FOREIGN KEY and DROP CONSTRAINT of a foreign key. */
    public io.tributary.meta.ddl.ForeignKeyDdl foreignKeyDdl() {
        return foreignKeyDdl;
    }

    /** CREATE/DROP INDEX and UNIQUE constraints; any thread. */
    public io.tributary.meta.ddl.IndexDdl indexDdl() {
        return new io.tributary.meta.ddl.IndexDdl(catalogService, barriers, indexBuilds, store, streams);
    }

    /** CREATE/ALTER/DROP SEQUENCE and giving a column its sequence; any thread. */
    public io.tributary.meta.ddl.SequenceDdl sequenceDdl() {
        return new io.tributary.meta.ddl.SequenceDdl(catalogService, barriers, sequences::moved);
    }

    /**
     * How many rows relation {@code tableId} holds as of the last committed epoch (a scan of its
     * keys); for the {@code SELECT n} tag of a populated CREATE MATERIALIZED VIEW. Any thread.
     */
    public long committedRows(int tableId) {
        long rows = 0;
        try (io.tributary.storage.ReadView view = store.latest();
                io.tributary.storage.KvIterator it = view.scan(
                        io.tributary.storage.Keyspace.DATA,
                        io.tributary.storage.TableKeys.tableStart(tableId),
                        io.tributary.storage.TableKeys.tableEnd(tableId))) {
            while (it.next()) {
                rows++;
            }
        }
        return rows;
    }

    /**
     * The state store, for tests in this package that check what is stored and for {@link
     * ScratchViewBuild}'s raw loads and reads; any thread.
     */
    StateStore store() {
        return store;
    }

    /**
     * A worker's read of an exported snapshot: a sink's ({@link SinkManager#snapshotChunk}), or a
     * view's whose snapshot phase runs on the worker ({@link DdlController#viewSnapshotPiece}, its
     * binary body decoded into rows of two bytea columns, for a worker that asks for COPY text).
     * Session threads.
     */
    public io.tributary.meta.sink.SnapshotChunk snapshotChunk(
            String snapshotId, int vnode, byte[] afterKey, int limit) {
        if (io.tributary.meta.ddl.ViewSnapshotJob.isViewSnapshot(snapshotId)) {
            return storedRows(ddl.viewSnapshotPiece(snapshotId, vnode, vnode, afterKey, limit));
        }
        return sinks.snapshotChunk(snapshotId, vnode, afterKey, limit);
    }

    /**
     * A worker's read of an exported snapshot in binary COPY format: a sink's ({@link
     * SinkManager#snapshotBinary}, one vnode per piece) or a view's ({@link
     * DdlController#viewSnapshotPiece}, vnodes {@code vnode} through {@code lastVnode}). Session
     * threads.
     *
     * @throws io.tributary.common.TributaryException 0A000 for a sink's snapshot over more than one vnode
     */
    public io.tributary.meta.sink.SnapshotBinaryPiece snapshotBinary(
            String snapshotId, int vnode, int lastVnode, byte[] afterKey, int limit) {
        if (io.tributary.meta.ddl.ViewSnapshotJob.isViewSnapshot(snapshotId)) {
            return ddl.viewSnapshotPiece(snapshotId, vnode, lastVnode, afterKey, limit);
        }
        if (lastVnode != vnode) {
            // a sink's worker resumes from one position per vnode it reads; its pieces stay within one
            throw io.tributary.common.TributaryException.notSupported(
                    "tributary_snapshot over several vnodes of a sink's snapshot");
        }
        return sinks.snapshotBinary(snapshotId, vnode, afterKey, limit);
    }

    /** A view snapshot's binary piece as rows of its two bytea columns (stored value, primary key). */
    private static io.tributary.meta.sink.SnapshotChunk storedRows(io.tributary.meta.sink.SnapshotBinaryPiece piece) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(piece.body());
        in.position(19); // signature, flags, extension length
        List<Object[]> rows = new java.util.ArrayList<>(piece.rows());
        for (short fields = in.getShort(); fields >= 0; fields = in.getShort()) {
            Object[] row = new Object[fields];
            for (int f = 0; f < fields; f++) {
                byte[] value = new byte[in.getInt()];
                in.get(value);
                row[f] = value;
            }
            rows.add(row);
        }
        io.tributary.common.types.DataType bytea =
                io.tributary.common.types.DataType.of(io.tributary.common.types.TypeKind.BYTEA);
        return new io.tributary.meta.sink.SnapshotChunk(
                List.of("tributary_row", "tributary_pk"), List.of(bytea, bytea), rows);
    }

    /** Where jobs run, and the remote jobs and workers the system tables list; any thread. */
    public JobPlacement jobs() {
        return placement;
    }

    /** The sources of tables created with a connector, for their progress and errors; any thread. */
    public SourceManager sources() {
        return sources;
    }

    /** Stops the sources, commits what is staged, then closes the store. */
    @Override
    public void close() {
        sinks.close();
        placement.close();
        sources.close();
        barriers.close();
        streams.close();
        store.close();
    }
}
