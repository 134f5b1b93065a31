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
            // in creation order (ids grow), as PostgreSQL lists what a drop cascades to
            List<TableDef> relations = new ArrayList<>(catalog.tablesIn(schema));
            relations.sort(java.util.Comparator.comparingInt(TableDef::id));
            for (TableDef t : relations) {
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

    /**
     * Gathers the "drop cascades to ..." notices of one DROP SCHEMA ... CASCADE (the schemas'
     * contents and what the drops of those cascade to elsewhere) into the one notice PostgreSQL
     * sends: the object itself when there is one, else "drop cascades to N other objects" with one
     * DETAIL line per object. Other notices pass through at once. The session's thread.
     */
    static final class CascadeNotices implements Consumer<Session.Notice> {
        private static final String PREFIX = "drop cascades to ";
        private final Consumer<Session.Notice> out;
        private final List<String> dropped = new ArrayList<>();

        CascadeNotices(Consumer<Session.Notice> out) {
            this.out = out;
        }

        @Override
        public void accept(Session.Notice notice) {
            if (notice.message().startsWith(PREFIX) && notice.detail() == null) {
                dropped.add(notice.message());
            } else {
                out.accept(notice);
            }
        }

        /** Sends the gathered notice, if any; called once the drops are done. */
        void flush() {
            if (dropped.size() == 1) {
                out.accept(new Session.Notice("NOTICE", SqlState.SUCCESSFUL_COMPLETION, dropped.get(0)));
            } else if (!dropped.isEmpty()) {
                out.accept(new Session.Notice(
                        "NOTICE",
                        SqlState.SUCCESSFUL_COMPLETION,
                        PREFIX + dropped.size() + " other objects",
                        String.join("\n", dropped)));
            }
        }
    }
}
