package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SystemTables;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.RelativeDateTimeInput;
import io.tributary.plan.ViewPlan;
import io.tributary.plan.ViewPlanner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Plans materialized views with Calcite: the query is parsed, rewritten and validated exactly as
 * the session's SELECT path does it ({@link CalciteSettings}, {@link StatementRewrite}), converted
 * to relational algebra, normalised ({@link ViewRewrites}) and translated into a stream plan
 * ({@link StreamPlanBuilder}) topped by the materialize. The view's columns are the query's
 * output columns, named as PostgreSQL names them, then hidden {@code _keyN} columns for the parts
 * of the stream key the query does not select. Error positions count from the start of the query
 * text. Thread-safe: every call builds its own Calcite objects and reads the catalog as it is at
 * that moment.
 */
public final class CalciteViewPlanner implements ViewPlanner {
    private final Catalog catalog;
    /** How this planner plans: {@link ViewPlanningBuild#CURRENT}, or as an earlier build did. */
    private final ViewPlanningBuild build;

    /** A view query ending in EMIT ON WINDOW CLOSE (kept in the stored query, so a restart plans it alike). */
    private static final java.util.regex.Pattern EMIT_ON_WINDOW_CLOSE =
            java.util.regex.Pattern.compile("(?is)(.*?)\\s+emit\\s+on\\s+window\\s+close\\s*");

    public CalciteViewPlanner(Catalog catalog) {
        this(catalog, ViewPlanningBuild.CURRENT);
    }

    private CalciteViewPlanner(Catalog catalog, ViewPlanningBuild build) {
        this.catalog = catalog;
        this.build = build;
    }

    private Converted convert(String statementQuery) {
        java.util.regex.Matcher emit = EMIT_ON_WINDOW_CLOSE.matcher(statementQuery);
        boolean emitOnWindowClose = emit.matches();
        // PostgreSQL's interval constants ('1 hour', '2 days'::interval) in Calcite's spelling, as for queries
        String written = emitOnWindowClose ? emit.group(1) : statementQuery;
        String query =
                PgSyntaxText.rewrite(written, io.tributary.common.types.PgTimeZone.UTC, build.pgTimePrecisions());
        // the tree as PostgreSQL parses it; labels come from it as written, before the rewrites below
        SqlNode node = parse(query, statementQuery).accept(new PgOperatorPrecedence(query));
        List<String> labels = ColumnLabels.of(node, new StatementPositions(written, query, null, null));
        List<Boolean> modifierCasts = ModifierCasts.of(node);
        String extracted = extractCalls(query);
        if (!extracted.equals(query)) {
            query = extracted;
            node = parse(query, statementQuery).accept(new PgOperatorPrecedence(query));
        }
        ViewQueryConverter converter;
        RelRoot root;
        for (int rewrites = 0; ; rewrites++) {
            node = node.accept(new ViewExpansion(catalog, null, build.pgTimePrecisions()))
                    .accept(new DerivedTableLabels(null));
            try {
                node = StatementRewrite.applyAll(node, DatabaseQualifiedNames.forView(catalog))
                        .statement();
            } catch (PositionedError e) {
                throw e.in(new StatementPositions(statementQuery, query, null, null));
            }
            converter = new ViewQueryConverter(catalog, build);
            try {
                SqlNode validated = converter.validate(node);
                // a date plus or minus an interval is a timestamp: cast the date and plan again
                String dated = rewrites < DateArithmetic.MAX_REWRITES
                        ? DateIntervalSums.rewrite(query, validated, converter.validator())
                        : null;
                if (dated != null) {
                    // builds before session 40 kept the extract calls of a rewritten view query as Calcite's
                    query = build.pgExtracts() ? extractCalls(dated) : dated;
                    node = parse(query, statementQuery).accept(new PgOperatorPrecedence(query));
                    continue;
                }
                validated.accept(new ViewSqlCheck(new StatementPositions(statementQuery, query, node, null)));
                root = converter.convert(validated);
                break;
            } catch (RuntimeException e) {
                // operators validation refuses that have PostgreSQL's meaning (date and interval
                // arithmetic): written anew at the error's position, as for queries
                String again;
                try {
                    again = rewrites < DateArithmetic.MAX_REWRITES ? DateArithmetic.rewrite(query, e) : null;
                } catch (PositionedError refused) {
                    // the rewrite read a constant it refuses, at a node of query's text
                    throw SqlErrors.translate(refused, new StatementPositions(statementQuery, query, node, null));
                }
                if (again == null) {
                    throw SqlErrors.translate(e, new StatementPositions(statementQuery, query, node, null));
                }
                // the extract calls the failed validation kept from being rewritten, as for queries
                // (not as an earlier build: those kept them as Calcite's)
                query = build.pgExtracts() ? extractCalls(again) : again;
                node = parse(query, statementQuery).accept(new PgOperatorPrecedence(query));
            }
        }
        return new Converted(
                query,
                labels,
                modifierCasts,
                converter,
                root,
                emitOnWindowClose,
                node,
                new StatementPositions(statementQuery, query, node, null));
    }

