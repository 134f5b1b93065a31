package io.tributary.server.session;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.Database;
import io.tributary.sql.ResultColumn;
import io.tributary.sql.StatementPlan;
import io.tributary.sql.UtilityStatement;
import io.tributary.sql.calcite.CalciteFrontend;
import io.tributary.sql.calcite.ViewExpansion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code CREATE [OR REPLACE] VIEW} and {@code DROP VIEW}, and the plain views that depend on
 * relations being dropped. A view's query is planned at CREATE (so it must be valid then, and its
 * columns are known), stored as written, and expanded into each statement that reads it. What
 * depends on what is found by name from the FROM items of the stored queries, as PostgreSQL refuses
 * (2BP01) or cascades a DROP. Session thread only.
 */
final class PlainViews {
    /** PostgreSQL's {@code name}, which Tributary holds as text. */
    private static final int NAME_OID = 19;

    private final Database db;

    PlainViews(Database db) {
        this.db = db;
    }

    /**
     * @throws TributaryException 42P07 when a relation has the name (42809 with OR REPLACE), 42701
     *     for two columns of one name, 42601 for more column names than columns, 42P16 when OR
     *     REPLACE drops or renames a column, 0A000 when OR REPLACE changes a view a materialized
     *     view reads
     */
    StatementResult create(UtilityStatement.CreateView c, CalciteFrontend frontend) throws InterruptedException {
        if (c.orReplace() && db.catalog().table(c.name()).isPresent()) {
            throw notAView(c.name());
        }
        List<ResultColumn> planned;
        try {
            planned = columnsOf(frontend, c.query());
        } catch (TributaryException e) {
            throw e.shifted(c.sql().indexOf(c.query()));
        }
        if (c.columns().size() > planned.size()) {
            throw new TributaryException(SqlState.SYNTAX_ERROR, "CREATE VIEW specifies more column names than columns");
        }
        List<ColumnDef> columns = new ArrayList<>();
        List<Integer> describedOids = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < planned.size(); i++) {
            String name =
                    i < c.columns().size() ? c.columns().get(i) : planned.get(i).name();
            if (!names.add(name)) {
                throw new TributaryException(
                        SqlState.DUPLICATE_COLUMN, "column \"" + name + "\" specified more than once");
            }
            planned.get(i).requireStorable(name);
            columns.add(new ColumnDef(name, planned.get(i).type(), false, false));
            // a text-held value PostgreSQL types name (current_user ...), shown so in the catalog
            describedOids.add(planned.get(i).typeOid() == NAME_OID ? NAME_OID : 0);
        }
        String query = c.columns().isEmpty() ? c.query() : renamed(c.name(), c.query(), columns);
        ViewDef view = new ViewDef(
                c.name(),
                query,
                c.sql(),
                List.copyOf(columns),
                ViewExpansion.reads(c.query(), db.catalog()),
                db.catalog().schemaOfKey(c.name()),
                List.copyOf(describedOids));
        if (c.orReplace()) {
            db.catalog().view(c.name()).ifPresent(old -> checkReplaceable(old, view));
        }
        db.ddl().createView(view, c.orReplace());
        return new StatementResult.Command("CREATE VIEW");
    }

    private static List<ResultColumn> columnsOf(CalciteFrontend frontend, String query) {
        StatementPlan plan = frontend.plan(query);
        try {
            if (!(plan instanceof StatementPlan.Query q)) {
                throw new TributaryException(SqlState.SYNTAX_ERROR, "a view needs a query after AS");
            }
            return q.query().columns();
        } finally {
            plan.close();
        }
    }

    /** The query under the view's column names. */
    private static String renamed(String view, String query, List<ColumnDef> columns) {
        StringBuilder q = new StringBuilder("SELECT * FROM (").append(query).append(") AS ");
        q.append(quote(view)).append('(');
        for (int i = 0; i < columns.size(); i++) {
            q.append(i == 0 ? "" : ", ").append(quote(columns.get(i).name()));
        }
        return q.append(')').toString();
    }

    private static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** PostgreSQL's rules for OR REPLACE: the old columns stay, in order, with their types. */
    private void checkReplaceable(ViewDef old, ViewDef replacement) {
        if (replacement.columns().size() < old.columns().size()) {
            throw new TributaryException(SqlState.INVALID_TABLE_DEFINITION, "cannot drop columns from view");
        }
        for (int i = 0; i < old.columns().size(); i++) {
            ColumnDef was = old.columns().get(i);
            ColumnDef now = replacement.columns().get(i);
            if (!was.name().equals(now.name())) {
                throw new TributaryException(
                        SqlState.INVALID_TABLE_DEFINITION,
                        "cannot change name of view column \"" + was.name() + "\" to \"" + now.name() + "\"");
            }
            if (!was.type().equals(now.type()) || old.columnOid(i) != replacement.columnOid(i)) {
                throw new TributaryException(
                        SqlState.INVALID_TABLE_DEFINITION,
                        "cannot change data type of view column \"" + was.name() + "\" from " + typeName(old, i)
                                + " to " + typeName(replacement, i));
            }
        }
        for (TableDef mv : db.catalog().tables()) {
            if (mv.isView() && ViewExpansion.reads(mv.query(), db.catalog()).contains(old.name())) {
                throw TributaryException.notSupported(
                        "replacing view \"" + old.name() + "\", which materialized view \"" + mv.name() + "\" reads,");
            }
        }
    }

    /** PostgreSQL's name of the type of {@code view}'s column {@code i}: {@code name} for a text-held one. */
    private static String typeName(ViewDef view, int i) {
        return view.columnOid(i) == NAME_OID
                ? "name"
                : view.columns().get(i).type().toString();
    }

    /**
     * @throws TributaryException 42P01 for a missing view (without IF EXISTS), 42809 for a
     *     relation that is not a view, 2BP01 when something depends on it (without CASCADE)
     */
    StatementResult drop(UtilityStatement.DropView d, Consumer<Session.Notice> notices) throws InterruptedException {
        List<String> names = new ArrayList<>();
        for (String name : d.names()) {
            if (db.catalog().view(name).isPresent()) {
                names.add(name);
            } else if (db.catalog().table(name).isPresent()) {
                throw notAView(name);
            } else if (d.ifExists()) {
                notices.accept(notice("view \"" + name + "\" does not exist, skipping"));
            } else {
                throw new TributaryException(SqlState.UNDEFINED_TABLE, "view \"" + name + "\" does not exist");
            }
        }
        if (!names.isEmpty()) {
            dropWithDependents(names, "view", d.cascade(), notices);
        }
        return new StatementResult.Command("DROP VIEW");
    }

    /**
     * Before relations {@code names} are dropped: drops the plain views (and, for a dropped plain
     * view, the materialized views) that read them when {@code cascade} is set, else refuses.
     *
     * @param kind how PostgreSQL's messages name the dropped objects ("table", "view", ...)
     * @throws TributaryException 2BP01 when something depends on them and {@code cascade} is not set
     */
    void dropDependents(List<String> names, String kind, boolean cascade, Consumer<Session.Notice> notices)
            throws InterruptedException {
        Set<String> views = dependentViews(names);
        views.removeAll(names);
        List<OtherDatabaseReaders.Reader> readers = OtherDatabaseReaders.of(db.catalog(), names);
        if (views.isEmpty() && readers.isEmpty()) {
            return;
        }
        if (!cascade) {
            throw views.isEmpty()
                    ? dependents(kind, names.get(0), readers)
                    : dependents(kind, names.get(0), "view " + views.iterator().next());
        }
        // readers in other databases first, each in its own database and epoch
        OtherDatabaseReaders.drop(db, readers, m -> notices.accept(notice(m)));
        views.forEach(v -> notices.accept(notice("drop cascades to view " + v)));
        if (!views.isEmpty()) {
            db.ddl().dropViews(List.copyOf(views));
        }
    }

    private void dropWithDependents(List<String> names, String kind, boolean cascade, Consumer<Session.Notice> notices)
            throws InterruptedException {
        Set<String> views = dependentViews(names);
        Set<String> mvs = new LinkedHashSet<>();
        for (TableDef t : db.catalog().tables()) {
            if (t.isView()) {
                List<String> reads = ViewExpansion.reads(t.query(), db.catalog());
                if (reads.stream().anyMatch(views::contains)) {
                    mvs.add(t.name());
                }
            }
        }
        Set<String> others = new LinkedHashSet<>(views);
        names.forEach(others::remove);
        List<OtherDatabaseReaders.Reader> readers = OtherDatabaseReaders.of(db.catalog(), names);
        if (!cascade && !(others.isEmpty() && mvs.isEmpty() && readers.isEmpty())) {
            throw !others.isEmpty()
                    ? dependents(kind, names.get(0), "view " + others.iterator().next())
                    : !mvs.isEmpty()
                            ? dependents(
                                    kind,
                                    names.get(0),
                                    "materialized view " + mvs.iterator().next())
                            : dependents(kind, names.get(0), readers);
        }
        others.forEach(v -> notices.accept(notice("drop cascades to view " + v)));
        mvs.forEach(m -> notices.accept(notice("drop cascades to materialized view " + m)));
        // readers in other databases first, each in its own database and epoch, as DROP TABLE ... CASCADE
        OtherDatabaseReaders.drop(db, readers, m -> notices.accept(notice(m)));
        if (!mvs.isEmpty()) {
            db.ddl().drop(List.copyOf(mvs), RelationKind.MATERIALIZED_VIEW, true, true, n -> {});
        }
        db.ddl().dropViews(List.copyOf(views));
    }

    /** {@code names} and every plain view reading them, directly or through other views. */
    private Set<String> dependentViews(List<String> names) {
        Set<String> out = new LinkedHashSet<>(names);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (ViewDef v : db.catalog().views()) {
                if (!out.contains(v.name()) && v.reads().stream().anyMatch(out::contains)) {
                    out.add(v.name());
                    grew = true;
                }
            }
        }
        out.removeIf(n -> db.catalog().view(n).isEmpty());
        return out;
    }

    private static TributaryException dependents(String kind, String name, String dependent) {
        return refused(kind, name, dependent + " depends on " + kind + " " + name);
    }

    /** Refused for views of other databases: PostgreSQL's DETAIL lists each with what it reads. */
    private static TributaryException dependents(String kind, String name, List<OtherDatabaseReaders.Reader> readers) {
        return refused(kind, name, OtherDatabaseReaders.detail(readers));
    }

    private static TributaryException refused(String kind, String name, String detail) {
        return new TributaryException(
                SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                "cannot drop " + kind + " " + name + " because other objects depend on it",
                0,
                detail,
                "Use DROP ... CASCADE to drop the dependent objects too.",
                null);
    }

    private static TributaryException notAView(String name) {
        return new TributaryException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a view");
    }

    private static Session.Notice notice(String message) {
        return new Session.Notice("NOTICE", SqlState.SUCCESSFUL_COMPLETION, message);
    }
}
