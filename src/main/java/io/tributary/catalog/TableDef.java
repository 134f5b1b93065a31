package io.tributary.catalog;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A table or materialized view in the catalog (both hold rows keyed by their primary key and are
 * read alike). Immutable. {@code primaryKey} lists column indexes; for a table declared without a
 * primary key it is the hidden {@link #ROW_ID} column; for a view it is its query's stream key,
 * whose columns the query does not select are hidden.
 *
 * @param id storage id; never reused, so a dropped relation's leftovers can never be read as a new one's
 * @param definition the CREATE statement as the user wrote it
 * @param kind table, materialized view or source
 * @param query a view's query (the text after AS), null for tables
 * @param dependsOn ids of the relations a view reads, empty for tables
 * @param stateTableIds ids of a view's operator state tables, in plan order; empty for tables
 * @param parallelism how many actors run each parallel fragment of a view's job; 0 for tables
 * @param source the connector feeding a table, null for plain tables and views
 * @param watermark the table's watermark, null for tables without one and for views
 * @param schema the schema holding the relation; records stored before schemas held relations
 *     have none and read as {@link Catalog#SCHEMA}. {@code name} is the catalog's key, {@link
 *     Catalog#key}{@code (schema, localName())}
 * @param checks the table's CHECK constraints
 * @param indexes the table's secondary indexes and UNIQUE constraints, in creation order
 * @param foreignKeys the table's FOREIGN KEY constraints (those it holds as the referencing table)
 * @param comment what {@code COMMENT ON TABLE} or {@code MATERIALIZED VIEW} set ({@code
 *     obj_description}); null without one. Column comments are the columns'
 */
public record TableDef(
        int id,
        String name,
        List<ColumnDef> columns,
        int[] primaryKey,
        String definition,
        RelationKind kind,
        String query,
        int[] dependsOn,
        int[] stateTableIds,
        int parallelism,
        SourceDef source,
        WatermarkDef watermark,
        String schema,
        List<CheckDef> checks,
        List<IndexDef> indexes,
        List<ForeignKeyDef> foreignKeys,
        String comment) {
    public static final String ROW_ID = "_row_id";

    public TableDef {
        schema = schema == null ? Catalog.SCHEMA : schema;
        checks = checks == null ? List.of() : List.copyOf(checks);
        indexes = indexes == null ? List.of() : List.copyOf(indexes);
        foreignKeys = foreignKeys == null ? List.of() : List.copyOf(foreignKeys);
        kind = kind == null ? RelationKind.TABLE : kind;
        dependsOn = dependsOn == null ? new int[0] : dependsOn;
        stateTableIds = stateTableIds == null ? new int[0] : stateTableIds;
    }

    /** A relation of schema {@link Catalog#SCHEMA} without constraints, indexes or foreign keys. */
    public TableDef(
            int id,
            String name,
            List<ColumnDef> columns,
            int[] primaryKey,
            String definition,
            RelationKind kind,
            String query,
            int[] dependsOn,
            int[] stateTableIds,
            int parallelism,
            SourceDef source,
            WatermarkDef watermark) {
        this(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                watermark,
                Catalog.SCHEMA,
                List.of(),
                List.of(),
                List.of(),
                null);
    }

    /** A relation without a watermark. */
    public TableDef(
            int id,
            String name,
            List<ColumnDef> columns,
            int[] primaryKey,
            String definition,
            RelationKind kind,
            String query,
            int[] dependsOn,
            int[] stateTableIds,
            int parallelism,
            SourceDef source) {
        this(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                null);
    }

    /** A relation without a source (a plain table or a view). */
    public TableDef(
            int id,
            String name,
            List<ColumnDef> columns,
            int[] primaryKey,
            String definition,
            RelationKind kind,
            String query,
            int[] dependsOn,
            int[] stateTableIds,
            int parallelism) {
        this(id, name, columns, primaryKey, definition, kind, query, dependsOn, stateTableIds, parallelism, null);
    }

    /** A plain table. */
    public TableDef(int id, String name, List<ColumnDef> columns, int[] primaryKey, String definition) {
        this(id, name, columns, primaryKey, definition, RelationKind.TABLE, null, new int[0], new int[0], 0);
    }

    /** A table fed by a connector. */
    public TableDef(
            int id, String name, List<ColumnDef> columns, int[] primaryKey, String definition, SourceDef source) {
        this(id, name, columns, primaryKey, definition, RelationKind.TABLE, null, new int[0], new int[0], 0, source);
    }

    /** The same relation with another source definition (e.g. a new rate limit). */
    public TableDef withSource(SourceDef newSource) {
        return new TableDef(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                newSource,
                watermark,
                schema,
                checks,
                indexes,
                foreignKeys,
                comment);
    }

    /** The same relation as another kind (a connector's relation made by CREATE SOURCE). */
    public TableDef withKind(RelationKind newKind) {
        return new TableDef(
                id,
                name,
                columns,
                primaryKey,
                definition,
                newKind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                watermark,
                schema,
                checks,
                indexes,
                foreignKeys,
                comment);
    }

    /** The same table with watermark {@code newWatermark} (null: none). */
    public TableDef withWatermark(WatermarkDef newWatermark) {
        return new TableDef(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                newWatermark,
                schema,
                checks,
                indexes,
                foreignKeys,
                comment);
    }

    /**
     * The same relation in schema {@code newSchema}; its {@code name} must already be {@link
     * Catalog#key}{@code (newSchema, local name)}. Called by DDL when a relation is created.
     */
    public TableDef inSchema(String newSchema) {
        return new TableDef(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                watermark,
                newSchema,
                checks,
                indexes,
                foreignKeys,
                comment);
    }

    /** The same table with CHECK constraints {@code newChecks} (named). */
    public TableDef withChecks(List<CheckDef> newChecks) {
        return new TableDef(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                watermark,
                schema,
                newChecks,
                indexes,
                foreignKeys,
                comment);
    }

    /**
     * The same relation with other columns (ALTER TABLE ... ADD or DROP COLUMN): {@code newKey} and
     * {@code newWatermark} index {@code newColumns}; {@code newChecks} read only columns it holds.
     */
    public TableDef withColumns(
            List<ColumnDef> newColumns, int[] newKey, WatermarkDef newWatermark, List<CheckDef> newChecks) {
        return new TableDef(
                id,
                name,
                List.copyOf(newColumns),
                newKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                newWatermark,
                schema,
                newChecks,
                indexes,
                foreignKeys,
                comment);
    }

    /**
     * The same relation under table id {@code newId}, whose rows are stored under that id: a table
     * rewritten by ALTER TABLE ... ADD or DROP COLUMN.
     */
    public TableDef withId(int newId) {
        return new TableDef(
                newId,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                watermark,
                schema,
                checks,
                indexes,
                foreignKeys,
                comment);
    }

    /** The same relation with comment {@code newComment} (null: none); COMMENT ON. */
    public TableDef withComment(String newComment) {
        return new TableDef(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                watermark,
                schema,
                checks,
                indexes,
                foreignKeys,
                newComment);
    }

    /** The same view with state tables {@code ids}: none for one not populated. */
    public TableDef withStateTables(int[] ids) {
        return new TableDef(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                ids,
                parallelism,
                source,
                watermark,
                schema,
                checks,
                indexes,
                foreignKeys,
                comment);
    }

    /**
     * The same view reading relation {@code newId} where it read {@code oldId}: an unpopulated view
     * over a table that ALTER TABLE rewrote under a new id.
     */
    public TableDef withDependencyMoved(int oldId, int newId) {
        int[] moved = dependsOn.clone();
        for (int i = 0; i < moved.length; i++) {
            if (moved[i] == oldId) {
                moved[i] = newId;
            }
        }
        return new TableDef(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                moved,
                stateTableIds,
                parallelism,
                source,
                watermark,
                schema,
                checks,
                indexes,
                foreignKeys,
                comment);
    }

    /** The same table with secondary indexes {@code newIndexes}. */
    public TableDef withIndexes(List<IndexDef> newIndexes) {
        return new TableDef(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                watermark,
                schema,
                checks,
                newIndexes,
                foreignKeys,
                comment);
    }

    /** The same table with FOREIGN KEY constraints {@code newForeignKeys} (named and resolved). */
    public TableDef withForeignKeys(List<ForeignKeyDef> newForeignKeys) {
        return new TableDef(
                id,
                name,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                watermark,
                schema,
                checks,
                indexes,
                newForeignKeys,
                comment);
    }

    /** The table's index (or UNIQUE constraint) named {@code indexName}, if it has one. */
    public java.util.Optional<IndexDef> index(String indexName) {
        return indexes.stream().filter(i -> i.name().equals(indexName)).findFirst();
    }

    /** The same relation under catalog key {@code newName} (ALTER ... RENAME TO), in the same schema. */
    public TableDef renamed(String newName) {
        return new TableDef(
                id,
                newName,
                columns,
                primaryKey,
                definition,
                kind,
                query,
                dependsOn,
                stateTableIds,
                parallelism,
                source,
                watermark,
                schema,
                checks,
                indexes,
                foreignKeys,
                comment);
    }

    /** The relation's name within its schema (what {@code pg_class.relname} shows). */
    public String localName() {
        return Catalog.localName(schema, name);
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isView() {
        return kind == RelationKind.MATERIALIZED_VIEW;
    }

    /**
     * Whether this is a source (CREATE SOURCE): its rows are not stored, so only views read them, as
     * a stream; SELECT refuses it.
     */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isSource() {
        return kind == RelationKind.SOURCE;
    }

    /** Whether this view reads relation {@code relationId}. */
    public boolean dependsOn(int relationId) {
        for (int id : dependsOn) {
            if (id == relationId) {
                return true;
            }
        }
        return false;
    }

    public List<DataType> columnTypes() {
        return columns.stream().map(ColumnDef::type).toList();
    }

    public List<DataType> primaryKeyTypes() {
        return java.util.Arrays.stream(primaryKey)
                .mapToObj(i -> columns.get(i).type())
                .toList();
    }

    /**
     * The name prefix of the hidden materialized views that {@code CREATE SINK s AS query} creates
     * (one per sink, named {@code __sink_s}); such views are left out of SHOW and pg_catalog.
     */
    public static final String SINK_QUERY_PREFIX = "__sink_";

    /** The name of the hidden view holding the query of sink {@code sinkName}. */
    public static String sinkQueryView(String sinkName) {
        return SINK_QUERY_PREFIX + sinkName;
    }

    /** True for a sink's hidden query view, which SHOW and pg_catalog leave out. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isInternal() {
        return isView() && name.startsWith(SINK_QUERY_PREFIX);
    }

    /** True when the primary key is the generated row id. */
    public boolean hasRowId() {
        return primaryKey.length == 1 && columns.get(primaryKey[0]).hidden();
    }

    /**
     * The columns an INSERT or COPY writes, by index: the visible columns when {@code names} is
     * empty, else the named ones in order.
     *
     * @throws TributaryException 42703 for an unknown (or hidden) column, 42701 for one named twice
     */
    public int[] targetColumns(List<String> names) {
        if (names.isEmpty()) {
            return IntStream.range(0, columns.size())
                    .filter(i -> !columns.get(i).hidden())
                    .toArray();
        }
        int[] out = new int[names.size()];
        for (int i = 0; i < out.length; i++) {
            String name = names.get(i);
            int idx = columnIndex(name);
            if (idx < 0 || columns.get(idx).hidden()) {
                throw new TributaryException(
                        SqlState.UNDEFINED_COLUMN,
                        "column \"" + name + "\" of relation \"" + this.name + "\" does not exist");
            }
            for (int j = 0; j < i; j++) {
                if (out[j] == idx) {
                    throw new TributaryException(
                            SqlState.DUPLICATE_COLUMN, "column \"" + name + "\" specified more than once");
                }
            }
            out[i] = idx;
        }
        return out;
    }

    /** Index of the named column, or -1. */
    public int columnIndex(String columnName) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(columnName)) {
                return i;
            }
        }
        return -1;
    }
}
