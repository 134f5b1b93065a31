package io.tributary.meta.sink;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.CatalogCodec;
import io.tributary.catalog.SinkDef;
import io.tributary.catalog.SourceDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.Epoch;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.VirtualNodes;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.RowStream;
import io.tributary.stream.runtime.StreamRuntime;
import io.tributary.stream.upstream.LocalUpstreamTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sinks of one database (docs/ARCHITECTURE.md, Sinks): their catalog records, the change logs
 * kept for them and their delivery threads. Every change of a sink's record commits in an epoch
 * (staged at an epoch boundary where it pins a snapshot or starts a log), so after a crash the
 * record, the pinned snapshot and the kept log agree; where delivery stands is read from the
 * target. Thread-safe; DDL methods return once the change is durable.
 */
public final class SinkManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SinkManager.class);
    private static final String PIN_PREFIX = "sink-";
    private static final Pattern PASSWORD = Pattern.compile("(?i)(password\\s*=\\s*)'(?:[^']|'')*'");

    private final StateStore store;
    private final StreamRuntime runtime;
    private final BarrierManager barriers;
    private final Catalog catalog;
    private final Map<String, RunningSink> sinks = new ConcurrentSkipListMap<>();
    private final Set<String> pendingNames = new HashSet<>();
    private final JobPlacement placement;

    /**
     * @param placement where backfills run (see {@code backfill.remote})
     */
    public SinkManager(
            StateStore store, StreamRuntime runtime, BarrierManager barriers, Catalog catalog, JobPlacement placement) {
        this.placement = placement;
        this.store = store;
        this.runtime = runtime;
        this.barriers = barriers;
        this.catalog = catalog;
    }

    /**
     * Loads the sinks' records and keeps their relations' change logs again. Called once at
     * startup, after the catalog is recovered and before the views' jobs are (so a view's log is
     * kept from its job's first epoch) and before the barrier manager starts.
     */
    public void recover() {
        Set<String> pins = new HashSet<>();
        try (ReadView view = store.snapshot();
                KvIterator it =
                        view.scan(Keyspace.CATALOG, CatalogCodec.sinkPrefixStart(), CatalogCodec.sinkPrefixEnd())) {
            while (it.next()) {
                SinkDef def = CatalogCodec.decodeSink(it.value());
                TableDef relation = catalog.tables().stream()
                        .filter(t -> t.id() == def.relationId())
                        .findFirst()
                        .orElse(null);
                if (relation == null) {
                    LOG.error(
                            "sink {} delivers relation id {}, which is gone; it does not start",
                            def.name(),
                            def.relationId());
                    continue;
                }
                sinks.put(
                        def.name(),
                        new RunningSink(def, relation, keepLog(relation), store, this::backfillDone, false, placement));
                if (def.pin() != null) {
                    pins.add(def.pin());
                }
            }
        }
        for (String pin : store.pinned()) {
            if (pin.startsWith(PIN_PREFIX) && !pins.contains(pin)) {
                store.unpin(pin);
            }
        }
    }

    /** Starts every recovered sink's delivery; called once the barrier manager runs. */
    public void startAll() {
        for (RunningSink s : sinks.values()) {
            s.start();
        }
        if (!sinks.isEmpty()) {
            LOG.info("resumed {} sink(s)", sinks.size());
        }
    }

    private StreamRuntime.LogKeeper keepLog(TableDef relation) {
        return runtime.keepLog(
                relation.id(),
                relation.isView(),
                relation.primaryKey(),
                relation.primaryKeyTypes(),
                relation.columnTypes());
    }

    /** Every sink's record, by name. Any thread. */
    public List<SinkDef> sinks() {
        return sinks.values().stream().map(RunningSink::def).toList();
    }

    /** The sinks delivering relation {@code relationId}. Any thread. */
    public List<SinkDef> sinksOn(int relationId) {
        return sinks().stream().filter(s -> s.relationId() == relationId).toList();
    }

    /**
     * {@code CREATE SINK name FROM relation WITH (options)}: checks the options and the target
     * (creating the target table when asked), then at an epoch boundary E0 pins the snapshot (when
     * {@code snapshot} is on), starts keeping the relation's change log from E0 + 1 and stores the
     * record; the head and the backfill start once that is durable. Nothing is stored when a check
     * fails.
     *
     * @param id a fresh catalog id for the sink
     * @param rateLimit its initial SINK_RATE_LIMIT ({@link SourceDef#UNLIMITED} for none, 0 paused)
     * @return false when the sink existed and {@code ifNotExists} was set
     * @throws TributaryException 42710 when the sink exists; 42P01 for an unknown relation (or a
     *     missing target table); 55000 for a view still being created; 08001 for an unreachable
     *     target; 42804, 42P10, 42601, 22023 as {@link SinkOptions} and {@link TargetTable} say
     */
    public boolean create(
            int id,
            String name,
            boolean ifNotExists,
            String relationName,
            Map<String, String> options,
            String sql,
            long rateLimit)
            throws InterruptedException {
        TableDef relation = catalog.require(relationName);
        catalog.unreadable(relation.id()).ifPresent(why -> {
            throw new TributaryException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, why.reason(), null);
        });
        SinkDef.Target target = SinkOptions.parse(name, relation, options);
        if (!reserve(name, ifNotExists)) {
            return false;
        }
        try {
            SinkDef draft = new SinkDef(
                    id,
                    name,
                    relation.id(),
                    relation.name(),
                    PASSWORD.matcher(sql).replaceAll("$1'***'"),
                    target,
                    rateLimit,
                    0,
                    0,
                    0,
                    null);
            TargetTable table = new TargetTable(draft, relation);
            try (Connection c = TargetTable.connect(target)) {
                table.prepare(c, relation, SinkOptions.createTable(options));
            } catch (SQLException e) {
                throw targetError(e);
            }
            if (target.snapshot()) {
                // most of the pin's flush happens here, not under the barrier lock writers wait on
                store.flushMemory();
            }
            barriers.awaitCommitted(barriers.stageAtBoundary(new NewSink(draft, relation)));
            return true;
        } finally {
            release(name);
        }
    }

    private synchronized boolean reserve(String name, boolean ifNotExists) {
        if (sinks.containsKey(name) || pendingNames.contains(name)) {
            if (ifNotExists) {
                return false;
            }
            throw new TributaryException(SqlState.DUPLICATE_OBJECT, "sink \"" + name + "\" already exists");
        }
        pendingNames.add(name);
        return true;
    }

    private synchronized void release(String name) {
        pendingNames.remove(name);
    }

    /** The error a target's SQLException becomes at CREATE: its own SQLSTATE, named as the target's. */
    private static TributaryException targetError(SQLException e) {
        String state = e.getSQLState() == null ? SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION : e.getSQLState();
        if (state.startsWith("08")) {
            state = SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION;
        }
        return new TributaryException(state, "sink target: " + e.getMessage(), e);
    }

    /** A new sink: pins its snapshot and starts its log at the epoch boundary it is staged at. */
    private final class NewSink implements EpochChange {
        private final SinkDef draft;
        private final TableDef relation;
        private SinkDef def;
        private StreamRuntime.LogKeeper keeper;

        NewSink(SinkDef draft, TableDef relation) {
            this.draft = draft;
            this.relation = relation;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            if (catalog.table(relation.name()).map(t -> t.id() != relation.id()).orElse(true)) {
                throw Catalog.undefinedTable(relation.name());
            }
            long epoch;
            String pin = null;
            if (draft.target().snapshot()) {
                PinnedSnapshot p = store.pin(PIN_PREFIX + draft.id() + "-0");
                epoch = p.epoch();
                pin = p.name();
            } else {
                epoch = store.committedEpoch();
            }
            def = new SinkDef(
                    draft.id(),
                    draft.name(),
                    draft.relationId(),
                    draft.relationName(),
                    draft.definition(),
                    draft.target(),
                    draft.rateLimit(),
                    epoch,
                    0,
                    pin == null ? 0 : epoch,
                    pin);
            keeper = keepLog(relation);
            buffer.put(Keyspace.CATALOG, CatalogCodec.sinkKey(def.id()), CatalogCodec.encode(def));
        }

        @Override
        public void committed() {
            RunningSink running =
                    new RunningSink(def, relation, keeper, store, SinkManager.this::backfillDone, true, placement);
            sinks.put(def.name(), running);
            running.start();
        }

        @Override
        public void failed() {
            if (keeper != null) {
                runtime.releaseLog(keeper);
            }
            if (def != null && def.pin() != null) {
                store.unpin(def.pin());
            }
        }
    }

    /**
     * Backfill thread: the target holds the snapshot of {@code copied}; drops its pin from the
     * record (unless a RESYNC replaced it meanwhile) and waits until that is durable.
     */
    private void backfillDone(SinkDef copied) {
        RunningSink running = sinks.get(copied.name());
        if (running == null || copied.pin() == null) {
            return;
        }
        try {
            barriers.awaitCommitted(barriers.stage(new EpochChange() {
                private boolean changed;

                @Override
                public void stage(WriteBuffer buffer) {
                    SinkDef now = running.def();
                    if (sinks.get(copied.name()) != running || now.generation() != copied.generation()) {
                        return;
                    }
                    SinkDef done = now.withSnapshot(now.generation(), now.snapshotEpoch(), null);
                    buffer.put(Keyspace.CATALOG, CatalogCodec.sinkKey(done.id()), CatalogCodec.encode(done));
                    running.def(done);
                    changed = true;
                }

                @Override
                public void committed() {
                    if (changed) {
                        store.unpin(copied.pin());
                    }
                }

                @Override
                public void failed() {
                    if (changed) {
                        running.def(copied);
                    }
                }
            }));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * {@code DROP SINK}: stops its delivery, then removes its record and stops keeping its log.
     * The target table and its status rows stay, as the target's data.
     *
     * @return false when it did not exist (and {@code ifExists} was set)
     * @throws TributaryException 42704 when it does not exist
     */
    public boolean drop(String name, boolean ifExists) throws InterruptedException {
        RunningSink running = sinks.get(name);
        if (running == null) {
            if (ifExists) {
                return false;
            }
            throw new TributaryException(SqlState.UNDEFINED_OBJECT, "sink \"" + name + "\" does not exist");
        }
        // a remote copy is cancelled, not left to its worker (a failed DROP starts it again)
        running.stopBackfill();
        running.stop();
        long ticket;
        try {
            ticket = barriers.stageAtBoundary(stageDrop(running));
        } catch (RuntimeException e) {
            running.start();
            throw e;
        }
        barriers.awaitCommitted(ticket);
        running.cancelStoppedBackfill();
        dropMarkers(running);
        return true;
    }

    private EpochChange stageDrop(RunningSink running) {
        return new EpochChange() {
            @Override
            public void stage(WriteBuffer buffer) {
                buffer.delete(
                        Keyspace.CATALOG, CatalogCodec.sinkKey(running.def().id()));
                sinks.remove(running.def().name(), running);
                runtime.releaseLog(running.keeper());
            }

            @Override
            public void committed() {
                if (running.def().pin() != null) {
                    store.unpin(running.def().pin());
                }
            }

            @Override
            public void failed() {
                // the record stays: keep the log again and deliver on
                running.keeper(keepLog(running.relation()));
                sinks.put(running.def().name(), running);
                running.start();
            }
        };
    }

    /** Best effort: the target may be down; a leftover marker table is harmless and reused by a new sink. */
    private static void dropMarkers(RunningSink running) {
        try (Connection c = TargetTable.connect(running.def().target())) {
            running.table().dropMarkers(c);
        } catch (SQLException | RuntimeException e) {
            LOG.warn(
                    "could not drop the marker table of sink {}: {}",
                    running.def().name(),
                    e.getMessage());
        }
    }

    /**
     * {@code ALTER SINK name SET SINK_RATE_LIMIT}: rows per second over head and backfill
     * ({@link SourceDef#UNLIMITED} for none, 0 pauses); takes effect at once, returns once durable.
     */
    public void setRateLimit(String name, long rowsPerSecond) throws InterruptedException {
        RunningSink running = require(name);
        barriers.awaitCommitted(barriers.stage(new EpochChange() {
            private SinkDef before;

            @Override
            public void stage(WriteBuffer buffer) {
                before = running.def();
                SinkDef altered = before.withRateLimit(rowsPerSecond);
                buffer.put(Keyspace.CATALOG, CatalogCodec.sinkKey(altered.id()), CatalogCodec.encode(altered));
                running.def(altered);
                running.limiter().setRate(rowsPerSecond);
            }

            @Override
            public void failed() {
                running.def(before);
                running.limiter().setRate(before.rateLimit());
            }
        }));
    }

    /**
     * {@code ALTER SINK name RESYNC}: copies a fresh snapshot to the target under the same alias
     * while the head keeps running, then removes target rows the snapshot and the head do not hold.
     * A copy in progress is abandoned for the new one.
     *
     * @throws TributaryException 0A000 for an append-only sink (its target has no key to merge on)
     */
    public void resync(String name) throws InterruptedException {
        RunningSink running = require(name);
        if (!running.def().target().upsert()) {
            throw TributaryException.notSupported("ALTER SINK ... RESYNC of an append-only sink");
        }
        running.stopBackfill();
        store.flushMemory();
        // before the pin: every head transaction of an epoch after the new snapshot marks its keys
        running.startMarking();
        long ticket;
        try {
            ticket = barriers.stageAtBoundary(new EpochChange() {
                private SinkDef before;
                private SinkDef after;

                @Override
                public void stage(WriteBuffer buffer) {
                    before = running.def();
                    int generation = before.generation() + 1;
                    PinnedSnapshot pin = store.pin(PIN_PREFIX + before.id() + "-" + generation);
                    after = before.withSnapshot(generation, pin.epoch(), pin.name());
                    buffer.put(Keyspace.CATALOG, CatalogCodec.sinkKey(after.id()), CatalogCodec.encode(after));
                    running.def(after);
                }

                @Override
                public void committed() {
                    if (before.pin() != null) {
                        store.unpin(before.pin());
                    }
                    running.startBackfill();
                }

                @Override
                public void failed() {
                    store.unpin(after.pin());
                    running.def(before);
                    running.startBackfill();
                }
            });
        } catch (RuntimeException e) {
            running.startBackfill();
            throw e;
        }
        barriers.awaitCommitted(ticket);
    }

    private RunningSink require(String name) {
        RunningSink running = sinks.get(name);
        if (running == null) {
            throw new TributaryException(SqlState.UNDEFINED_OBJECT, "sink \"" + name + "\" does not exist");
        }
        return running;
    }

    /** One delivery thread's progress, for {@code tributary_catalog.sink_progress}. */
    public record DeliveryProgress(
            String sink,
            String relation,
            String part,
            String phase,
            long epoch,
            long rows,
            long lagMillis,
            long rateLimit,
            String lastError,
            int vnodesDone) {}

    /**
     * A sink's backfill that runs now, for {@code SHOW JOBS}: its job id is the sink's id.
     *
     * @param placement {@code local}, {@code remote:<worker>} or {@code waiting for a worker}
     */
    public record BackfillJob(int id, String sink, String statement, String placement, long rows) {}

    /** The sinks' backfills that run now (here or on a worker). Any thread. */
    public List<BackfillJob> backfillJobs() {
        List<BackfillJob> out = new ArrayList<>();
        for (RunningSink s : sinks.values()) {
            String where = s.backfillPlacement();
            SinkProgress b = s.backfillProgress();
            if (where != null && b != null) {
                SinkDef def = s.def();
                out.add(new BackfillJob(def.id(), def.name(), def.definition(), where, b.rows()));
            }
        }
        return out;
    }

    /**
     * {@code CANCEL JOBS id}: cancels the backfill of the sink whose id is {@code sinkId}, wherever
     * it runs; see {@link RunningSink#cancelBackfill}. A session thread.
     *
     * @return false when no such sink copies a snapshot now
     */
    public boolean cancelBackfill(int sinkId) {
        for (RunningSink s : sinks.values()) {
            if (s.def().id() == sinkId) {
                return s.cancelBackfill();
            }
        }
        return false;
    }

    /** The progress of every sink's head and backfill. Any thread. */
    public List<DeliveryProgress> progress() {
        long committedMillis = Epoch.millis(store.committedEpoch());
        List<DeliveryProgress> out = new ArrayList<>();
        for (RunningSink s : sinks.values()) {
            SinkDef def = s.def();
            SinkProgress h = s.headProgress();
            long lag = h.epoch() == 0 ? -1 : Math.max(0, committedMillis - Epoch.millis(h.epoch()));
            out.add(new DeliveryProgress(
                    def.name(),
                    def.relationName(),
                    "head",
                    h.phase(),
                    h.epoch(),
                    h.rows(),
                    lag,
                    def.rateLimit(),
                    h.lastError(),
                    -1));
            SinkProgress b = s.backfillProgress();
            if (b != null) {
                String where = s.backfillPlacement();
                out.add(new DeliveryProgress(
                        def.name(),
                        def.relationName(),
                        "backfill",
                        where == null || where.equals("local") ? b.phase() : where,
                        b.epoch(),
                        b.rows(),
                        -1,
                        def.rateLimit(),
                        b.lastError(),
                        b.vnodesDone()));
            }
        }
        return out;
    }

    /**
     * A piece of an exported snapshot, for a worker's {@code COPY tributary_snapshot(...)}: up to
     * {@code limit} rows of vnode {@code vnode} after key {@code afterKey} (null: from its start),
     * in key order. A snapshot is exported while the sink's backfill of it runs. Session threads.
     *
     * @param snapshotId {@code sink:<id>:<generation>:<epoch>}, from the job's payload
     * @throws TributaryException 55000 when that snapshot is not (or no longer) exported, 22023 for
     *     a malformed id or a vnode out of range
     */
    public SnapshotChunk snapshotChunk(String snapshotId, int vnode, byte[] afterKey, int limit) {
        Exported e = exported(snapshotId, vnode, limit);
        RunningSink running = e.running();
        SinkDef def = e.def();
        TableDef relation = running.relation();
        int[] idx = running.table().columnIndexes();
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (int i : idx) {
            names.add(relation.columns().get(i).name());
            types.add(relation.columns().get(i).type());
        }
        names.add("tributary_op");
        types.add(DataType.TEXT);
        names.add("tributary_pk");
        types.add(DataType.of(TypeKind.BYTEA));
        List<Object[]> out = new ArrayList<>();
        try (LocalUpstreamTable upstream = LocalUpstreamTable.open(
                        store,
                        new PinnedSnapshot(def.pin(), def.snapshotEpoch()),
                        def.relationId(),
                        relation.columnTypes());
                RowStream rows = upstream.snapshot(vnode, def.snapshotEpoch(), afterKey)) {
            while (out.size() < limit && rows.next()) {
                Object[] row = rows.row();
                Object[] o = new Object[idx.length + 2];
                for (int i = 0; i < idx.length; i++) {
                    o[i] = row[idx[i]];
                }
                o[idx.length] = "U";
                o[idx.length + 1] = rows.pk();
                out.add(o);
            }
        }
        return new SnapshotChunk(names, types, out);
    }

    /**
     * Like {@link #snapshotChunk}, in PostgreSQL's binary COPY format (header, tuples, trailer), the
     * same columns encoded straight from the stored rows ({@link CopyBinary}), for a relation whose
     * written columns all have a binary form ({@link BackfillTarget#binary()}). Session threads.
     *
     * @throws TributaryException as {@link #snapshotChunk}; 0A000 when a column has no binary form here
     */
    public SnapshotBinaryPiece snapshotBinary(String snapshotId, int vnode, byte[] afterKey, int limit) {
        Exported e = exported(snapshotId, vnode, limit);
        RunningSink running = e.running();
        SinkDef def = e.def();
        TableDef relation = running.relation();
        int[] idx = running.table().columnIndexes();
        if (!CopyBinary.supports(relation.columnTypes(), idx)) {
            throw TributaryException.notSupported("the binary format of tributary_snapshot for a NUMERIC column");
        }
        CopyBinary body =
                new CopyBinary(relation.columnTypes(), idx, running.table().keyIndexes(relation), true, true);
        body.start();
        try (LocalUpstreamTable upstream = LocalUpstreamTable.open(
                        store,
                        new PinnedSnapshot(def.pin(), def.snapshotEpoch()),
                        def.relationId(),
                        relation.columnTypes());
                RowStream rows = upstream.snapshot(vnode, def.snapshotEpoch(), afterKey)) {
            while (body.rows() < limit && rows.next()) {
                body.addKeyed(rows.encodedRow(), 'U', rows.pk());
            }
        }
        body.finish();
        return new SnapshotBinaryPiece(idx.length + 2, body.bytes(), body.rows());
    }

    /**
     * The running sink whose snapshot {@code snapshotId} is exported.
     *
     * @throws TributaryException 55000 when that snapshot is not (or no longer) exported, 22023 for
     *     a malformed id or a vnode out of range
     */
    private Exported exported(String snapshotId, int vnode, int limit) {
        String[] parts = snapshotId.split(":");
        if (parts.length != 4 || !parts[0].equals("sink") || vnode < 0 || vnode >= VirtualNodes.COUNT || limit < 1) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "tributary_snapshot needs a snapshot id sink:<id>:<generation>:<epoch>, a vnode in [0, "
                            + VirtualNodes.COUNT + ") and a positive limit");
        }
        RunningSink running = null;
        for (RunningSink s : sinks.values()) {
            if (String.valueOf(s.def().id()).equals(parts[1])) {
                running = s;
            }
        }
        SinkDef def = running == null ? null : running.def();
        if (def == null || def.pin() == null || !SinkBackfillJob.snapshotId(def).equals(snapshotId)) {
            throw new TributaryException(
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "snapshot " + snapshotId + " is not exported: its sink was dropped or resynced, or its backfill"
                            + " is complete");
        }
        return new Exported(running, def);
    }

    /** A sink whose snapshot is exported, with its record as checked (a RESYNC may replace it meanwhile). */
    private record Exported(RunningSink running, SinkDef def) {}

    /** Stops every sink's delivery; their records and logs stay for the next start. */
    @Override
    public void close() {
        for (RunningSink s : sinks.values()) {
            s.stop();
        }
    }
}
