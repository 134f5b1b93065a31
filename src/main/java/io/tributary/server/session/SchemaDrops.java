package io.tributary.server.session;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SinkDef;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.UtilityStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * PostgreSQL's dependency rule for {@code DROP SCHEMA ... [CASCADE | RESTRICT]}: a schema holding
 * relations is refused (2BP01) unless CASCADE is given, which drops what it holds first (sinks,
 * plain views, materialized views, then tables), each as {@code DROP ... CASCADE} does (with what
 * reads them, in any schema). Stateless; session thread.
 */
final class SchemaDrops {
    private SchemaDrops() {}

    /**
     * What the schemas of a {@code DROP SCHEMA} hold, by catalog key, in the order they are
     * dropped.
     */
    record Contents(List<String> sinks, List<String> views, List<String> materializedViews, List<String> tables) {
        boolean isEmpty() {
            return sinks.isEmpty() && views.isEmpty() && materializedViews.isEmpty() && tables.isEmpty();
        }
    }

    /**
     * What {@code d} must drop before its schemas, telling the client each one ("drop cascades to
     * table s.t").
     *
     * @param sinks the database's sinks
     * @throws TributaryException 2BP01 when a schema holds anything and CASCADE is not given
     */
    static Contents contents(
            Catalog catalog, List<SinkDef> sinks, UtilityStatement.DropSchema d, Consumer<Session.Notice> notices) {
        List<String> described = new ArrayList<>();
        List<String> sinkNames = new ArrayList<>();
        List<String> views = new ArrayList<>();
        List<String> materialized = new ArrayList<>();
        List<String> tables = new ArrayList<>();
        for (String schema : d.names()) {
            if (catalog.schema(schema).isEmpty()) {
                continue;
            }
            for (TableDef t : catalog.tablesIn(schema)) {
                if (t.isInternal()) {
                    continue; // a sink's hidden query view goes with its sink
                }
                (t.isView() ? materialized : tables).add(t.name());
                described.add((t.isView() ? "materialized view " : "table ") + schema + "." + t.localName());
            }
            for (ViewDef v : catalog.viewsIn(schema)) {
                views.add(v.name());
                described.add("view " + schema + "." + v.localName());
            }
            for (SinkDef s : sinks) {
                if (catalog.schemaOfKey(s.name()).equals(schema)) {
                    sinkNames.add(s.name());
                    described.add("sink " + s.name());
                }
            }
        }
        if (described.isEmpty()) {
            return new Contents(List.of(), List.of(), List.of(), List.of());
        }
        if (!d.cascade()) {
            String first = described.get(0);
            String schema = first.substring(first.lastIndexOf(' ') + 1, first.lastIndexOf('.'));
            throw new TributaryException(
                    SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                    "cannot drop schema " + schema + " because other objects depend on it",
                    0,
                    first + " depends on schema " + schema,
                    "Use DROP ... CASCADE to drop the dependent objects too.",
                    null);
        }
        for (String what : described) {
            notices.accept(new Session.Notice("NOTICE", SqlState.SUCCESSFUL_COMPLETION, "drop cascades to " + what));
        }
        return new Contents(sinkNames, views, materialized, tables);
    }
}
