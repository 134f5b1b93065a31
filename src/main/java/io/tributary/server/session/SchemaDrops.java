package io.tributary.server.session;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.UtilityStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * PostgreSQL's dependency rule for {@code DROP SCHEMA ... [CASCADE | RESTRICT]}: a schema holding
 * relations is refused (2BP01) unless CASCADE is given, which drops its relations first, each as
 * {@code DROP TABLE ... CASCADE} does (with what reads them, in any schema). Only tables are held
 * by schemas other than {@code public} (views, materialized views, sinks and sources are refused
 * there at CREATE). Stateless; session thread.
 */
final class SchemaDrops {
    private SchemaDrops() {}

    /**
     * The catalog keys of the tables {@code d} must drop before its schemas, telling the client
     * each one ("drop cascades to table s.t").
     *
     * @throws TributaryException 2BP01 when a schema holds relations and CASCADE is not given
     */
    static List<String> cascadedTables(
            Catalog catalog, UtilityStatement.DropSchema d, Consumer<Session.Notice> notices) {
        List<TableDef> contents = new ArrayList<>();
        for (String schema : d.names()) {
            if (catalog.schema(schema).isPresent()) {
                contents.addAll(catalog.tablesIn(schema));
            }
        }
        if (contents.isEmpty()) {
            return List.of();
        }
        TableDef first = contents.get(0);
        if (!d.cascade()) {
            throw new TributaryException(
                    SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                    "cannot drop schema " + first.schema() + " because other objects depend on it",
                    0,
                    "table " + first.schema() + "." + first.localName() + " depends on schema " + first.schema(),
                    "Use DROP ... CASCADE to drop the dependent objects too.",
                    null);
        }
        for (TableDef t : contents) {
            notices.accept(new Session.Notice(
                    "NOTICE",
                    SqlState.SUCCESSFUL_COMPLETION,
                    "drop cascades to table " + t.schema() + "." + t.localName()));
        }
        return contents.stream().map(TableDef::name).toList();
    }
}
