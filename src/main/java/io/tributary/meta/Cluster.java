package io.tributary.meta;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.DatabaseEntry;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.connector.BuiltinConnectors;
import io.tributary.connector.Connectors;
import io.tributary.meta.jobs.JobPlacement;
import io.tributary.plan.ViewPlanner;
import io.tributary.storage.SharedStore;
import io.tributary.storage.StateStore;
import io.tributary.storage.rocksdb.RocksSharedStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The databases of one server: one RocksDB ({@link SharedStore}) whose namespaces hold them, and one
 * {@link Database} open per namespace, each with its own catalog, barrier loop, committed epoch and
 * recovery. Nothing of one database waits for another: each commits its own epochs into its own
 * column families, so a database that is slow, stalled or recovering holds up no other.
 *
 * <p>Which databases exist is the store's root record ({@link DatabaseDirectory}), replaced whole in
 * one synced write: CREATE DATABASE makes the namespace, then writes the record; DROP DATABASE writes
 * the record, then removes the namespace. A crash in between leaves a namespace that no record names,
 * which {@link #open} removes. So after a crash a database is either whole or absent.
 *
 * <p>Sessions hold the database they connected to ({@link #connect}, {@link #disconnect}); a database
 * with sessions cannot be dropped, as in PostgreSQL. Thread-safe: creating, dropping, connecting and
 * disconnecting lock this object; reading the list does not.
 */
public final class Cluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);

    private final SharedStore store;
    private final long barrierIntervalMs;
    private final Function<Catalog, ViewPlanner> planners;
    private final Connectors connectors;
    /** Where database {@code dev}'s jobs run; the other databases place theirs through it ({@link JobPlacement#forDatabase}). */
    private final JobPlacement devPlacement;
    /** Stands between a database and its namespace: the namespace itself, except in failure tests. */
    private final BiFunction<String, StateStore, StateStore> stores;

    private final Map<String, Database> databases = new ConcurrentHashMap<>();
    /** Open sessions per database name; changed under this object's lock. */
    private final Map<String, Integer> sessions = new HashMap<>();

    /** How often reader records whose view is gone are looked for, after the sweep at startup. */
    private static final long SWEEP_INTERVAL_SECONDS = 30;

    /** Runs {@link #sweepReaderRecords} periodically; a daemon, stopped at close. */
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "reader-record-sweeper");
        t.setDaemon(true);
        return t;
    });

    private volatile DatabaseDirectory directory;
    private boolean closed;
    /** The server's --max-backfill-jobs, given to every database, also those created later. */
    private int maxBackfillJobs = -1;

    private Cluster(
            SharedStore store,
            long barrierIntervalMs,
            Function<Catalog, ViewPlanner> planners,
            Connectors connectors,
            JobPlacement devPlacement,
            BiFunction<String, StateStore, StateStore> stores) {
        this.store = store;
        this.devPlacement = devPlacement;
        this.barrierIntervalMs = barrierIntervalMs;
        this.planners = planners;
        this.connectors = connectors;
        this.stores = stores;
        this.directory = DatabaseDirectory.decode(store.readRoot());
    }

    /** Opens (or creates) the cluster in {@code dataDir} with the built-in connectors. */
    public static Cluster open(Path dataDir, long barrierIntervalMs, Function<Catalog, ViewPlanner> planners) {
        return open(dataDir, barrierIntervalMs, planners, BuiltinConnectors.create());
    }

    /**
     * Opens (or creates) the cluster in {@code dataDir}: removes what a crash left of a database
     * being created or dropped, then opens and recovers every database, each starting its own
     * barrier loop. A new data directory has database {@code dev} alone; a data directory made before
     * there were several databases opens as {@code dev}.
     */
    public static Cluster open(
            Path dataDir, long barrierIntervalMs, Function<Catalog, ViewPlanner> planners, Connectors connectors) {
        return open(dataDir, barrierIntervalMs, planners, connectors, JobPlacement.localOnly());
    }

    /**
     * Like {@link #open(Path, long, Function, Connectors)}, placing database {@code dev}'s jobs (sink
     * backfills with {@code backfill.remote}) with {@code devPlacement}, which {@code dev} closes;
     * the other databases place theirs through its remote scheduler ({@link JobPlacement#forDatabase}).
     */
    public static Cluster open(
            Path dataDir,
            long barrierIntervalMs,
            Function<Catalog, ViewPlanner> planners,
            Connectors connectors,
            JobPlacement devPlacement) {
        return open(dataDir, barrierIntervalMs, planners, connectors, devPlacement, (name, namespace) -> namespace);
    }

    /**
     * Like {@link #open(Path, long, Function, Connectors)}, each database seeing its namespace through
     * {@code stores} (database name, namespace): the seam where failure tests make one database's
     * commits fail.
     */
    static Cluster open(
            Path dataDir,
            long barrierIntervalMs,
            Function<Catalog, ViewPlanner> planners,
            Connectors connectors,
            JobPlacement devPlacement,
            BiFunction<String, StateStore, StateStore> stores) {
        SharedStore store = RocksSharedStore.open(dataDir.resolve("state"));
        Cluster cluster = new Cluster(store, barrierIntervalMs, planners, connectors, devPlacement, stores);
        try {
            cluster.recover();
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void recover() {
        Set<Integer> named = new HashSet<>(directory.ids().values());
        for (int id : store.namespaces()) {
            if (!named.contains(id)) {
                LOG.info("removing namespace {}: its database was being created or dropped at a crash", id);
                store.dropNamespace(id);
            }
        }
        // every catalog is read before any database replans a view that reads another one
        for (Map.Entry<String, Integer> e : directory.ids().entrySet()) {
            databases.put(e.getKey(), openDatabase(e.getKey(), e.getValue()));
        }
        databases.values().forEach(this::bindPeers);
        for (Database db : databases.values()) {
            db.startRecovered();
        }
        sweepReaderRecords();
        sweeper.scheduleWithFixedDelay(
                this::sweepReaderRecords, SWEEP_INTERVAL_SECONDS, SWEEP_INTERVAL_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * Forgets, in every database, the reader records of cross-database views that no longer exist
     * (a crash between the reader's DROP and the upstream's next epoch leaves one); see {@link
     * io.tributary.meta.ddl.CrossDatabaseLogs#sweep}. At startup once every database runs, then
     * every {@link #SWEEP_INTERVAL_SECONDS} on the sweeper thread.
     */
    private void sweepReaderRecords() {
        try {
            for (Database db : databases.values()) {
                db.ddl()
                        .crossDatabaseLogs()
                        .sweep((database, view) -> databaseById(database)
                                .map(reader -> reader.ddl().holdsView(view))
                                .orElse(false));
            }
        } catch (RuntimeException e) {
            // a database closing meanwhile: the next sweep (or the next startup) finishes the work
            LOG.warn("sweeping cross-database reader records failed", e);
        }
    }

    /**
     * Lets {@code db}'s views read the tables of the other databases (docs/ARCHITECTURE.md,
     * Cross-database views): their catalogs for planning, their upstream sides for snapshots and logs,
     * and how DROP TABLE ... CASCADE reaches views in {@code db}.
     */
    private void bindPeers(Database db) {
        db.catalog().bindPeers(name -> Optional.ofNullable(databases.get(name)).map(Database::catalog));
        db.ddl().bindPeers(id -> databaseById(id).map(Database::ddl));
        db.ddl().crossDatabaseLogs().bindConsumerDrops((consumer, notices) -> {
            Optional<Database> reader = databaseById(consumer.database());
            if (reader.isEmpty()) {
                return;
            }
            for (io.tributary.catalog.TableDef t : reader.get().catalog().tables()) {
                if (t.id() == consumer.view()) {
                    reader.get()
                            .ddl()
                            .drop(
                                    List.of(t.name()),
                                    io.tributary.catalog.RelationKind.MATERIALIZED_VIEW,
                                    true,
                                    true,
                                    notices);
                }
            }
        });
    }

    private Optional<Database> databaseById(int id) {
        for (Database db : databases.values()) {
            if (db.catalog().databaseId() == id) {
                return Optional.of(db);
            }
        }
        return Optional.empty();
    }

    /** Opens a database without starting it; see {@link Database#openUnstarted}. */
    private Database openDatabase(String name, int id) {
        StateStore namespace = store.openNamespace(id);
        try {
            return Database.openUnstarted(
                    name,
                    () -> directory.entries(),
                    stores.apply(name, namespace),
                    barrierIntervalMs,
                    planners,
                    connectors,
                    name.equals(Catalog.DATABASE) ? devPlacement : devPlacement.forDatabase(name, id));
        } catch (RuntimeException e) {
            namespace.close();
            throw e;
        }
    }

    /**
     * How many view backfills may run at once in each database ({@code --max-backfill-jobs}); applies
     * to the databases open now and to those created later. Any thread.
     */
    public synchronized void setMaxBackfillJobs(int jobs) {
        maxBackfillJobs = jobs;
        databases.values().forEach(db -> db.ddl().setMaxBackfillJobs(jobs));
    }

    /** Every database, in name order; any thread. */
    public List<DatabaseEntry> list() {
        return directory.entries();
    }

    /** The open database {@code name}, if it exists; any thread. */
    public Optional<Database> database(String name) {
        return Optional.ofNullable(databases.get(name));
    }

    /**
     * Database {@code name} for a new session, counted until {@link #disconnect}; any thread.
     *
     * @throws TributaryException 3D000 when no such database exists, as PostgreSQL answers at connect
     */
    public synchronized Database connect(String name) {
        Database db = databases.get(name);
        if (db == null) {
            throw noSuchDatabase(name);
        }
        sessions.merge(name, 1, Integer::sum);
        return db;
    }

    /** Ends a session's hold on the database {@link #connect} gave it. */
    public synchronized void disconnect(Database db) {
        sessions.computeIfPresent(db.name(), (k, n) -> n == 1 ? null : n - 1);
    }

    /**
     * {@code CREATE DATABASE name}: an empty database, durable when this returns. Any thread.
     *
     * @throws TributaryException 42P04 when it exists
     */
    public synchronized void create(String name) {
        checkOpen();
        if (directory.ids().containsKey(name)) {
            throw new TributaryException(SqlState.DUPLICATE_DATABASE, "database \"" + name + "\" already exists");
        }
        DatabaseDirectory next = directory.with(name);
        int id = next.ids().get(name);
        Database db = openDatabase(name, id);
        try {
            bindPeers(db);
            db.startRecovered();
            store.writeRoot(next.encode());
        } catch (RuntimeException e) {
            db.close();
            store.dropNamespace(id);
            throw e;
        }
        directory = next;
        if (maxBackfillJobs > 0) {
            db.ddl().setMaxBackfillJobs(maxBackfillJobs);
        }
        databases.put(name, db);
        LOG.info("created database {} (namespace {})", name, id);
    }

    /**
     * {@code DROP DATABASE [IF EXISTS] name}: stops its jobs, sources and sinks, removes it from the
     * list durably, then removes its keys. Any thread.
     *
     * @param connectedTo the database of the session dropping it
     * @return false when it did not exist and {@code ifExists} (the caller gives PostgreSQL's notice)
     * @throws TributaryException 3D000 when it does not exist; 55006 when it is {@code connectedTo}
     *     or other sessions are connected to it; 0A000 for {@code dev}
     */
    public synchronized boolean drop(String name, boolean ifExists, String connectedTo) {
        return drop(name, ifExists, connectedTo, db -> {});
    }

    /**
     * Like {@link #drop(String, boolean, String)}, calling {@code checkReaders} with the database
     * once it is known to exist and to have no sessions, before anything is dropped, under this
     * object's lock: the session layer refuses there (2BP01) when views of other databases read it.
     */
    public synchronized boolean drop(
            String name, boolean ifExists, String connectedTo, java.util.function.Consumer<Database> checkReaders) {
        checkOpen();
        Integer id = directory.ids().get(name);
        if (id == null) {
            if (ifExists) {
                return false;
            }
            throw noSuchDatabase(name);
        }
        if (name.equals(connectedTo)) {
            throw new TributaryException(SqlState.OBJECT_IN_USE, "cannot drop the currently open database");
        }
        if (id == 0) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "DROP DATABASE " + Catalog.DATABASE + " is not supported: it is the default database");
        }
        int others = sessions.getOrDefault(name, 0);
        if (others > 0) {
            throw new TributaryException(
                    SqlState.OBJECT_IN_USE,
                    "database \"" + name + "\" is being accessed by other users",
                    0,
                    "There " + (others == 1 ? "is 1 other session" : "are " + others + " other sessions")
                            + " using the database.",
                    null,
                    null);
        }
        checkReaders.accept(databases.get(name));
        List<io.tributary.meta.ddl.CrossDatabaseLogs.Consumer> readers =
                databases.get(name).ddl().crossDatabaseLogs().consumers();
        if (!readers.isEmpty()) {
            StringBuilder detail = new StringBuilder();
            for (io.tributary.meta.ddl.CrossDatabaseLogs.Consumer c : readers) {
                detail.append(detail.length() == 0 ? "" : "\n")
                        .append("materialized view ")
                        .append(c.name())
                        .append(" reads database ")
                        .append(name);
            }
            throw new TributaryException(
                    SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                    "cannot drop database " + name + " because materialized views of other databases read it",
                    0,
                    detail.toString(),
                    "Drop those materialized views first, or drop the tables they read with DROP TABLE ... CASCADE.",
                    null);
        }
        DatabaseDirectory next = directory.without(name);
        Database dropped = databases.get(name);
        // the databases it reads stop keeping their logs for its views
        dropped.ddl().detachCrossDatabaseInputs();
        store.writeRoot(next.encode());
        directory = next;
        Database db = databases.remove(name);
        db.close();
        store.dropNamespace(id);
        LOG.info("dropped database {} (namespace {})", name, id);
        return true;
    }

    private static TributaryException noSuchDatabase(String name) {
        return new TributaryException(SqlState.INVALID_CATALOG_NAME, "database \"" + name + "\" does not exist");
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the cluster is closed");
        }
    }

    /** Closes every database (each commits what is staged), then the store. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        sweeper.shutdownNow();
        // dev last: its job placement owns the remote scheduler the others place their jobs with
        List<Database> inOrder = new ArrayList<>(databases.values());
        inOrder.sort(Comparator.comparing(db -> db.name().equals(Catalog.DATABASE)));
        for (Database db : inOrder) {
            try {
                db.close();
            } catch (RuntimeException e) {
                LOG.warn("closing database {} failed", db.name(), e);
            }
        }
        databases.clear();
        store.close();
    }
}
