package io.tributary.meta;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.DatabaseEntry;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.ddl.ViewBackfillPlacement;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.plan.ViewPlanner;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
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
    /** Scratch table id per server relation id. */
    private final Map<Integer, Integer> tables = new HashMap<>();

    private ScratchViewBuild(Database db) {
        this.db = db;
    }

    /** Opens a scratch database in a directory for a snapshot taken at a time; see {@link #open}. */
    @FunctionalInterface
    public interface Opener {
        ScratchViewBuild open(Path dir, long snapshotMillis);
    }

    /**
     * Opens an empty scratch database in {@code dir} with the planner {@code planners} makes, whose
     * epochs all carry the time {@code snapshotMillis} (the server's snapshot epoch's): {@code
     * now()} in the view built here is the server's time of the snapshot, not this machine's
     * clock, as in the server's own backfill of that snapshot.
     */
    public static ScratchViewBuild open(Path dir, Function<Catalog, ViewPlanner> planners, long snapshotMillis) {
        io.tributary.storage.StateStore store = io.tributary.storage.rocksdb.RocksStateStore.open(dir.resolve("state"));
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
        return new ScratchViewBuild(db);
    }

    /** Creates a table like server relation {@code relation} (a table or a materialized view: its columns and key). */
    public void createRelation(TableDef relation) throws InterruptedException {
        db.ddl()
                .createTable(
                        relation.name(),
                        relation.columns(),
                        relation.primaryKey(),
                        relation.definition(),
                        false,
                        null,
                        relation.watermark());
        tables.put(relation.id(), db.catalog().require(relation.name()).id());
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
     * complete.
     *
     * @throws TributaryException as CREATE MATERIALIZED VIEW (e.g. 42P01 when it reads a relation
     *     that was not created here)
     */
    public void buildView(TableDef view) throws InterruptedException {
        db.ddl()
                .createMaterializedView(
                        view.name(),
                        view.query(),
                        view.definition(),
                        false,
                        Math.max(1, view.parallelism()),
                        false,
                        -1,
                        ViewBackfillPlacement.LOCAL,
                        notice -> {},
                        () -> {});
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
        int[] state = scratch.stateTableIds();
        if (state.length + 1 != serverTables.length) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "materialized view \"" + viewName + "\" plans to " + state.length + " state tables on this worker"
                            + " and to " + (serverTables.length - 1) + " in the server; run a worker of the server's"
                            + " version");
        }
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
