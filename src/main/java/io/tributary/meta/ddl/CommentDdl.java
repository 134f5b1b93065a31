package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SchemaDef;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code COMMENT ON TABLE | VIEW | MATERIALIZED VIEW | COLUMN | SCHEMA}: the comment is part of
 * the object's catalog record (so it survives restarts, goes with the object at DROP and follows
 * RENAME), replaced in one epoch. Errors are PostgreSQL's. Called on session threads;
 * thread-safe. Each method returns once the record is durable; a null comment removes one.
 */
public final class CommentDdl {
    private final CatalogService catalogService;
    private final BarrierManager barriers;

    public CommentDdl(CatalogService catalogService, BarrierManager barriers) {
        this.catalogService = catalogService;
        this.barriers = barriers;
    }

    /**
     * Comments on a table (or a connector's source).
     *
     * @throws TributaryException 42P01 no such relation, 42809 a view or materialized view
     */
    public void onTable(String key, String comment) throws InterruptedException {
        TableDef table = catalog().table(key).filter(t -> !t.isInternal()).orElse(null);
        if (table == null || table.isView()) {
            throw notA(key, "table");
        }
        replace(table, table.withComment(comment));
    }

    /**
     * Comments on a materialized view.
     *
     * @throws TributaryException 42P01 no such relation, 42809 another kind of relation
     */
    public void onMaterializedView(String key, String comment) throws InterruptedException {
        TableDef view = catalog().table(key).filter(t -> !t.isInternal()).orElse(null);
        if (view == null || !view.isView()) {
            throw notA(key, "materialized view");
        }
        replace(view, view.withComment(comment));
    }

    /**
     * Comments on a plain view.
     *
     * @throws TributaryException 42P01 no such relation, 42809 another kind of relation
     */
    public void onView(String key, String comment) throws InterruptedException {
        ViewDef view = catalog().view(key).orElseThrow(() -> notA(key, "view"));
        replace(view, view.withComments(comment, view.columns()));
    }

    /**
     * Comments on column {@code column} of a table, materialized view or plain view.
     *
     * @throws TributaryException 42P01 no such relation, 42703 no such column
     */
    public void onColumn(String key, String column, String comment) throws InterruptedException {
        Catalog catalog = catalog();
        TableDef table = catalog.table(key).filter(t -> !t.isInternal()).orElse(null);
        if (table != null) {
            replace(
                    table,
                    table.withColumns(
                            commented(table.columns(), table.localName(), column, comment),
                            table.primaryKey(),
                            table.watermark(),
                            table.checks()));
            return;
        }
        ViewDef view = catalog.view(key).orElseThrow(() -> Catalog.undefinedTable(key));
        replace(view, view.withComments(view.comment(), commented(view.columns(), view.localName(), column, comment)));
    }

    /**
     * Comments on a schema made by CREATE SCHEMA.
     *
     * @throws TributaryException 3F000 no such schema, 0A000 a built-in schema (whose comments are
     *     PostgreSQL's and fixed)
     */
    public void onSchema(String name, String comment) throws InterruptedException {
        if (SchemaDef.BUILT_IN.contains(name)) {
            throw TributaryException.notSupported("COMMENT ON SCHEMA of built-in schema \"" + name + "\"");
        }
        SchemaDef schema = catalog()
                .schema(name)
                .orElseThrow(() ->
                        new TributaryException(SqlState.INVALID_SCHEMA_NAME, "schema \"" + name + "\" does not exist"));
        SchemaDef after = schema.withComment(comment);
        barriers.awaitCommitted(barriers.stage(new Replaced<>(
                () -> catalog().schema(name).orElse(null),
                buffer -> catalogService.stageSchema(buffer, after),
                schema,
                () -> catalog().putSchema(after),
                () -> catalog().putSchema(schema))));
    }

    private void replace(TableDef before, TableDef after) throws InterruptedException {
        barriers.awaitCommitted(
                barriers.stageAtBoundary(new CatalogRecordChange(catalogService, before, after, b -> {})));
    }

    private void replace(ViewDef before, ViewDef after) throws InterruptedException {
        barriers.awaitCommitted(barriers.stage(new Replaced<>(
                () -> catalog().view(before.name()).orElse(null),
                buffer -> CatalogService.stageView(buffer, after),
                before,
                () -> catalog().putView(after),
                () -> catalog().putView(before))));
    }

    /** {@code columns} with {@code column}'s comment replaced; 42703 when no visible column has that name. */
    private static List<ColumnDef> commented(List<ColumnDef> columns, String relation, String column, String comment) {
        List<ColumnDef> out = new ArrayList<>(columns);
        for (int i = 0; i < out.size(); i++) {
            ColumnDef c = out.get(i);
            if (!c.hidden() && c.name().equals(column)) {
                out.set(i, c.withComment(comment));
                return out;
            }
        }
        throw new TributaryException(
                SqlState.UNDEFINED_COLUMN, "column \"" + column + "\" of relation \"" + relation + "\" does not exist");
    }

    /**
     * PostgreSQL's error for COMMENT ON {@code kind} naming a relation of another kind (42809) or
     * none (42P01).
     */
    private TributaryException notA(String key, String kind) {
        Catalog catalog = catalog();
        boolean exists = catalog.view(key).isPresent()
                || catalog.table(key).filter(t -> !t.isInternal()).isPresent();
        if (!exists) {
            return Catalog.undefinedTable(key);
        }
        String local = catalog.table(key)
                .map(TableDef::localName)
                .or(() -> catalog.view(key).map(ViewDef::localName))
                .orElse(key);
        return new TributaryException(SqlState.WRONG_OBJECT_TYPE, "\"" + local + "\" is not a " + kind);
    }

    private Catalog catalog() {
        return catalogService.catalog();
    }

    /**
     * A view's or schema's record replaced: staged only while the catalog still holds {@code
     * before} (40001 when a concurrent statement changed or dropped it), published at staging,
     * put back if the epoch fails.
     */
    private static final class Replaced<T> implements EpochChange {
        private final java.util.function.Supplier<T> current;
        private final java.util.function.Consumer<WriteBuffer> record;
        private final T before;
        private final Runnable publish;
        private final Runnable restore;

        Replaced(
                java.util.function.Supplier<T> current,
                java.util.function.Consumer<WriteBuffer> record,
                T before,
                Runnable publish,
                Runnable restore) {
            this.current = current;
            this.record = record;
            this.before = before;
            this.publish = publish;
            this.restore = restore;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            if (current.get() != before) {
                throw new TributaryException(
                        SqlState.SERIALIZATION_FAILURE,
                        "could not serialize access: the object changed while COMMENT ran");
            }
            record.accept(buffer);
            publish.run();
        }

        @Override
        public void failed() {
            restore.run();
        }
    }
}
