package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ForeignRelations;
import io.tributary.catalog.TableDef;
import io.tributary.common.Epoch;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.plan.ViewPlan;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.PinnedSnapshot;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.UpstreamTable;
import io.tributary.stream.backfill.BackfillRate;
import io.tributary.stream.runtime.StreamRuntime;
import io.tributary.stream.upstream.LocalUpstreamTable;
import io.tributary.stream.upstream.OtherDatabaseTable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * The reading side of cross-database views (docs/ARCHITECTURE.md, Cross-database views): for each
 * materialized view of this database that reads tables of other databases, its inputs' snapshot
 * epochs and the table its per-vnode positions live in ({@code xdb/<view>} in the catalog keyspace,
 * kept for the view's life), the upstreams its running job reads, and the report of what each input
 * has durably consumed to the upstream database after every commit of this one. Thread-safe; the
 * methods marked so run under this database's barrier lock.
 */
final class CrossDatabaseInputs {
    private static final String PREFIX = "xdb/";

    /**
     * The cross-database inputs of one view.
     *
     * @param inputs foreign relation id ({@link ForeignRelations}) to the epoch of its snapshot
     * @param snapshotsReleased whether the view is created, so that no snapshot is read any more
     */
    record Inputs(
            int viewId, String viewName, int progressTableId, boolean snapshotsReleased, Map<Integer, Long> inputs) {
        byte[] encode() {
            byte[] name = viewName.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(4 + 4 + 1 + 4 + name.length + 4 + 12 * inputs.size());
            b.putInt(viewId).putInt(progressTableId).put((byte) (snapshotsReleased ? 1 : 0));
            b.putInt(name.length).put(name);
            b.putInt(inputs.size());
            inputs.forEach((id, epoch) -> b.putInt(id).putLong(epoch));
            return b.array();
        }

        static Inputs decode(byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            int viewId = b.getInt();
            int progress = b.getInt();
            boolean released = b.get() == 1;
            byte[] name = new byte[b.getInt()];
            b.get(name);
            int n = b.getInt();
            Map<Integer, Long> inputs = new java.util.TreeMap<>();
            for (int i = 0; i < n; i++) {
                inputs.put(b.getInt(), b.getLong());
            }
            return new Inputs(viewId, new String(name, StandardCharsets.UTF_8), progress, released, inputs);
        }

        Inputs released() {
            return new Inputs(viewId, viewName, progressTableId, true, inputs);
        }
    }

    private final Catalog catalog;
    private final StateStore store;
    private final StreamRuntime runtime;
    private volatile IntFunction<Optional<CrossDatabaseLogs>> peers = id -> Optional.empty();
    private final Map<Integer, Inputs> records = new ConcurrentHashMap<>();
    /** The upstreams of the live jobs of created cross-database views, by view id. */
    private final Map<Integer, Map<Integer, UpstreamTable>> live = new ConcurrentHashMap<>();
    /** Per live view and input, the upstream epoch read through as of this database's last commit. */
    private final Map<Integer, Map<Integer, Long>> committedThrough = new ConcurrentHashMap<>();

    CrossDatabaseInputs(Catalog catalog, StateStore store, StreamRuntime runtime) {
        this.catalog = catalog;
        this.store = store;
        this.runtime = runtime;
        try (ReadView view = store.snapshot();
                KvIterator it = view.scan(Keyspace.CATALOG, bytes(PREFIX), bytes("xdb0"))) {
            while (it.next()) {
                Inputs r = Inputs.decode(it.value());
                records.put(r.viewId(), r);
            }
        }
    }

    /** How to reach another database's upstream side by number; set once by the cluster. */
    void bindPeers(IntFunction<Optional<CrossDatabaseLogs>> peers) {
        this.peers = peers;
    }

    /** The foreign relation ids {@code plan} reads. */
    static List<Integer> foreignInputs(int[] dependsOn) {
        List<Integer> out = new ArrayList<>();
        for (int id : dependsOn) {
            if (ForeignRelations.isForeign(id)) {
                out.add(id);
            }
        }
        return out;
    }

    boolean isCrossView(int viewId) {
        return records.containsKey(viewId);
    }

    private CrossDatabaseLogs peer(int foreignId) {
        int db = ForeignRelations.database(foreignId);
        return peers.apply(db)
                .orElseThrow(() -> new TributaryException(
                        SqlState.INVALID_CATALOG_NAME, "database number " + db + " is not open (dropped?)"));
    }

    private CrossDatabaseLogs.Consumer consumer(int foreignId, int viewId, String viewName) {
        return new CrossDatabaseLogs.Consumer(
                ForeignRelations.relation(foreignId),
                catalog.databaseId(),
                viewId,
                catalog.database() + "." + Catalog.SCHEMA + "." + viewName);
    }

    /**
     * Before a view reading other databases is staged: registers it with each upstream database,
     * which pins its snapshot and keeps its log. Not under any barrier lock.
     *
     * @return the view's record, to stage with the view
     */
    Inputs attach(int viewId, String viewName, int progressTableId, int[] dependsOn) throws InterruptedException {
        Map<Integer, Long> epochs = new java.util.TreeMap<>();
        List<Integer> foreign = foreignInputs(dependsOn);
        try {
            for (int id : foreign) {
                PinnedSnapshot pin = peer(id).attach(consumer(id, viewId, viewName));
                epochs.put(id, pin.epoch());
            }
        } catch (RuntimeException | InterruptedException e) {
            detach(viewId, viewName, epochs.keySet());
            throw e;
        }
        return new Inputs(viewId, viewName, progressTableId, false, epochs);
    }

    /** Under the barrier lock: stages the view's record; it counts from the commit on. */
    void stage(WriteBuffer buffer, Inputs inputs) {
        buffer.put(Keyspace.CATALOG, key(inputs.viewId()), inputs.encode());
        records.put(inputs.viewId(), inputs);
    }

    /** The epoch creating the view failed: forget it here and in its upstream databases. */
    void abandoned(int viewId) {
        Inputs r = records.remove(viewId);
        if (r != null) {
            detach(viewId, r.viewName(), r.inputs().keySet());
        }
    }

    /** Every view's upstream databases forget it (this database is being dropped). */
    void detachAll() {
        for (Inputs r : records.values()) {
            detach(r.viewId(), r.viewName(), r.inputs().keySet());
        }
    }

    /** The view's upstream databases forget it. */
    void detach(int viewId, String viewName, java.util.Collection<Integer> foreign) {
        for (int id : foreign) {
            int db = ForeignRelations.database(id);
            peers.apply(db).ifPresent(p -> p.detach(consumer(id, viewId, viewName)));
        }
    }

    /**
     * Under the barrier lock: stages the removal of a dropped view's record and positions; once
     * that commits, {@link #dropped} tells the upstream databases.
     */
    Optional<Inputs> stageRemoval(WriteBuffer buffer, int viewId) {
        Inputs r = records.get(viewId);
        if (r == null) {
            return Optional.empty();
        }
        stopLive(viewId);
        buffer.delete(Keyspace.CATALOG, key(viewId));
        int progress = r.progressTableId();
        buffer.deleteRange(
                Keyspace.DATA,
                io.tributary.storage.TableKeys.tableStart(progress),
                io.tributary.storage.TableKeys.tableEnd(progress));
        return Optional.of(r);
    }

    /** A dropped view's removal committed: forget it here and in its upstream databases. */
    void dropped(Inputs r) {
        records.remove(r.viewId(), r);
        detach(r.viewId(), r.viewName(), r.inputs().keySet());
    }

    /** A dropped view's removal failed to commit: it stays. */
    void restore(Inputs r) {
        records.put(r.viewId(), r);
    }

    /** Under the barrier lock: the upstreams a view's backfill reads, over each upstream's pinned snapshot. */
    Map<Integer, UpstreamTable> openSnapshots(int viewId) {
        Inputs r = records.get(viewId);
        Map<Integer, UpstreamTable> out = new HashMap<>();
        try {
            for (Map.Entry<Integer, Long> e : r.inputs().entrySet()) {
                CrossDatabaseLogs peer = peer(e.getKey());
                CrossDatabaseLogs.Consumer c = consumer(e.getKey(), viewId, r.viewName());
                TableDef table = upstreamTable(peer, e.getKey(), r.viewName());
                out.put(
                        e.getKey(),
                        new OtherDatabaseTable(LocalUpstreamTable.open(
                                peer.store(),
                                new PinnedSnapshot(c.pinName(), e.getValue()),
                                table.id(),
                                table.columnTypes())));
            }
        } catch (RuntimeException e) {
            out.values().forEach(UpstreamTable::close);
            throw e;
        }
        return out;
    }

    /**
     * Under the barrier lock, in the epoch where a view's backfill joins this database's live flow:
     * its record says the snapshots are no longer read, and its positions stay.
     */
    void stageCreated(WriteBuffer buffer, int viewId) {
        Inputs r = records.get(viewId);
        Inputs released = r.released();
        buffer.put(Keyspace.CATALOG, key(viewId), released.encode());
        records.put(viewId, released);
    }

    /**
     * A view's creation committed: its running job keeps {@code upstreams} (the cross-database
     * ones among them) until it stops, and the upstream databases release the snapshots.
     */
    void created(int viewId, Map<Integer, UpstreamTable> upstreams) {
        Inputs r = records.get(viewId);
        Map<Integer, UpstreamTable> kept = new HashMap<>();
        upstreams.forEach((id, u) -> {
            if (ForeignRelations.isForeign(id)) {
                kept.put(id, u);
            }
        });
        live.put(viewId, kept);
        for (int id : r.inputs().keySet()) {
            peers.apply(ForeignRelations.database(id))
                    .ifPresent(p -> p.releaseSnapshot(consumer(id, viewId, r.viewName())));
        }
    }

    /**
     * Under the barrier lock: starts the live job of a created view reading other databases, its
     * cross-database sources reading their logs from the positions committed in this database.
     */
    void launchLive(TableDef view, ViewPlan plan) {
        Inputs r = records.get(view.id());
        stopLive(view.id());
        Map<Integer, UpstreamTable> upstreams = new HashMap<>();
        try {
            for (Map.Entry<Integer, Long> e : r.inputs().entrySet()) {
                CrossDatabaseLogs peer = peer(e.getKey());
                TableDef table = upstreamTable(peer, e.getKey(), view.name());
                upstreams.put(
                        e.getKey(),
                        new OtherDatabaseTable(LocalUpstreamTable.openLog(
                                peer.store(), e.getValue(), table.id(), table.columnTypes())));
                // a crash between the view's creation and this release left the pin behind
                peer.releaseSnapshot(consumer(e.getKey(), view.id(), view.name()));
            }
            runtime.launch(
                    plan.root(),
                    view.stateTableIds(),
                    Math.max(1, view.parallelism()),
                    upstreams,
                    r.progressTableId(),
                    new BackfillRate(-1));
        } catch (RuntimeException e) {
            upstreams.values().forEach(UpstreamTable::close);
            throw e;
        }
        live.put(view.id(), upstreams);
    }

    /** Under the barrier lock, after the view's job was stopped: closes what it read. */
    void stopLive(int viewId) {
        committedThrough.remove(viewId);
        Map<Integer, UpstreamTable> upstreams = live.remove(viewId);
        if (upstreams != null) {
            upstreams.values().forEach(UpstreamTable::close);
        }
    }

    /**
     * On the committing thread, right after an epoch of this database is durable: tells each
     * upstream database how far the live views have consumed its tables, as that epoch committed it,
     * so it can truncate its logs.
     */
    void committed() {
        for (Integer viewId : live.keySet()) {
            Inputs r = records.get(viewId);
            if (r == null) {
                continue;
            }
            Map<Integer, Long> through = new HashMap<>();
            runtime.followedThrough(viewId).forEach((id, epoch) -> {
                if (ForeignRelations.isForeign(id) && epoch != Long.MAX_VALUE) {
                    through.put(id, epoch);
                    peers.apply(ForeignRelations.database(id))
                            .ifPresent(p -> p.consumed(consumer(id, viewId, r.viewName()), epoch));
                }
            });
            committedThrough.put(viewId, through);
        }
    }

    /** The lag of every cross-database input of this database's views; any thread. */
    List<CrossDatabaseLag> lags() {
        List<CrossDatabaseLag> out = new ArrayList<>();
        for (Inputs r : records.values()) {
            Map<Integer, Long> followed = committedThrough.getOrDefault(r.viewId(), Map.of());
            for (Map.Entry<Integer, Long> e : r.inputs().entrySet()) {
                int id = e.getKey();
                Optional<CrossDatabaseLogs> peer = peers.apply(ForeignRelations.database(id));
                if (peer.isEmpty()) {
                    continue;
                }
                long consumed = followed.getOrDefault(id, -1L);
                if (consumed == Long.MAX_VALUE) {
                    consumed = -1;
                }
                long upstream = peer.get().store().committedEpoch();
                TableDef table = peer.get().catalog().tables().stream()
                        .filter(t -> t.id() == ForeignRelations.relation(id))
                        .findFirst()
                        .orElse(null);
                long lagEpochs = -1;
                long lagMillis = -1;
                if (consumed >= 0) {
                    lagMillis = Math.max(0, Epoch.millis(upstream) - Epoch.millis(consumed));
                    lagEpochs = consumed >= upstream ? 0 : changedEpochs(peer.get(), table, consumed, upstream);
                }
                out.add(new CrossDatabaseLag(
                        r.viewName(),
                        peer.get().catalog().database(),
                        table == null ? "?" : table.name(),
                        consumed,
                        upstream,
                        lagEpochs,
                        lagMillis));
            }
        }
        out.sort(java.util.Comparator.comparing(CrossDatabaseLag::view)
                .thenComparing(CrossDatabaseLag::database)
                .thenComparing(CrossDatabaseLag::relation));
        return out;
    }

    /**
     * How many committed epochs after {@code from} changed the table, up to 1000 (counted from its
     * log); epochs that committed without changing it do not count.
     */
    private static long changedEpochs(CrossDatabaseLogs peer, TableDef table, long from, long upTo) {
        if (table == null) {
            return -1;
        }
        try (LocalUpstreamTable log = LocalUpstreamTable.openLog(peer.store(), from, table.id(), table.columnTypes())) {
            long n = 0;
            long at = from;
            while (n < 1000) {
                OptionalLong next = log.nextChangedEpoch(at);
                if (next.isEmpty() || next.getAsLong() > upTo) {
                    break;
                }
                n++;
                at = next.getAsLong();
            }
            return n;
        }
    }

    private static TableDef upstreamTable(CrossDatabaseLogs peer, int foreignId, String viewName) {
        int relation = ForeignRelations.relation(foreignId);
        for (TableDef t : peer.catalog().tables()) {
            if (t.id() == relation) {
                return t;
            }
        }
        throw new TributaryException(
                SqlState.UNDEFINED_TABLE,
                "a table of database \"" + peer.catalog().database() + "\" read by materialized view \"" + viewName
                        + "\" no longer exists");
    }

    private static byte[] key(int viewId) {
        return bytes(PREFIX + viewId);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
