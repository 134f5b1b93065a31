package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.CheckDef;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.WatermarkDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.sink.SinkManager;
import io.tributary.storage.StateStore;
import io.tributary.stream.runtime.StreamRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code ALTER TABLE t ADD COLUMN}, {@code DROP COLUMN} and {@code RENAME COLUMN}, with
 * PostgreSQL's errors and notices. ADD and DROP re-encode the stored rows in one epoch ({@link
 * TableRewrite}); RENAME changes only the catalog record. What reads the table by its columns
 * (views, materialized views, sinks, CHECK constraints, owned sequences) is either carried along
 * or refused before anything changes (see each method). Called on session threads; thread-safe.
 */
public final class ColumnDdl {
    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final StateStore store;
    private final StreamRuntime streams;
    private final SinkManager sinks;
    private final SequenceMove sequences;
    private final WatermarkMove watermarks;

    public ColumnDdl(
            CatalogService catalogService,
            BarrierManager barriers,
            StateStore store,
            StreamRuntime streams,
            SinkManager sinks,
            SequenceMove sequences,
            WatermarkMove watermarks) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.store = store;
        this.streams = streams;
        this.sinks = sinks;
        this.sequences = sequences;
        this.watermarks = watermarks;
    }

    /**
     * Adds {@code column} after the table's visible columns; existing rows take {@code existing}.
     * Returns once the rewritten table is durable.
     *
     * @param existing the value existing rows get: the column's DEFAULT evaluated once by the
     *     caller (as PostgreSQL evaluates {@code now()} once), or null without a DEFAULT
     * @return PostgreSQL's notice when the table (with {@code ifExists}) or the column (with
     *     {@code ifNotExists}) made the statement skip, else empty
     * @throws TributaryException 42P01, 42809 not a table, 42701 the column exists, 23502 NOT NULL
     *     without a value on a table with rows, 0A000 for a connector's table or one that
     *     materialized views, sinks or {@code *} views read
     */
    public Optional<String> add(
            String tableName, boolean ifExists, ColumnDef column, Object existing, boolean ifNotExists)
            throws InterruptedException {
        TableDef table = table(tableName, ifExists, "ADD COLUMN");
        if (table == null) {
            return Optional.of(skipping(tableName));
        }
        if (table.columnIndex(column.name()) >= 0) {
            String exists = "column \"" + column.name() + "\" of relation \"" + table.localName() + "\" already exists";
            if (ifNotExists) {
                return Optional.of(exists + ", skipping");
            }
            throw new TributaryException(SqlState.DUPLICATE_COLUMN, exists);
        }
        for (TableReaders.Reader r : TableReaders.of(catalogService.catalog(), sinks, table)) {
            // a plain view stores its query, not its columns: one with * would show the new column
            if (!r.description().startsWith("view ") || r.query().contains("*")) {
                throw TributaryException.notSupported("ALTER TABLE ... ADD COLUMN on table \"" + table.localName()
                        + "\", which " + r.description() + " reads,");
            }
        }
        // a table without a key keeps its hidden row id last, where the rest of the engine looks for it
        int at = table.hasRowId() ? table.columns().size() - 1 : table.columns().size();
        List<ColumnDef> columns = new ArrayList<>(table.columns());
        columns.add(at, column);
        int[] sources = new int[columns.size()];
        for (int c = 0; c < sources.length; c++) {
            sources[c] = c < at ? c : c == at ? -1 : c - 1;
        }
        int[] key = table.primaryKey().clone();
        for (int i = 0; i < key.length; i++) {
            key[i] = key[i] >= at ? key[i] + 1 : key[i];
        }
        TableDef after = table.withColumns(columns, key, table.watermark(), table.checks());
        rewrite(table, after, sources, existing, catalog -> {});
        return Optional.empty();
    }

    /**
     * Drops column {@code columnName}: stored rows are re-encoded without it, CHECK constraints that
     * read it, indexes over it and the table's FOREIGN KEY constraints on it are dropped with it (as
     * in PostgreSQL), and SERIAL/identity columns after it keep their sequences' positions. Returns
     * once durable.
     *
     * @return PostgreSQL's notice when the table or the column is missing and IF EXISTS said to skip
     * @throws TributaryException 42P01, 42809, 42703 no such column, 2BP01 when a view reads it or a
     *     FOREIGN KEY constraint references it (RESTRICT), 0A000 for CASCADE over such views or
     *     constraints, a key column, a watermark's column, a
     *     column owning a sequence, a connector's table, or one that materialized views or sinks read
     */
    public Optional<String> drop(
            String tableName, boolean ifExists, String columnName, boolean columnIfExists, boolean cascade)
            throws InterruptedException {
        TableDef table = table(tableName, ifExists, "DROP COLUMN");
        if (table == null) {
            return Optional.of(skipping(tableName));
        }
        int dropped = table.columnIndex(columnName);
        if (dropped < 0 || table.columns().get(dropped).hidden()) {
            String missing = "column \"" + columnName + "\" of relation \"" + table.localName() + "\" does not exist";
            if (columnIfExists) {
                return Optional.of(missing + ", skipping");
            }
            throw new TributaryException(SqlState.UNDEFINED_COLUMN, missing);
        }
        refuseDependents(table, columnName, cascade);
        ForeignKeyDependents.refuseDropColumn(catalogService.catalog(), table, columnName, cascade);
        for (int k : table.primaryKey()) {
            if (k == dropped) {
                throw TributaryException.notSupported("ALTER TABLE ... DROP COLUMN of primary key column \""
                        + columnName + "\" (it would leave the table without its key)");
            }
        }
        WatermarkDef watermark = table.watermark();
        if (watermark != null && watermark.column() == dropped) {
            throw TributaryException.notSupported("ALTER TABLE ... DROP COLUMN of the watermark's column");
        }
        if (TableReaders.ownedSequences(catalogService.catalog(), table).stream()
                .anyMatch(s -> s.ownedBy().equals(table.name() + "." + columnName))) {
            throw TributaryException.notSupported("ALTER TABLE ... DROP COLUMN of a column that owns a sequence");
        }
        List<ColumnDef> columns = new ArrayList<>(table.columns());
        columns.remove(dropped);
        int[] sources = new int[columns.size()];
        for (int c = 0; c < sources.length; c++) {
            sources[c] = c < dropped ? c : c + 1;
        }
        int[] key = table.primaryKey().clone();
        for (int i = 0; i < key.length; i++) {
            key[i] = key[i] > dropped ? key[i] - 1 : key[i];
        }
        if (watermark != null && watermark.column() > dropped) {
            watermark = new WatermarkDef(watermark.column() - 1, watermark.delayMicros());
        }
        List<CheckDef> checks = table.checks().stream()
                .filter(c -> !c.columns().contains(columnName))
                .toList();
        // as in PostgreSQL, the indexes, UNIQUE and FOREIGN KEY constraints over the column go with it
        TableDef after = table.withColumns(columns, key, watermark, checks)
                .withIndexes(table.indexes().stream()
                        .filter(i -> !i.columns().contains(columnName))
                        .toList())
                .withForeignKeys(table.foreignKeys().stream()
                        .filter(f -> !f.columns().contains(columnName))
                        .toList());
        // an ADD FOREIGN KEY referencing the column may have committed since the check above
        rewrite(
                table,
                after,
                sources,
                null,
                catalog -> ForeignKeyDependents.refuseDropColumn(catalog, table, columnName, cascade));
        return Optional.empty();
    }

    /**
     * Rewrites {@code table} as {@code after} under a new id ({@link TableRewrite}); returns once
     * durable. {@code underLock} checks the catalog again at staging and throws to refuse.
     */
    private void rewrite(
            TableDef table,
            TableDef after,
            int[] sources,
            Object added,
            java.util.function.Consumer<io.tributary.catalog.Catalog> underLock)
            throws InterruptedException {
        // alone in its epoch: the rewritten rows are in a file the epoch's later statements could not read
        barriers.awaitCommitted(barriers.stageAlone(new TableRewrite(
                catalogService,
                store,
                streams,
                table,
                after.withId(catalogService.allocateIds(1)),
                sources,
                added,
                sequences,
                watermarks,
                underLock)));
    }

    /**
     * Renames column {@code from} to {@code to}; only the catalog record changes. Returns once durable.
     *
     * @return PostgreSQL's notice when the table is missing and {@code ifExists} said to skip
     * @throws TributaryException 42P01, 42809, 42703 no such column, 42701 {@code to} exists, 0A000
     *     for a connector's table, a column a CHECK reads, or one that views, materialized views or
     *     sinks may read (their stored queries name it)
     */
    public Optional<String> renameColumn(String tableName, boolean ifExists, String from, String to)
            throws InterruptedException {
        TableDef table = table(tableName, ifExists, "RENAME COLUMN");
        if (table == null) {
            return Optional.of(skipping(tableName));
        }
        int c = table.columnIndex(from);
        if (c < 0 || table.columns().get(c).hidden()) {
            throw new TributaryException(SqlState.UNDEFINED_COLUMN, "column \"" + from + "\" does not exist");
        }
        if (table.columnIndex(to) >= 0) {
            throw new TributaryException(
                    SqlState.DUPLICATE_COLUMN,
                    "column \"" + to + "\" of relation \"" + table.localName() + "\" already exists");
        }
        for (TableReaders.Reader r : TableReaders.of(catalogService.catalog(), sinks, table)) {
            if (!r.description().startsWith("view ") || TableReaders.mayRead(r.query(), from)) {
                throw TributaryException.notSupported(
                        "ALTER TABLE ... RENAME COLUMN of a column that " + r.description() + " may read");
            }
        }
        if (table.checks().stream().anyMatch(k -> k.columns().contains(from))
                || !TableReaders.ownedSequences(catalogService.catalog(), table).isEmpty()) {
            throw TributaryException.notSupported(
                    "ALTER TABLE ... RENAME COLUMN of a column that a CHECK constraint or an owned sequence names");
        }
        List<ColumnDef> columns = new ArrayList<>(table.columns());
        columns.set(c, table.columns().get(c).renamed(to));
        TableDef after = table.withColumns(columns, table.primaryKey(), table.watermark(), table.checks())
                .withIndexes(table.indexes().stream()
                        .map(i -> i.withColumnRenamed(from, to))
                        .toList());
        barriers.awaitCommitted(
                barriers.stageAtBoundary(new CatalogRecordChange(catalogService, table, after, b -> {})));
        return Optional.empty();
    }

    /** 2BP01 (or 0A000 under CASCADE) when a view may read the column; 0A000 for jobs reading the table. */
    private void refuseDependents(TableDef table, String column, boolean cascade) {
        for (TableReaders.Reader r : TableReaders.of(catalogService.catalog(), sinks, table)) {
            if (TableReaders.mayRead(r.query(), column)) {
                if (cascade) {
                    throw TributaryException.notSupported(
                            "ALTER TABLE ... DROP COLUMN ... CASCADE of a column " + r.description() + " reads");
                }
                throw new TributaryException(
                        SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                        "cannot drop column " + column + " of table " + table.localName()
                                + " because other objects depend on it",
                        0,
                        r.description() + " depends on column " + column + " of table " + table.localName(),
                        "Use DROP ... CASCADE to drop the dependent objects too.",
                        null);
            }
            if (!r.description().startsWith("view ")) {
                throw TributaryException.notSupported("ALTER TABLE ... DROP COLUMN on table \"" + table.localName()
                        + "\", which " + r.description() + " reads,");
            }
        }
    }

    /**
     * The table to alter, or null when it is missing and {@code ifExists} says to skip.
     *
     * @throws TributaryException 42P01, 42809 for a view or source, 0A000 for a connector's table
     */
    private TableDef table(String name, boolean ifExists, String action) {
        Catalog catalog = catalogService.catalog();
        TableDef table = catalog.table(name).orElse(null);
        if (table == null) {
            if (ifExists) {
                return null;
            }
            throw Catalog.undefinedTable(name);
        }
        if (table.isView() || table.isSource()) {
            throw new TributaryException(
                    SqlState.WRONG_OBJECT_TYPE,
                    "ALTER action " + action + " cannot be performed on relation \"" + table.localName() + "\"",
                    0,
                    "This operation is not supported for " + table.kind().sqlName() + "s.",
                    null,
                    null);
        }
        if (table.source() != null) {
            throw TributaryException.notSupported(
                    "ALTER TABLE ... " + action + " on a table fed by a connector (the connector fixes its columns)");
        }
        return table;
    }

    static String skipping(String name) {
        return "relation \"" + name + "\" does not exist, skipping";
    }
}
