package io.tributary.meta;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.CatalogCodec;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.storage.KvIterator;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Executes DDL: every catalog change is staged into an epoch together with the data changes it
 * implies (a dropped table's rows), so after a crash the catalog and the data agree. The in-memory
 * {@link Catalog} changes once the epoch is durable (for CREATE) or at staging (for DROP, so no
 * write can be staged for a table whose rows are being removed). Thread-safe.
 */
public final class CatalogService {
    private static final byte[] NEXT_TABLE_ID = "\u0000meta/next_table_id".getBytes(StandardCharsets.UTF_8);

    private final Catalog catalog;
    private final BarrierManager barriers;
    /** Names being created but not yet committed, so two sessions cannot create the same table. */
    private final Set<String> pendingNames = new HashSet<>();
    private int nextTableId;

    private CatalogService(Catalog catalog, BarrierManager barriers, int nextTableId) {
        this.catalog = catalog;
        this.barriers = barriers;
        this.nextTableId = nextTableId;
    }

    /** Loads the committed catalog from {@code store}; called once at startup before serving. */
    public static CatalogService recover(StateStore store, BarrierManager barriers) {
        Catalog catalog = new Catalog();
        int nextId = 1;
        try (ReadView view = store.snapshot()) {
            try (KvIterator it = view.scan(Keyspace.CATALOG, CatalogCodec.tablePrefixStart(),
                    CatalogCodec.tablePrefixEnd())) {
                while (it.next()) {
                    TableDef t = CatalogCodec.decodeTable(it.value());
                    catalog.put(t);
                    nextId = Math.max(nextId, t.id() + 1);
                }
            }
            byte[] stored = view.get(Keyspace.CATALOG, NEXT_TABLE_ID);
            if (stored != null) {
                nextId = Math.max(nextId, ByteBuffer.wrap(stored).getInt());
            }
        }
        return new CatalogService(catalog, barriers, nextId);
    }

    public Catalog catalog() {
        return catalog;
    }

    /**
     * Creates a table and returns once it is durable.
     *
     * @return false when it existed and {@code ifNotExists} was set
     * @throws TributaryException 42P07 when it exists
     */
    public boolean createTable(String name, List<ColumnDef> columns, int[] primaryKey, String definition,
            boolean ifNotExists) throws InterruptedException {
        TableDef table;
        synchronized (this) {
            if (catalog.table(name).isPresent() || pendingNames.contains(name)) {
                if (ifNotExists) {
                    return false;
                }
                throw new TributaryException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
            }
            table = new TableDef(nextTableId++, name, columns, primaryKey, definition);
            pendingNames.add(name);
        }
        long ticket;
        try {
            ticket = barriers.stage(buffer -> {
                buffer.put(Keyspace.CATALOG, CatalogCodec.tableKey(table.id()), CatalogCodec.encode(table));
                // the counter as of now, never lower than what a concurrent CREATE already staged
                buffer.put(Keyspace.CATALOG, NEXT_TABLE_ID, ByteBuffer.allocate(4).putInt(nextTableId()).array());
            }, () -> {
                catalog.put(table);
                forgetPending(name);
            }, () -> forgetPending(name));
        } catch (RuntimeException e) {
            forgetPending(name);
            throw e;
        }
        barriers.awaitCommitted(ticket);
        return true;
    }

    private synchronized void forgetPending(String name) {
        pendingNames.remove(name);
    }

    private synchronized int nextTableId() {
        return nextTableId;
    }

    /**
     * Drops a table with all its rows in one epoch and returns once that is durable.
     *
     * @return false when it did not exist and {@code ifExists} was set
     * @throws TributaryException 42P01 when it does not exist
     */
    public boolean dropTable(String name, boolean ifExists) throws InterruptedException {
        long ticket;
        try {
            TableDef[] dropped = new TableDef[1];
            ticket = barriers.stage(buffer -> {
                TableDef table = catalog.require(name);
                buffer.deleteRange(Keyspace.DATA, TableKeys.tableStart(table.id()), TableKeys.tableEnd(table.id()));
                buffer.delete(Keyspace.CATALOG, CatalogCodec.tableKey(table.id()));
                catalog.remove(name);
                dropped[0] = table;
            }, null, () -> catalog.put(dropped[0]));
        } catch (TributaryException e) {
            if (ifExists && SqlState.UNDEFINED_TABLE.equals(e.sqlState())) {
                return false;
            }
            throw e;
        }
        barriers.awaitCommitted(ticket);
        return true;
    }

}