    /**
     * {@code query} with its {@code extract} and {@code date_part} calls as PostgreSQL's ({@link
     * ExtractCalls}), as for queries, whose text has had the statement rewrites the probe is given here.
     */
    private String extractCalls(String query) {
        return ExtractCalls.rewrite(
                query,
                () -> new ViewQueryConverter(catalog, build).validator(),
                probe -> StatementRewrite.applyAll(probe, DatabaseQualifiedNames.forView(catalog))
                        .statement(),
                false,
                !build.pgExtracts());
    }

    /**
     * Refuses a view query that means something else in {@code zone}, the creating session's, than
     * in UTC, in which views are planned and maintained: a timestamptz constant without an offset
     * ({@link PgSyntaxText} reads it in the zone), or an expression {@link TimeZoneUse} finds.
     * Called by the session before it creates a materialized view; plans the query without
     * keeping anything.
     *
     * @throws TributaryException 0A000 naming the construct; the query's own error if it does not plan
     */
    public void checkTimeZone(String statementQuery, io.tributary.common.types.PgTimeZone zone) {
        if (zone.isUtc()) {
            return;
        }
        String construct = !PgSyntaxText.rewrite(statementQuery, zone).equals(PgSyntaxText.rewrite(statementQuery))
                ? "timestamptz constants without an offset"
                : TimeZoneUse.of(convert(statementQuery).root().rel);
        if (construct != null) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    construct + " in a session whose TimeZone is not UTC are not supported in materialized views",
                    0,
                    null,
                    "Materialized views are maintained in UTC; SET TIME ZONE 'UTC' before creating this one.",
                    null);
        }
    }

    /**
     * A view query validated and converted: its text as planned, PostgreSQL's labels, Calcite's
     * tree, the parsed tree and where its nodes are in the client's query.
     */
    private record Converted(
            String query,
            List<String> labels,
            List<Boolean> modifierCasts,
            ViewQueryConverter converter,
            RelRoot root,
            boolean emitOnWindowClose,
            SqlNode tree,
            StatementPositions positions) {}

    @Override
    public ViewPlan plan(String statementQuery, int viewId, String viewName) {
        return RelativeDateTimeInput.refusedWhile(
                "a materialized view's definition", () -> planQuery(statementQuery, viewId, viewName));
    }

    /**
     * {@inheritDoc} Here: as {@link ViewPlanningBuild#EARLIER}'s build {@code build} planned: in
     * session 44's build, comparisons of arrays of two number types came to be refused and a {@code
     * time} without a precision to keep milliseconds (build 0, session 43, and all before it compare
     * such arrays, {@link ViewPlanningBuild#pgArrayOperands}, and type such a time TIME(0), {@link
     * TributaryTypeSystem#TIMES_OF_WHOLE_SECONDS}); in
     * session 43's, numeric arrays came to compare by value, {@code ARRAY[...]} to keep each
     * element's scale and a product of numerics wider than 38 digits to be an unconstrained numeric
     * (build 1, session 42, and all before it compare arrays as lists, give every element the widest
     * scale, {@link ViewPlanningBuild#pgNumericArrays}, and type such a product as Calcite does,
     * {@link TributaryTypeSystem#CALCITE_WIDE_PRODUCTS}); in session 42's, numeric results ({@code
     * pg_numeric}, {@code exp}, {@code extract} ...) became unconstrained numerics and a float plus a
     * constant zero became PostgreSQL's sum (build 2 types numeric results numeric(38,0), {@link
     * TributaryTypeSystem#NUMERIC_RESULTS_AS_INTEGERS}, as do the builds before it, and plans the
     * float, {@link FloatZeroSums}); in session 41's, comparisons of floats and float casts to real
     * and numeric became PostgreSQL's (build 3 plans Java's, and {@code pg_numeric} of a float8); in
     * session 40's, {@code extract}'s integer fields became numeric and {@code date_part}'s double
     * precision (build 4 types them bigint); in session 37's, SUM of a BIGINT became NUMERIC (build
     * 5 also types it {@link TributaryTypeSystem#BIGINT_SUMS_AS_BIGINT}).
     */
    @Override
    public ViewPlan planAsEarlierBuild(String statementQuery, int viewId, String viewName, int build) {
        return new CalciteViewPlanner(catalog, ViewPlanningBuild.EARLIER.get(build))
                .plan(statementQuery, viewId, viewName)
                .withEarlierBuildTyping();
    }

    @Override
    public int earlierBuilds() {
        return ViewPlanningBuild.EARLIER.size();
    }

    private ViewPlan planQuery(String statementQuery, int viewId, String viewName) {
        Converted converted = convert(statementQuery);
        String query = converted.query();
        List<String> labels = converted.labels();
        ViewQueryConverter converter = converted.converter();
        RelRoot root = converted.root();
        boolean emitOnWindowClose = converted.emitOnWindowClose();
        List<String> own = converter.ownColumnNames();
        List<String> names = columnNames(
                own != null && own.size() == root.validatedRowType.getFieldCount()
                        ? own
                        : root.validatedRowType.getFieldNames(),
                labels);
        RelNode rel = root.project();
        boolean subqueries = ViewRewrites.hasSubQuery(rel);
        StreamPlanBuilder builder =
                new StreamPlanBuilder(converter.cluster().getRexBuilder(), firstScan(rel), emitOnWindowClose, build);
        try {
            StreamPlanBuilder.Translated body = builder.translate(ViewRewrites.normalise(rel));
            List<DataType> planned = body.columnTypes();
            List<DataType> types = build.pgColumnModifiers()
                    ? ViewColumnModifiers.of(root, converted.modifierCasts(), labels, planned)
                    : planned;
            return builder.materialize(body, names, types, viewId, viewName);
        } catch (TributaryException refused) {
            TributaryException e = TemporalFilterErrors.located(refused, converted.tree(), converted.positions());
            if (subqueries && e.sqlState().equals(SqlState.FEATURE_NOT_SUPPORTED)) {
                throw new TributaryException(
                        e.sqlState(),
                        e.getMessage(),
                        0,
                        null,
                        "Subqueries in WHERE and SELECT are planned as joins.",
                        e);
            }
            throw e;
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e, query);
        }
    }

    @Override
    public io.tributary.plan.CheckExpression planCheck(io.tributary.catalog.TableDef table, String expression) {
        return CheckPlanner.plan(table, expression);
    }

    @Override
    public io.tributary.plan.ScalarExpr planDefault(io.tributary.catalog.TableDef table, int column) {
        return DefaultPlanner.plan(table, column);
    }

    /** The first table scan of the query as converted, before Calcite can prune empty parts; or null. */
    private static TableScan firstScan(RelNode rel) {
        if (rel instanceof TableScan scan) {
            return scan;
        }
        for (RelNode input : rel.getInputs()) {
            TableScan found = firstScan(input);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** Parses {@code query}, the text rewritten from {@code client}'s, where a syntax error's position counts. */
    private static SqlNode parse(String query, String client) {
        SqlNode node;
        try {
            node = SqlParser.create(query, CalciteSettings.PARSER).parseQuery();
        } catch (SqlParseException e) {
            throw SqlErrors.translate(e, new StatementPositions(client, query, null, null));
        }
        if (!node.isA(SqlKind.QUERY)) {
            throw new TributaryException(
                    SqlState.SYNTAX_ERROR,
                    "a materialized view needs a query, not "
                            + node.getKind().sql.replace('_', ' '));
        }
        node.accept(SYSTEM_TABLE_CHECK);
        DistinctOnSelects.apply(node);
        SelectListSetFunctions.apply(node);
        return node;
    }

    /**
     * System tables are snapshots without a change stream, so no view can maintain a query over
     * them; the view planner has no such schema, and this gives the reason instead of "does not exist".
     */
    private static final SqlBasicVisitor<Void> SYSTEM_TABLE_CHECK = new SqlBasicVisitor<>() {
        @Override
        public Void visit(SqlIdentifier id) {
            if (id.names.size() > 1 && id.names.get(0).equals(SystemTables.SCHEMA)) {
                throw UnsupportedInViews.error("system tables are");
            }
            return null;
        }
    };

    /**
     * The output names PostgreSQL gives ({@link PgValidator#ownColumnNames}: a {@code *} over a
     * join keeps each column's own name) with PostgreSQL's labels for unnamed expressions, as the
     * SELECT path names its result columns.
     *
     * @throws TributaryException 42701 when two columns have the same name
     */
    private static List<String> columnNames(List<String> calciteNames, List<String> labels) {
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < calciteNames.size(); i++) {
            String name = calciteNames.get(i);
            String postgres = ColumnLabels.expand(labels, i, calciteNames.size());
            if (postgres != null && name.startsWith("EXPR$")) {
                name = postgres;
            }
            if (!seen.add(name)) {
                throw new TributaryException(
                        SqlState.DUPLICATE_COLUMN, "column \"" + name + "\" specified more than once");
            }
            names.add(name);
        }
        return names;
    }
}
