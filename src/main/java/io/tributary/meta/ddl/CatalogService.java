package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.CatalogCodec;
import io.tributary.catalog.SchemaDef;
import io.tributary.catalog.SequenceDef;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * Owns the catalog's records: reserves names and ids for new relations, and stages
 * catalog records together with the data changes they imply, so after a crash the catalog and the
 * data agree. The in-memory {@link Catalog} changes once the epoch is durable (for CREATE) or at
 * staging (for DROP, so no write can be staged for a relation whose rows are being removed).
 * Thread-safe.
 */
public final class CatalogService {
    private static final byte[] NEXT_TABLE_ID = "\u0000meta/next_table_id".getBytes(StandardCharsets.UTF_8);

    private final Catalog catalog;
    /** Names being created but not yet committed, so two sessions cannot create the same table. */
    private final Set<String> pendingNames = new HashSet<>();
    /** Schemas being created but not yet committed. */
    private final Set<String> pendingSchemas = new HashSet<>();

    private int nextTableId;

    private CatalogService(Catalog catalog, int nextTableId) {
        this.catalog = catalog;
        this.nextTableId = nextTableId;
    }

    /** Loads the committed catalog from {@code store}; called once at startup before serving. */
    public static CatalogService recover(StateStore store) {
        Catalog catalog = new Catalog();
        int nextId = 1;
        try (ReadView view = store.snapshot()) {
            try (KvIterator it =
                    view.scan(Keyspace.CATALOG, CatalogCodec.tablePrefixStart(), CatalogCodec.tablePrefixEnd())) {
                while (it.next()) {
                    TableDef t = CatalogCodec.decodeTable(it.value());
                    catalog.put(t);
                    nextId = Math.max(nextId, t.id() + 1);
                }
            }
            try (KvIterator it =
                    view.scan(Keyspace.CATALOG, CatalogCodec.viewPrefixStart(), CatalogCodec.viewPrefixEnd())) {
                while (it.next()) {
                    catalog.putView(CatalogCodec.decodeView(it.value()));
                }
            }
            try (KvIterator it =
                    view.scan(Keyspace.CATALOG, CatalogCodec.schemaPrefixStart(), CatalogCodec.schemaPrefixEnd())) {
                while (it.next()) {
                    SchemaDef s = CatalogCodec.decodeSchema(it.value());
                    catalog.putSchema(s);
                    nextId = Math.max(nextId, s.id() + 1);
                }
            }
            try (KvIterator it =
                    view.scan(Keyspace.CATALOG, CatalogCodec.sequencePrefixStart(), CatalogCodec.sequencePrefixEnd())) {
                while (it.next()) {
                    SequenceDef q = CatalogCodec.decodeSequence(it.value());
                    catalog.putSequence(q);
                    nextId = Math.max(nextId, q.id() + 1);
                }
            }
            byte[] stored = view.get(Keyspace.CATALOG, NEXT_TABLE_ID);
            if (stored != null) {
                nextId = Math.max(nextId, ByteBuffer.wrap(stored).getInt());
            }
        }
        return new CatalogService(catalog, nextId);
    }

    /** The in-memory catalog; any thread. */
    public Catalog catalog() {
        return catalog;
    }

    /**
     * Undoes a staged replacement of {@code before} by {@code after} in the in-memory catalog (an
     * epoch change's {@code failed}): puts {@code before} back under its name (dropping a renamed
     * {@code after}'s) unless something else has replaced {@code after} since. Barrier thread.
     */
    void putBack(TableDef before, TableDef after) {
        if (catalog.table(after.name()).map(t -> t == after).orElse(false)) {
            if (!after.name().equals(before.name())) {
                catalog.remove(after.name());
            }
            catalog.put(before);
        }
    }

    /**
     * Reserves {@code name} for a relation being created, so two sessions cannot create it at
     * once; the creator calls {@link #releaseName} once the relation is committed or abandoned.
     *
     * @return false when the name is taken and {@code ifNotExists} was set
     * @throws TributaryException 42P07 when the name is taken
     */
    public synchronized boolean reserveName(String name, boolean ifNotExists) {
        if (catalog.table(name).isPresent()
                || catalog.view(name).isPresent()
                || catalog.sequence(name).isPresent()
                || catalog.tableOfIndex(name).isPresent()
                || pendingNames.contains(name)) {
            if (ifNotExists) {
                return false;
            }
            throw new TributaryException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
        }
        pendingNames.add(name);
        return true;
    }

    /**
     * Reserves {@code name} for a schema being created, as {@link #reserveName} does for relations.
     *
     * @return false when the schema exists and {@code ifNotExists} was set
     * @throws TributaryException 42P06 when the schema exists
     */
    public synchronized boolean reserveSchema(String name, boolean ifNotExists) {
        if (catalog.schemaExists(name) || pendingSchemas.contains(name)) {
            if (ifNotExists) {
                return false;
            }
            throw new TributaryException(SqlState.DUPLICATE_SCHEMA, "schema \"" + name + "\" already exists");
        }
        pendingSchemas.add(name);
        return true;
    }

