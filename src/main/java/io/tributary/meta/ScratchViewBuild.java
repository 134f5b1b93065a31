package io.tributary.meta;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.DatabaseEntry;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.ddl.BackfillJobRecord;
import io.tributary.meta.ddl.RemoteViewAdoption;
import io.tributary.meta.ddl.ViewBackfillPlacement;
import io.tributary.meta.ddl.ViewSnapshotJob;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.plan.ViewPlanner;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.backfill.SnapshotTakeover;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A worker's computation of a view's snapshot phase (docs/ARCHITECTURE.md, Remote jobs): a scratch
 * database of its own (its own RocksDB on the worker's disk) holding the relations the view reads
 * as the server's pinned snapshot has them, in which the view is created with the server's planner
 * and operators; its table and operator state tables are then read out under the server's table
 * ids. The relations' rows come in as the server stores them (value and primary key), so nothing
 * is decoded or re-encoded on the way. One job thread; closed (and its directory left to the
 * caller) when the attempt ends.
 */
public final class ScratchViewBuild implements AutoCloseable {
    /** Short epochs: the scratch view's backfill finishes at the first boundary after it caught up. */
    private static final long BARRIER_INTERVAL_MS = 50;

    private final Database db;
    private final RecordingStateStore store;
    private final Function<Catalog, ViewPlanner> planners;
    /** Scratch table id per server relation id. */
    private final Map<Integer, Integer> tables = new HashMap<>();

    private ScratchViewBuild(Database db, RecordingStateStore store, Function<Catalog, ViewPlanner> planners) {
        this.db = db;
        this.store = store;
        this.planners = planners;
    }

    /**
     * Hears each checkpoint of the view's build (docs/ARCHITECTURE.md, Remote jobs, "Checkpoints
     * and resume"): the changes it made to the view's table and state tables, and its vnode
     * positions, as keys of the server's tables ({@link ViewSnapshotJob#POSITIONS_TABLE} for the
     * positions, at the server's snapshot epoch; a null value deletes). Replayed in order over
     * empty tables, the checkpoints rebuild the state as of the last one. {@code snapshotRowsRead}
     * is how many snapshot rows the positions as of this checkpoint have read, over all vnodes and
     * sources (the resumed checkpoint's included). Throwing stops the build.
     */
    @FunctionalInterface
    public interface Checkpoints {
        void committed(List<byte[]> keys, List<byte[]> values, long snapshotRowsRead);
    }

    /** How a worker makes its scratch databases; see {@link #opener}. Any thread. */
    public interface Opener {
        /** Opens a scratch database in a directory for a snapshot taken at a time; see {@link #open}. */
        ScratchViewBuild open(Path dir, long snapshotMillis);

        /** Builds throw-away views in a directory before the first job; see {@link #warmUp}. */
        void warmUp(Path dir) throws InterruptedException;
    }

    /** Scratch databases that plan with {@code planners}, for a worker. */
    public static Opener opener(Function<Catalog, ViewPlanner> planners) {
        return new Opener() {
            @Override
            public ScratchViewBuild open(Path dir, long snapshotMillis) {
                return ScratchViewBuild.open(dir, planners, snapshotMillis);
            }

            @Override
            public void warmUp(Path dir) throws InterruptedException {
                ScratchViewBuild.warmUp(dir, planners);
            }
        };
    }

    /**
     * Opens an empty scratch database in {@code dir} with the planner {@code planners} makes, whose
     * epochs all carry the time {@code snapshotMillis} (the server's snapshot epoch's): {@code
     * now()} in the view built here is the server's time of the snapshot, not this machine's
     * clock, as in the server's own backfill of that snapshot.
     */
    public static ScratchViewBuild open(Path dir, Function<Catalog, ViewPlanner> planners, long snapshotMillis) {
        RecordingStateStore store =
                new RecordingStateStore(io.tributary.storage.rocksdb.RocksStateStore.open(dir.resolve("state")));
        Database db;
        try {
            db = Database.openUnstarted(
                    Catalog.DATABASE,
                    () -> List.of(new DatabaseEntry(Catalog.DATABASE, 0)),
                    store,
                    BARRIER_INTERVAL_MS,
                    planners,
                    io.tributary.connector.BuiltinConnectors.create(),
                    JobPlacement.localOnly());
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        db.barriers().useClock(() -> snapshotMillis);
        db.startRecovered();
        return new ScratchViewBuild(db, store, planners);
    }

    /**
     * Plans one throw-away view that filters, joins and groups with MIN/MAX over two empty tables
     * of a throw-away scratch database in {@code dir}, so that a worker's first view job does not
     * pay for a cold JVM's first planning: loading and initialising the planner's classes (its
     * rule sets, operator tables, parser) was nearly all of the 8 s of CPU a first job cost on top
     * of a warm one. Building the views as well (a filter, a GROUP BY and a join over 200 rows)
     * cost a further 2 s of CPU and saved the first job 0.5 s. A worker calls it once, at start,
     * on a thread of its own; the caller removes {@code dir} afterwards.
     *
     * @throws TributaryException when the planning fails (the worker is broken for views too)
     */
    public static void warmUp(Path dir, Function<Catalog, ViewPlanner> planners) throws InterruptedException {
        try (ScratchViewBuild build = open(dir, planners, System.currentTimeMillis())) {
            io.tributary.common.types.DataType bigint = io.tributary.common.types.DataType.BIGINT;
            io.tributary.common.types.DataType text = io.tributary.common.types.DataType.TEXT;
            build.warmTable(
                    "t",
                    List.of(
                            new io.tributary.catalog.ColumnDef("id", bigint, true, false),
                            new io.tributary.catalog.ColumnDef("g", bigint, false, false),
                            new io.tributary.catalog.ColumnDef("v", bigint, false, false),
                            new io.tributary.catalog.ColumnDef("note", text, false, false)));
            build.warmTable(
                    "d",
                    List.of(
                            new io.tributary.catalog.ColumnDef("g", bigint, true, false),
                            new io.tributary.catalog.ColumnDef("name", text, false, false)));
            planners.apply(build.db.catalog())
                    .plan(
                            "SELECT d.name, count(*) AS n, sum(t.v) AS s, min(t.v) AS lo, max(t.note) AS hi"
                                    + " FROM t JOIN d ON t.g = d.g WHERE t.v > 0 GROUP BY d.name",
                            0,
                            "warm");
        }
    }

    private void warmTable(String name, List<io.tributary.catalog.ColumnDef> columns) throws InterruptedException {
        createTable(name, columns, new int[] {0}, "CREATE TABLE " + name, null);
    }

    /** Creates a table like server relation {@code relation} (a table or a materialized view: its columns and key). */
    public void createRelation(TableDef relation) throws InterruptedException {
        createTable(
                relation.name(),
                relation.columns(),
                relation.primaryKey(),
                relation.definition(),
                relation.watermark());
        tables.put(relation.id(), db.catalog().require(relation.name()).id());
    }

    private void createTable(
            String name,
            List<io.tributary.catalog.ColumnDef> columns,
            int[] primaryKey,
            String definition,
            io.tributary.catalog.WatermarkDef watermark)
            throws InterruptedException {
        db.ddl()
                .createTable(
                        name,
                        columns,
                        primaryKey,
                        definition,
                        false,
                        null,
                        watermark,
                        List.of(),
                        io.tributary.catalog.RelationKind.TABLE);
    }

    /**
     * The server relation each source of view {@code view}'s plan reads, by source ordinal: the
     * plan's source leaves in pre-order, as {@code JobBuilder} numbers the sources whose positions
     * a checkpoint holds (and {@code SnapshotTakeover.sources} counts them). Planned here with the
     * planner the build uses, over the relations created so far ({@link #createRelation} each one
     * first), which plans as the server does (the state tables' numbering relies on it too).
     *
     * @throws TributaryException as CREATE MATERIALIZED VIEW's planning (e.g. 42P01)
     */
    public int[] sourceRelations(TableDef view) {
        io.tributary.plan.ViewPlan plan = planners.apply(db.catalog()).plan(view.query(), 0, view.name());
        Map<Integer, Integer> toServer = new HashMap<>();
        tables.forEach((server, mine) -> toServer.put(mine, server));
        return io.tributary.plan.StatePlan.preOrder(plan.root()).stream()
                .filter(n -> n instanceof io.tributary.plan.SourceNode)
                .mapToInt(n -> {
                    Integer server = toServer.get(((io.tributary.plan.SourceNode) n).relationId());
                    if (server == null) {
                        throw new TributaryException(
                                SqlState.FEATURE_NOT_SUPPORTED,
                                "materialized view \"" + view.name() + "\" reads a relation its job did not list");
                    }
                    return server;
                })
                .toArray();
    }

    /**
     * Stores rows of server relation {@code relationId} as the server's snapshot holds them: each
     * pair is the stored value and the memcomparable primary key. One atomic write per call.
     */
    public void load(int relationId, List<byte[][]> rows) {
        int table = tables.get(relationId);
        WriteBuffer buffer = db.store().newWriteBuffer();
        for (byte[][] row : rows) {
            buffer.put(Keyspace.DATA, TableKeys.rowKey(table, row[1]), row[0]);
        }
        db.store().write(buffer);
    }

    /**
     * Creates server view {@code view} over the loaded relations and waits until its backfill is
     * complete, going on from the checkpoint {@code resume} holds (the checkpoints earlier attempts
     * committed, in order; empty to start from the beginning) and handing each checkpoint it takes
     * to {@code out}. The view's state as of the checkpoint is what replaying it gives, and its
     * positions say which snapshot rows that state has seen, so the rows after them are read on
     * top of exactly that state, as when one run is checkpointed and restarted.
     *
     * @param serverTables the server's ids of the view's table and state tables ({@link
     *     ViewSnapshotJob#stateTables})
     * @param rateLimit the build's backfill rows/s per parallel unit when positive (the server's
     *     rate limit as of the job), else unthrottled
     * @return how many snapshot rows the checkpoint had read (0 when it started from the beginning)
     * @throws TributaryException as CREATE MATERIALIZED VIEW (e.g. 42P01 when it reads a relation
     *     that was not created here), 0A000 when the view plans to other state tables here than in
     *     the server, 22023 when the checkpoint holds a key of another table, XX000 when the build
     *     failed (e.g. {@code out} threw)
     */
    public long buildView(
            TableDef view,
            int[] serverTables,
            long serverSnapshotEpoch,
            RemoteViewAdoption.StagedState resume,
            long rateLimit,
            Checkpoints out)
            throws InterruptedException, java.sql.SQLException {
        // created paused (rate 0): nothing is read before the checkpoint is loaded and recorded
        db.ddl()
                .createMaterializedView(
                        view.name(),
                        view.query(),
                        view.definition(),
                        false,
                        Math.max(1, view.parallelism()),
                        true,
                        0,
                        ViewBackfillPlacement.LOCAL,
                        notice -> {},
                        () -> {});
        TableDef scratch = db.catalog().require(view.name());
        Map<Integer, Integer> toServer = serverIds(scratch, serverTables);
        Map<Integer, Integer> toScratch = new HashMap<>();
        toServer.forEach((mine, theirs) -> toScratch.put(theirs, mine));
        // positions stay under their marker: loading them moves them to the job's progress table
        toScratch.put(ViewSnapshotJob.POSITIONS_TABLE, ViewSnapshotJob.POSITIONS_TABLE);
        // snapshot rows read per position key: the resumed checkpoint's, then as checkpoints move them
        Map<java.nio.ByteBuffer, Long> resumedRows = new HashMap<>();
        db.ddl()
                .loadViewCheckpoint(
                        view.name(),
                        sink -> resume.read((key, value) -> {
                            byte[] moved = moveTable(key, toScratch);
                            if (moved == null) {
                                throw new TributaryException(
                                        SqlState.INVALID_PARAMETER_VALUE,
                                        "a checkpoint of materialized view \"" + view.name()
                                                + "\" holds a key of another table");
                            }
                            if (tableOf(key) == ViewSnapshotJob.POSITIONS_TABLE) {
                                resumedRows.put(
                                        java.nio.ByteBuffer.wrap(key),
                                        value == null
                                                ? 0
                                                : SnapshotTakeover.snapshotRows(TableKeys.vnodeOf(key), value));
                            }
                            sink.accept(moved, value);
                        }));
        long resumedTotal =
                resumedRows.values().stream().mapToLong(Long::longValue).sum();
        long[] rowsRead = {resumedTotal};
        // checkpoints are written one at a time, maybe from different threads: the lock orders them
        store.record(toServer::containsKey, (keys, values) -> {
            synchronized (rowsRead) {
                List<byte[]> moved = new java.util.ArrayList<>(keys.size());
                List<byte[]> movedValues = new java.util.ArrayList<>(values.size());
                for (int i = 0; i < keys.size(); i++) {
                    byte[] key = moveTable(keys.get(i), toServer);
                    byte[] value = values.get(i);
                    if (tableOf(key) == ViewSnapshotJob.POSITIONS_TABLE && value != null) {
                        value = SnapshotTakeover.rebase(TableKeys.vnodeOf(key), value, serverSnapshotEpoch);
                    }
                    if (tableOf(key) == ViewSnapshotJob.POSITIONS_TABLE) {
                        long now = value == null ? 0 : SnapshotTakeover.snapshotRows(TableKeys.vnodeOf(key), value);
                        Long before = resumedRows.put(java.nio.ByteBuffer.wrap(key), now);
                        rowsRead[0] += now - (before == null ? 0 : before);
                    }
                    moved.add(key);
                    movedValues.add(value);
                }
                out.committed(moved, movedValues, rowsRead[0]);
            }
        });
        db.ddl().relaunchView(view.name());
        db.ddl()
                .setBackfillRateLimit(
                        view.name(), rateLimit > 0 ? rateLimit : io.tributary.stream.backfill.BackfillRate.UNLIMITED);
        db.ddl().await(view.name(), () -> {});
        if (!db.ddl().jobs().isEmpty() || db.catalog().table(view.name()).isEmpty()) {
            throw new TributaryException(
                    SqlState.INTERNAL_ERROR, "the backfill of materialized view \"" + view.name() + "\" failed");
        }
        return resumedTotal;
    }

    /**
     * Scratch table id to server table id, for the view's table, its state tables and the progress
     * table of its backfill (being created).
     */
    private Map<Integer, Integer> serverIds(TableDef scratch, int[] serverTables) {
        int[] state = checkStateTables(scratch, serverTables);
        Map<Integer, Integer> out = new HashMap<>();
        out.put(scratch.id(), serverTables[0]);
        for (int i = 0; i < state.length; i++) {
            out.put(state[i], serverTables[i + 1]);
        }
        try (ReadView view = db.store().latest()) {
            byte[] record = view.get(Keyspace.CATALOG, BackfillJobRecord.key(scratch.id()));
            out.put(BackfillJobRecord.decode(record).progressTableId(), ViewSnapshotJob.POSITIONS_TABLE);
        }
        return out;
    }

    /** The scratch view's state tables, checked to be as many as the server's. */
    private static int[] checkStateTables(TableDef scratch, int[] serverTables) {
        int[] state = scratch.stateTableIds();
        if (state.length + 1 != serverTables.length) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "materialized view \"" + scratch.name() + "\" plans to " + state.length + " state tables on this"
                            + " worker and to " + (serverTables.length - 1) + " in the server; run a worker of the"
                            + " server's version");
        }
        return state;
    }

    private static int tableOf(byte[] key) {
        return java.nio.ByteBuffer.wrap(key, 0, 4).getInt();
    }

    /** {@code key} with its table id mapped by {@code ids}; null for a table {@code ids} lacks. */
    private static byte[] moveTable(byte[] key, Map<Integer, Integer> ids) {
        Integer to = key.length < TableKeys.PREFIX_LENGTH ? null : ids.get(tableOf(key));
        if (to == null) {
            return null;
        }
        byte[] moved = key.clone();
        java.nio.ByteBuffer.wrap(moved).putInt(0, to);
        return moved;
    }

    /**
     * Hands every key-value pair of the view's table and operator state tables to {@code out}, each
     * key moved to the server's table: {@code serverTables} are the server's ids in the order of
     * {@code io.tributary.meta.ddl.ViewSnapshotJob#stateTables} (the view's table, then its state
     * tables in plan order), which the scratch view numbers the same way.
     *
     * @throws TributaryException 0A000 when the view planned here has another number of state tables
     */
    public void readState(String viewName, int[] serverTables, JobPlacement.PairConsumer out) {
        TableDef scratch = db.catalog().require(viewName);
        int[] state = checkStateTables(scratch, serverTables);
        try (ReadView view = db.store().latest()) {
            for (int i = 0; i < serverTables.length; i++) {
                int from = i == 0 ? scratch.id() : state[i - 1];
                try (KvIterator it = view.scan(Keyspace.DATA, TableKeys.tableStart(from), TableKeys.tableEnd(from))) {
                    while (it.next()) {
                        byte[] key = it.key().clone();
                        java.nio.ByteBuffer.wrap(key).putInt(0, serverTables[i]);
                        out.accept(key, it.value());
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        db.close();
    }
}
