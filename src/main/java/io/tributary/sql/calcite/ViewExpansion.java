package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ViewDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Expands plain views where a statement reads them: a FROM item naming a view becomes the view's
 * query as a subquery under the view's name (or the alias given), views in that query expanded in
 * turn. Used before planning by the session's front end and by the materialized view planner, so
 * a materialized view over a plain view plans the expanded query. A plain view of another database
 * ({@code a.s.v}) expands the same way, its query's names bound in that database: they are written
 * three-part ({@link InDatabase}), so the cross-database rewrites read them there and never in the
 * statement's own database. Also lists the relations a query reads directly, for the dependency
 * checks of DROP (another database's as {@code db.schema.name}). One instance per statement.
 */
public final class ViewExpansion extends StatementRewrite {
    /** Views nested deeper than this are taken for a cycle (possible through OR REPLACE). */
    private static final int MAX_DEPTH = 32;

    private final Catalog catalog;
    /** Where unqualified names are looked up; null: in {@code public} (a materialized view's query). */
    private final io.tributary.catalog.SearchPath path;

    private final int depth;
    /**
     * Whether a view's text is read with this build's time-precision casts ({@link
     * ViewPlanningBuild#pgTimePrecisions}); false when a materialized view of an earlier build is planned.
     */
    private final boolean timePrecisions;

    private final Set<String> reads = new LinkedHashSet<>();

    ViewExpansion(Catalog catalog, io.tributary.catalog.SearchPath path) {
        this(catalog, path, true);
    }

    /**
     * An expansion reading the views' text as the build that planned the statement did: {@code
     * timePrecisions} false for a materialized view whose build read time-precision casts as Calcite.
     */
    ViewExpansion(Catalog catalog, io.tributary.catalog.SearchPath path, boolean timePrecisions) {
        this(catalog, path, 0, timePrecisions);
    }

    private ViewExpansion(Catalog catalog, io.tributary.catalog.SearchPath path, int depth, boolean timePrecisions) {
        this.catalog = catalog;
        this.path = path;
        this.depth = depth;
        this.timePrecisions = timePrecisions;
    }

    /**
     * The catalog keys of the relations and plain views {@code query} reads directly in its FROM
     * items (unqualified names as in {@code public}), without expanding anything.
     *
     * @throws TributaryException 42601 when the query does not parse
     */
    public static List<String> reads(String query, Catalog catalog) {
        ViewExpansion collect = new ViewExpansion(catalog, null, MAX_DEPTH + 1, true);
        parse(query).accept(collect);
        return List.copyOf(collect.reads);
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select && select.getFrom() != null) {
            select.setFrom(fromItem(select.getFrom()));
        }
        return super.visit(call);
    }

    /** A plain view found for a FROM name, and the catalog of the database holding it. */
    private record Found(ViewDef view, Catalog home) {}

    private SqlNode fromItem(SqlNode from) {
        if (from instanceof SqlJoin join) {
            join.setLeft(fromItem(join.getLeft()));
            join.setRight(fromItem(join.getRight()));
            return join;
        }
        if (from instanceof SqlIdentifier id) {
            Optional<Found> view = view(id);
            return view.isEmpty()
                    ? inPublic(id)
                    : rewritten(SqlStdOperatorTable.AS.createCall(
                            id.getParserPosition(),
                            body(view.get()),
                            new SqlIdentifier(view.get().view().name(), SqlParserPos.ZERO)));
        }
        if (from.getKind() == SqlKind.AS
                && from instanceof SqlBasicCall as
                && as.operand(0) instanceof SqlIdentifier id) {
            Optional<Found> view = view(id);
            if (view.isPresent()) {
                as.setOperand(0, body(view.get()));
                rewritten(as);
            } else {
                as.setOperand(0, inPublic(id));
            }
        }
        return from;
    }

    /**
     * Inside a view's query, an unqualified name of a relation of {@code public} qualified with
     * it, so that the session's search path cannot take it to another schema's relation of that
     * name (the view was planned reading public's); anything else as it is.
     */
    private SqlNode inPublic(SqlIdentifier id) {
        if (depth == 0 || id.names.size() != 1 || catalog.table(id.names.get(0)).isEmpty()) {
            return id;
        }
        return rewritten(new SqlIdentifier(List.of(Catalog.SCHEMA, id.names.get(0)), id.getParserPosition()));
    }

    /** The view a FROM identifier names, noting its key among the relations read. */
    private Optional<Found> view(SqlIdentifier id) {
        List<String> names = id.names;
        if (names.size() == 3) {
            return otherDatabaseView(names);
        }
        if (names.size() > 3) {
            return Optional.empty();
        }
        String name = names.get(names.size() - 1);
        // a view's own query always reads unqualified names in public, as it was planned at CREATE
        String key = names.size() == 2
                ? Catalog.key(names.get(0), name)
                : path == null || depth > 0 ? name : catalog.resolve(path, name);
        reads.add(key);
        return depth > MAX_DEPTH ? Optional.empty() : catalog.view(key).map(v -> new Found(v, catalog));
    }

    /**
     * The plain view {@code database.schema.name} names: this database's by its two-part key,
     * another's in that database's catalog. Empty when there is no such view (the cross-database
     * rewrite reports a missing database or relation).
     */
    private Optional<Found> otherDatabaseView(List<String> names) {
        String key = Catalog.key(names.get(1), names.get(2));
        if (names.get(0).equals(catalog.database())) {
            reads.add(key);
            return depth > MAX_DEPTH ? Optional.empty() : catalog.view(key).map(v -> new Found(v, catalog));
        }
        reads.add(String.join(".", names));
        if (depth > MAX_DEPTH) {
            return Optional.empty();
        }
        return catalog.peer(names.get(0)).flatMap(peer -> peer.view(key).map(v -> new Found(v, peer)));
    }

    /**
     * The view's query, parsed as the session parses a query, with its own views expanded in the
     * database holding it; another database's with its relation names made three-part.
     */
    private SqlNode body(Found found) {
        ViewDef view = found.view();
        if (depth == MAX_DEPTH) {
            throw new TributaryException(
                    SqlState.INVALID_RECURSION,
                    "infinite recursion detected in rules for relation \"" + view.name() + "\"");
        }
        SqlNode body = parse(view.query(), timePrecisions)
                .accept(new ViewExpansion(found.home(), null, depth + 1, timePrecisions));
        return found.home() == catalog ? body : body.accept(new InDatabase(found.home()));
    }

    /**
     * A view's stored query parsed as its expansion reads it (PostgreSQL's syntax and precedence).
     *
     * @throws TributaryException 42601 when it does not parse
     */
    static SqlNode parse(String query) {
        return parse(query, true);
    }

    /** As {@link #parse(String)}, with the time-precision casts of {@code timePrecisions}'s build. */
    private static SqlNode parse(String query, boolean timePrecisions) {
        String text = PgSyntaxText.rewrite(query, io.tributary.common.types.PgTimeZone.UTC, timePrecisions);
        try {
            SqlNode node = SqlParser.create(text, CalciteSettings.PARSER).parseQuery();
            DistinctOnSelects.apply(node);
            SelectListSetFunctions.apply(node);
            return node.accept(new PgOperatorPrecedence(text));
        } catch (SqlParseException e) {
            throw SqlErrors.translate(e, query);
        }
    }
}