    /** Frees a name {@link #reserveSchema reserved} for a schema now committed or abandoned. */
    public synchronized void releaseSchema(String name) {
        pendingSchemas.remove(name);
    }

    /**
     * Whether {@code name} (a catalog key) names no relation, index or sequence and is not
     * reserved: a name PostgreSQL's default naming may pick.
     */
    public synchronized boolean isFree(String name) {
        return catalog.table(name).isEmpty()
                && catalog.view(name).isEmpty()
                && catalog.sequence(name).isEmpty()
                && catalog.tableOfIndex(name).isEmpty()
                && !pendingNames.contains(name);
    }

    /** Frees a name {@link #reserveName reserved} for a relation now committed or abandoned. */
    public synchronized void releaseName(String name) {
        pendingNames.remove(name);
    }

    /** Reserves {@code count} consecutive relation or state table ids and returns the first; ids are never reused. */
    public synchronized int allocateIds(int count) {
        int first = nextTableId;
        nextTableId += count;
        return first;
    }

    private synchronized int nextTableId() {
        return nextTableId;
    }

    /** Stages a relation's catalog record, and the id counter as of now (never lower than a concurrent CREATE staged). */
    public void stageRecord(WriteBuffer buffer, TableDef relation) {
        buffer.put(Keyspace.CATALOG, CatalogCodec.tableKey(relation.id()), CatalogCodec.encode(relation));
        buffer.put(
                Keyspace.CATALOG,
                NEXT_TABLE_ID,
                ByteBuffer.allocate(4).putInt(nextTableId()).array());
    }

    /** Stages a schema's catalog record, and the id counter as of now. */
    void stageSchema(WriteBuffer buffer, SchemaDef schema) {
        buffer.put(Keyspace.CATALOG, CatalogCodec.schemaKey(schema.name()), CatalogCodec.encode(schema));
        buffer.put(
                Keyspace.CATALOG,
                NEXT_TABLE_ID,
                ByteBuffer.allocate(4).putInt(nextTableId()).array());
    }

    /** Stages a CREATE SEQUENCE sequence's record, and the id counter as of now. */
    void stageSequence(WriteBuffer buffer, SequenceDef sequence) {
        buffer.put(Keyspace.CATALOG, CatalogCodec.sequenceKey(sequence.name()), CatalogCodec.encode(sequence));
        buffer.put(
                Keyspace.CATALOG,
                NEXT_TABLE_ID,
                ByteBuffer.allocate(4).putInt(nextTableId()).array());
    }

    /** Stages the removal of a CREATE SEQUENCE sequence's record. */
    static void stageSequenceRemoval(WriteBuffer buffer, String name) {
        buffer.delete(Keyspace.CATALOG, CatalogCodec.sequenceKey(name));
    }

    /** Stages the removal of a schema's record. */
    static void stageSchemaRemoval(WriteBuffer buffer, String name) {
        buffer.delete(Keyspace.CATALOG, CatalogCodec.schemaKey(name));
    }

    /** Stages a plain view's catalog record (new or replacing one of the same name). */
    static void stageView(WriteBuffer buffer, ViewDef view) {
        buffer.put(Keyspace.CATALOG, CatalogCodec.viewKey(view.name()), CatalogCodec.encode(view));
    }

    /** Stages the removal of a plain view's record. */
    static void stageViewRemoval(WriteBuffer buffer, String name) {
        buffer.delete(Keyspace.CATALOG, CatalogCodec.viewKey(name));
    }

    /**
     * Stages the removal of a relation's record, rows, index entries, state tables, stored plan and
     * source positions.
     */
    static void stageRemoval(WriteBuffer buffer, TableDef relation) {
        buffer.deleteRange(Keyspace.DATA, TableKeys.tableStart(relation.id()), TableKeys.tableEnd(relation.id()));
        for (io.tributary.catalog.IndexDef index : relation.indexes()) {
            buffer.deleteRange(Keyspace.DATA, TableKeys.tableStart(index.id()), TableKeys.tableEnd(index.id()));
        }
        for (int id : relation.stateTableIds()) {
            buffer.deleteRange(Keyspace.DATA, TableKeys.tableStart(id), TableKeys.tableEnd(id));
        }
        if (relation.source() != null) {
            int positions = relation.source().positionsTableId();
            buffer.deleteRange(Keyspace.DATA, TableKeys.tableStart(positions), TableKeys.tableEnd(positions));
        }
        buffer.delete(Keyspace.CATALOG, CatalogCodec.tableKey(relation.id()));
        if (relation.isView()) {
            buffer.delete(Keyspace.CATALOG, StoredPlans.key(relation.id()));
        }
    }
}
