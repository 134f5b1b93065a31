package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.IndexDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.storage.Keyspace;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * {@code CREATE [UNIQUE] INDEX}, {@code DROP INDEX}, UNIQUE constraints ({@code ALTER TABLE ... ADD
 * CONSTRAINT ... UNIQUE}, {@code DROP CONSTRAINT}) and the names PostgreSQL gives them. A new index
 * over a table's rows is built from a snapshot while writers go on, then brought up to date and
 * committed with the new catalog record at an epoch boundary ({@link IndexBuild}); a unique
 * index's duplicate refuses it with PostgreSQL's 23505 (nothing changed). From that epoch on every
 * writer of the table keeps the entries (see {@code meta.write.IndexMaintenance}). Called on
 * session threads; thread-safe.
 */
public final class IndexDdl {
    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final IndexBuildGate gate;
    private final StateStore store;
    private final StreamRuntime streams;

    /** @param gate the database's one gate, which ALTER TABLE's rewrites claim tables at too */
    public IndexDdl(
            CatalogService catalogService,
            BarrierManager barriers,
            IndexBuildGate gate,
            StateStore store,
            StreamRuntime streams) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.gate = gate;
        this.store = store;
        this.streams = streams;
    }

    /**
     * Creates an index over {@code columns} of {@code tableName}; returns once it is durable.
     *
     * @param name the index's name, null for PostgreSQL's default ({@code <table>_<columns>_key}
     *     for a constraint, {@code <table>_<columns>_idx} otherwise, numbered on collision)
     * @param constraint whether it is a UNIQUE constraint (then {@code unique} too)
     * @param check the statement's cancel and {@code statement_timeout} check, run while the build
     *     waits and reads (it throws 57014; nothing is then changed)
     * @return PostgreSQL's notice when the name exists and {@code ifNotExists} said to skip
     * @throws TributaryException 42P01 unknown table; 42809 a materialized view; 42703 unknown
     *     column (when an ALTER TABLE claims the table, {@link IndexBuildGate}, the columns are
     *     resolved once it ended, as it may add them); 42701 a column named twice; 42P07 a
     *     relation of that name exists; 0A000 a table fed by a connector; 23505 two rows hold the
     *     values of a unique index (nothing changed)
     */
    public Optional<String> create(
            String tableName,
            String name,
            List<String> columns,
            boolean unique,
            boolean constraint,
            boolean ifNotExists,
            Runnable check)
            throws InterruptedException {
        TableDef table = afterRewrite(tableName, columns, name, check);
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
            while (!new IndexBuild(catalogService, barriers, gate, store, streams, table, index, check).run()) {
                // the table changed before the build started, or a rewrite claimed it and has ended:
                // the build starts over on the table as it is now, as PostgreSQL's once it has its lock
                table = table(tableName);
                checkColumns(table, columns, constraint);
            }
        } finally {
            catalogService.releaseName(key);
        }
        return Optional.empty();
    }

    /**
     * Table {@code tableName} to resolve {@code columns} of index {@code index} in: as it is now,
     * or, when a column is missing and a rewrite (an ALTER TABLE, which may add it) claims the
     * table ({@link IndexBuildGate}), as that rewrite left it. PostgreSQL takes the table's lock
     * before it resolves the columns, so it queues behind such an ALTER too.
     *
     * @param check run every 10 ms while waiting; it throws 57014 to end the wait
     */
    private TableDef afterRewrite(String tableName, List<String> columns, String index, Runnable check)
            throws InterruptedException {
        TableDef table = table(tableName);
        if (columns.stream().noneMatch(c -> absent(table, c)) || !gate.claimed(table.name())) {
            return table;
        }
        IndexBuild.columnsWaitForRewrite(index);
        gate.awaitUnclaimed(table.name(), check);
        return table(tableName);
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
            if (absent(table, c)) {
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

    /** Whether {@code table} has no column {@code c} a statement can name (hidden ones it cannot). */
    private static boolean absent(TableDef table, String c) {
        int at = table.columnIndex(c);
        return at < 0 || table.columns().get(at).hidden();
    }
}
