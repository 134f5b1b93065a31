package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.IndexDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.IndexKeys;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * {@code CREATE [UNIQUE] INDEX}, {@code DROP INDEX}, UNIQUE constraints ({@code ALTER TABLE ... ADD
 * CONSTRAINT ... UNIQUE}, {@code DROP CONSTRAINT}) and the names PostgreSQL gives them. A new index
 * over a table's rows is built at an epoch boundary, where the store holds every committed row:
 * each row's entry goes into that epoch's buffer, a unique index's duplicate refuses the change
 * with PostgreSQL's 23505 (nothing changed), and the entries commit with the new catalog record.
 * From that epoch on every writer of the table keeps the entries (see {@code
 * meta.write.IndexMaintenance}). Called on session threads; thread-safe.
 */
public final class IndexDdl {
    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final StateStore store;

    public IndexDdl(CatalogService catalogService, BarrierManager barriers, StateStore store) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.store = store;
    }

    /**
     * Creates an index over {@code columns} of {@code tableName}; returns once it is durable.
     *
     * @param name the index's name, null for PostgreSQL's default ({@code <table>_<columns>_key}
     *     for a constraint, {@code <table>_<columns>_idx} otherwise, numbered on collision)
     * @param constraint whether it is a UNIQUE constraint (then {@code unique} too)
     * @return PostgreSQL's notice when the name exists and {@code ifNotExists} said to skip
     * @throws TributaryException 42P01 unknown table; 42809 a materialized view; 42703 unknown
     *     column; 42701 a column named twice; 42P07 a relation of that name exists; 0A000 a table
     *     fed by a connector; 23505 two rows hold the values of a unique index (nothing changed)
     */
    public Optional<String> create(
            String tableName,
            String name,
            List<String> columns,
            boolean unique,
            boolean constraint,
            boolean ifNotExists)
            throws InterruptedException {
        TableDef table = table(tableName);
        checkColumns(table, columns, constraint);
        String key = name == null
                ? chooseName(catalogService, table.schema(), defaultName(table, columns, constraint), List.of())
                : Catalog.key(table.schema(), name);
        if (!catalogService.reserveName(key, ifNotExists)) {
            return Optional.of("relation \"" + localName(table, key) + "\" already exists, skipping");
        }
        try {
            IndexDef index =
                    new IndexDef(localName(table, key), catalogService.allocateIds(1), columns, unique, constraint);
            List<IndexDef> all = new ArrayList<>(table.indexes());
            all.add(index);
            barriers.awaitCommitted(barriers.stageAtBoundary(new Build(table, table.withIndexes(all), index)));
        } finally {
            catalogService.releaseName(key);
        }
        return Optional.empty();
    }

    /**
     * {@code DROP INDEX [IF EXISTS] name}; returns once durable.
     *
     * @param key the index's catalog key (schema-qualified outside {@code public})
     * @return PostgreSQL's notice when it does not exist and {@code ifExists} said to skip
     * @throws TributaryException 42704 no such index; 2BP01 for a UNIQUE constraint's index
     */
    public Optional<String> drop(String key, boolean ifExists) throws InterruptedException {
        TableDef table = catalogService.catalog().tableOfIndex(key).orElse(null);
        String local = key.substring(key.lastIndexOf('.') + 1);
        if (table == null) {
            String missing = "index \"" + local + "\" does not exist";
            if (ifExists) {
                return Optional.of(missing + ", skipping");
            }
            throw new TributaryException(SqlState.UNDEFINED_OBJECT, missing);
        }
        IndexDef index = table.index(localName(table, key)).orElseThrow();
        if (index.constraint()) {
            throw new TributaryException(
                    SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                    "cannot drop index " + index.name() + " because constraint " + index.name() + " on table "
                            + table.localName() + " requires it",
                    0,
                    null,
                    "You can drop constraint " + index.name() + " on table " + table.localName() + " instead.",
                    null);
        }
        remove(table, index);
        return Optional.empty();
    }

    /**
     * Drops UNIQUE constraint {@code name} of {@code table} with its index, if the table has one of
     * that name; returns once durable.
     *
     * @return whether it had one (false: the caller looks for another kind of constraint)
     */
    public boolean dropConstraint(String tableName, String name) throws InterruptedException {
        TableDef table = catalogService.catalog().require(tableName);
        Optional<IndexDef> index = table.index(name).filter(IndexDef::constraint);
        if (index.isEmpty()) {
            return false;
        }
        remove(table, index.get());
        return true;
    }

    private void remove(TableDef table, IndexDef index) throws InterruptedException {
        List<IndexDef> kept = new ArrayList<>(table.indexes());
        kept.remove(index);
        barriers.awaitCommitted(barriers.stageAtBoundary(new CatalogRecordChange(
                catalogService,
                table,
                table.withIndexes(kept),
                epoch -> epoch.deleteRange(
                        Keyspace.DATA, TableKeys.tableStart(index.id()), TableKeys.tableEnd(index.id())))));
    }

    /**
     * Names {@code table}'s UNIQUE constraints of a CREATE TABLE: unnamed ones get PostgreSQL's
     * default, each a free name and none another's; named ones must be free (42P07).
     *
     * @param uniques the constraints as parsed (ids unset, names null when unnamed)
     * @return them named, with storage ids
     */
    static List<IndexDef> nameNew(CatalogService catalogService, TableDef table, List<IndexDef> uniques) {
        List<IndexDef> out = new ArrayList<>(uniques.size());
        List<String> taken = new ArrayList<>();
        taken.add(table.name());
        for (IndexDef u : uniques) {
            checkColumns(table, u.columns(), true);
            if (u.name() != null) {
                String key = Catalog.key(table.schema(), u.name());
                if (!catalogService.isFree(key) || taken.contains(key)) {
                    throw new TributaryException(
                            SqlState.DUPLICATE_TABLE, "relation \"" + u.name() + "\" already exists");
                }
                taken.add(key);
            }
        }
        for (IndexDef u : uniques) {
            String key = u.name() != null
                    ? Catalog.key(table.schema(), u.name())
                    : chooseName(catalogService, table.schema(), defaultName(table, u.columns(), true), taken);
            taken.add(key);
            out.add(u.named(localName(table, key), catalogService.allocateIds(1)));
        }
        return out;
    }

    /** PostgreSQL's default name before numbering: the table, the columns and {@code key} or {@code idx}. */
    private static String defaultName(TableDef table, List<String> columns, boolean constraint) {
        return table.localName() + "_" + String.join("_", columns) + (constraint ? "_key" : "_idx");
    }

    /** {@code base}, else {@code base1}, {@code base2}, ...: the first free one, as a catalog key. */
    private static String chooseName(
            CatalogService catalogService, String schema, String base, Collection<String> alsoTaken) {
        for (int n = 0; ; n++) {
            String key = Catalog.key(schema, n == 0 ? base : base + n);
            if (catalogService.isFree(key) && !alsoTaken.contains(key)) {
                return key;
            }
        }
    }

    private static String localName(TableDef table, String key) {
        return table.schema().equals(Catalog.SCHEMA)
                ? key
                : key.substring(table.schema().length() + 1);
    }

    private TableDef table(String name) {
        TableDef table = catalogService.catalog().require(name);
        if (table.isView()) {
            throw new TributaryException(SqlState.WRONG_OBJECT_TYPE, "\"" + table.localName() + "\" is not a table");
        }
        if (table.source() != null) {
            throw TributaryException.notSupported("an index on a table fed by a connector");
        }
        return table;
    }

    private static void checkColumns(TableDef table, List<String> columns, boolean constraint) {
        for (int i = 0; i < columns.size(); i++) {
            String c = columns.get(i);
            int at = table.columnIndex(c);
            if (at < 0 || table.columns().get(at).hidden()) {
                throw new TributaryException(
                        SqlState.UNDEFINED_COLUMN,
                        constraint
                                ? "column \"" + c + "\" named in key does not exist"
                                : "column \"" + c + "\" does not exist");
            }
            if (constraint && columns.subList(0, i).contains(c)) {
                throw new TributaryException(
                        SqlState.DUPLICATE_COLUMN, "column \"" + c + "\" appears twice in unique constraint");
            }
        }
    }

    /** The new index's entries for every committed row, and the table's new record, as one epoch's change. */
    private final class Build implements EpochChange {
        private final TableDef before;
        private final TableDef after;
        private final IndexDef index;

        Build(TableDef before, TableDef after, IndexDef index) {
            this.before = before;
            this.after = after;
            this.index = index;
        }

        @Override
        public void stage(WriteBuffer epoch) {
            Catalog catalog = catalogService.catalog();
            if (catalog.table(before.name()).map(t -> t != before).orElse(true)) {
                throw TableRewrite.changedWhileRunning(before);
            }
            RowCodec rows = new RowCodec(before.columnTypes());
            int[] columns = index.positionsIn(before);
            List<DataType> types = index.typesIn(before);
            ByteWriter scratch = new ByteWriter(64);
            // PostgreSQL sorts the rows to build the index and so reports the least duplicated key
            byte[] leastDuplicate = null;
            Object[] duplicateRow = null;
            try (ReadView committed = store.latest();
                    KvIterator it = committed.scan(
                            Keyspace.DATA, TableKeys.tableStart(before.id()), TableKeys.tableEnd(before.id()))) {
                while (it.next()) {
                    Object[] row = rows.decode(it.value());
                    byte[] key = IndexKeys.key(index.id(), types, row, columns, index.unique(), it.key(), scratch);
                    if (index.unique() && !IndexKeys.hasNull(row, columns) && epoch.exists(Keyspace.DATA, key)) {
                        if (leastDuplicate == null || java.util.Arrays.compareUnsigned(key, leastDuplicate) < 0) {
                            leastDuplicate = key;
                            duplicateRow = row;
                        }
                        continue;
                    }
                    epoch.put(Keyspace.DATA, key, IndexKeys.value(row, columns, index.unique(), it.key()));
                }
            }
            if (duplicateRow != null) {
                throw duplicated(duplicateRow);
            }
            catalogService.stageRecord(epoch, after);
            catalog.put(after);
        }

        @Override
        public void failed() {
            catalogService.putBack(before, after);
        }

        /** PostgreSQL's 23505 for a unique index two stored rows share the values of. */
        private TributaryException duplicated(Object[] row) {
            StringJoiner names = new StringJoiner(", ");
            StringJoiner values = new StringJoiner(", ");
            for (String c : index.columns()) {
                int at = before.columnIndex(c);
                names.add(c);
                values.add(PgTextFormat.format(before.columns().get(at).type(), row[at]));
            }
            return new TributaryException(
                    SqlState.UNIQUE_VIOLATION,
                    "could not create unique index \"" + index.name() + "\"",
                    0,
                    "Key (" + names + ")=(" + values + ") is duplicated.",
                    null,
                    null);
        }
    }
}
