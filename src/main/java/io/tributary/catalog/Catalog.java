package io.tributary.catalog;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The in-memory catalog of one database ({@code dev} unless {@link #bindDatabase} names another).
 * Relations are keyed by {@link #key}: the bare name in schema {@code public} (as before schemas
 * held relations, so stored records and every caller that names a public relation are unchanged),
 * {@code schema.name} in any other schema. Names of relations created since schemas hold relations
 * contain no {@code .}, so a key's schema is the text before its last {@code .} ({@link
 * #schemaOfKey}). Readers (planning, scans)
 * may call from any thread. Only the catalog service changes it: a created table appears once its
 * epoch is durable; a dropped table disappears when the drop is staged (so no write can be staged
 * for it any more) and comes back if that epoch fails to commit.
 */
public final class Catalog {
    /** The database that always exists, and the one sessions connect to when they name none. */
    public static final String DATABASE = "dev";

    public static final String SCHEMA = "public";

    private volatile String database = DATABASE;
    private volatile java.util.function.Supplier<List<DatabaseEntry>> databases =
            () -> List.of(new DatabaseEntry(DATABASE, 0));
    private volatile java.util.function.Function<String, Optional<Catalog>> peers = name -> Optional.empty();

    private final Map<String, TableDef> tables = new ConcurrentSkipListMap<>();
    private final Map<String, ViewDef> views = new ConcurrentSkipListMap<>();
    /** Schemas made by CREATE SCHEMA; {@link #SCHEMA} and the system schemas are built in and not here. */
    private final Map<String, SchemaDef> schemas = new ConcurrentSkipListMap<>();
    /** Sequences made by CREATE SEQUENCE, by catalog key. */
    private final Map<String, SequenceDef> sequences = new ConcurrentSkipListMap<>();
    /** Relations that exist but cannot be read, with why; see {@link #creating} and {@link #unmaintainable}. */
    private final Map<Integer, java.util.function.Supplier<Unreadable>> unreadable =
            new java.util.concurrent.ConcurrentHashMap<>();

    private final java.util.concurrent.atomic.AtomicLong version = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Names the database this catalog belongs to and how to list every database of its cluster
     * ({@code pg_database}, {@code SHOW DATABASES}). Called once, by the cluster opening the database,
     * before any session reads the catalog.
     */
    public void bindDatabase(String name, java.util.function.Supplier<List<DatabaseEntry>> all) {
        this.database = name;
        this.databases = all;
    }

    /**
     * How to reach the catalogs of the other databases of the cluster, by name (empty when no such
     * database is open), for views reading their relations ({@link ForeignRelations}). Called once,
     * by the cluster, before any session reads the catalog.
     */
    public void bindPeers(java.util.function.Function<String, Optional<Catalog>> peers) {
        this.peers = peers;
    }

    /** The catalog of another database of the cluster, if it is open; any thread. */
    public Optional<Catalog> peer(String name) {
        return name.equals(database) ? Optional.of(this) : peers.apply(name);
    }

    /** This catalog's database number, from the cluster's list (0 for {@code dev}); any thread. */
    public int databaseId() {
        for (DatabaseEntry e : databases()) {
            if (e.name().equals(database)) {
                return e.id();
            }
        }
        return 0;
    }

    /** The name of this catalog's database, what {@code current_database()} returns; any thread. */
    public String database() {
        return database;
    }

    /** Every database of the cluster, in name order; any thread. */
    public List<DatabaseEntry> databases() {
        return databases.get();
    }

    /** Grows with every change, so plans made against an older catalog can be recognized. */
    public long version() {
        return version.get();
    }

    /** The catalog key of relation {@code name} of {@code schema}; see the class comment. */
    public static String key(String schema, String name) {
        return schema.equals(SCHEMA) ? name : schema + "." + name;
    }

    /** The name within {@code schema} of the relation keyed {@code key}. */
    static String localName(String schema, String key) {
        return schema.equals(SCHEMA) ? key : key.substring(schema.length() + 1);
    }

    /**
     * The schema of key {@code key} of a relation being created: the text before its last {@code .}
     * when that is a schema made by CREATE SCHEMA (local names outside {@code public} hold no
     * {@code .}), else {@link #SCHEMA} (a public name may hold a {@code .}; one that looks like a key
     * of another schema is that key, so creating it fails with 42P07 when that relation exists).
     * Any thread.
     */
    public String schemaOfKey(String key) {
        int dot = key.lastIndexOf('.');
        return dot > 0 && schemas.containsKey(key.substring(0, dot)) ? key.substring(0, dot) : SCHEMA;
    }

    /**
     * The key an unqualified relation name refers to under {@code path}, as PostgreSQL resolves it:
     * the first schema of the path holding a relation or plain view of that name; when none does,
     * the key in the path's first schema (or in {@code pg_catalog}, which holds no user relation, when
     * the path is empty), which names no relation, so the caller's lookup fails with 42P01. Any thread.
     */
    public String resolve(SearchPath path, String name) {
        for (String schema : path.explicit()) {
            String key = key(schema, name);
            if (tables.containsKey(key) || views.containsKey(key)) {
                return key;
            }
        }
        String first = path.current();
        return key(first == null ? "pg_catalog" : first, name);
    }

    /** Relations (tables and materialized views, hidden ones included) of {@code schema}; any thread. */
    public List<TableDef> tablesIn(String schema) {
        return tables.values().stream().filter(t -> t.schema().equals(schema)).toList();
    }

    /** Plain views of {@code schema}; any thread. */
    public List<ViewDef> viewsIn(String schema) {
        return views.values().stream().filter(v -> v.schema().equals(schema)).toList();
    }

    public Optional<TableDef> table(String name) {
        return Optional.ofNullable(tables.get(name));
    }

    /**
     * The table holding the index (or UNIQUE constraint's index) whose catalog key, {@link #key}{@code
     * (table's schema, index name)}, is {@code key}; any thread.
     */
    public Optional<TableDef> tableOfIndex(String key) {
        for (TableDef t : tables.values()) {
            for (IndexDef i : t.indexes()) {
                if (key(t.schema(), i.name()).equals(key)) {
                    return Optional.of(t);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The table, or the 42P01 error PostgreSQL gives for a missing relation.
     */
    public TableDef require(String name) {
        return table(name).orElseThrow(() -> undefinedTable(name));
    }

    /** The 42P01 error PostgreSQL gives for a missing relation. */
    public static TributaryException undefinedTable(String name) {
        return new TributaryException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
    }

    /** Tables in name order. */
    public List<TableDef> tables() {
        return List.copyOf(tables.values());
    }

    public void put(TableDef table) {
        tables.put(table.name(), table);
        version.incrementAndGet();
    }

    /**
     * Marks relation {@code id} as still being created: reading it fails with 55000 and what
     * {@code status} says at that moment (which job, how far, what to do). Cleared by {@link #created}.
     */
    public void creating(int id, java.util.function.Supplier<Unreadable> status) {
        unreadable.put(id, status);
        version.incrementAndGet();
    }

    /**
     * Marks materialized view {@code id} as not maintained (its job could not start): reading it
     * fails with 55000, {@code reason} and {@code hint}, until it is dropped ({@link #created}
     * clears the mark).
     */
    public void unmaintainable(int id, String reason, String hint) {
        Unreadable why = new Unreadable(reason, hint);
        unreadable.put(id, () -> why);
        version.incrementAndGet();
    }

    /** Relation {@code id} is complete and readable, or gone. */
    public void created(int id) {
        if (unreadable.remove(id) != null) {
            version.incrementAndGet();
        }
    }

    /** Why relation {@code id} cannot be read, or empty when it can. */
    public Optional<Unreadable> unreadable(int id) {
        java.util.function.Supplier<Unreadable> s = unreadable.get(id);
        return s == null ? Optional.empty() : Optional.of(s.get());
    }

    /** Why a relation cannot be read: the 55000 error's message and hint. */
    public record Unreadable(String reason, String hint, boolean awaitsRefresh) {
        /** Unreadable for a while (being built) or for good (not maintained); not waiting for a REFRESH. */
        public Unreadable(String reason, String hint) {
            this(reason, hint, false);
        }
    }

    /** The plain view of that name, if there is one. */
    public Optional<ViewDef> view(String name) {
        return Optional.ofNullable(views.get(name));
    }

    /** Plain views in name order. */
    public List<ViewDef> views() {
        return List.copyOf(views.values());
    }

    /** Adds or replaces a plain view; only the catalog service calls this. */
    public void putView(ViewDef view) {
        views.put(view.name(), view);
        version.incrementAndGet();
    }

    /** Removes a plain view; only the catalog service calls this. */
    public void removeView(String name) {
        views.remove(name);
        version.incrementAndGet();
    }

    /** The schema made by CREATE SCHEMA of that name, if there is one; any thread. */
    public Optional<SchemaDef> schema(String name) {
        return Optional.ofNullable(schemas.get(name));
    }

    /** Schemas made by CREATE SCHEMA, in name order; any thread. */
    public List<SchemaDef> schemas() {
        return List.copyOf(schemas.values());
    }

    /**
     * Whether {@code name} is a schema of this database: {@link #SCHEMA}, a system schema, or one
     * made by CREATE SCHEMA; any thread.
     */
    public boolean schemaExists(String name) {
        return SchemaDef.BUILT_IN.contains(name) || schemas.containsKey(name);
    }

    /** Adds a schema; only the catalog service calls this. */
    public void putSchema(SchemaDef schema) {
        schemas.put(schema.name(), schema);
        version.incrementAndGet();
    }

    /** Removes a schema; only the catalog service calls this. */
    public void removeSchema(String name) {
        schemas.remove(name);
        version.incrementAndGet();
    }

    public void remove(String name) {
        tables.remove(name);
        version.incrementAndGet();
    }

    /** The sequence made by CREATE SEQUENCE with catalog key {@code name}, if any; any thread. */
    public Optional<SequenceDef> sequence(String name) {
        return Optional.ofNullable(sequences.get(name));
    }

    /** Sequences made by CREATE SEQUENCE, in key order; any thread. */
    public List<SequenceDef> sequences() {
        return List.copyOf(sequences.values());
    }

    /** Adds or replaces a sequence; only the catalog service's changes call this. */
    public void putSequence(SequenceDef sequence) {
        sequences.put(sequence.name(), sequence);
        version.incrementAndGet();
    }

    /** Removes a sequence; only the catalog service's changes call this. */
    public void removeSequence(String name) {
        sequences.remove(name);
        version.incrementAndGet();
    }
}
