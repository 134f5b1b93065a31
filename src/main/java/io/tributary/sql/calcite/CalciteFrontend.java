package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SystemTables;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.pg.PgCatalog;
import io.tributary.catalog.pg.PgSession;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.sql.DmlClauses;
import io.tributary.sql.JoinedDmlText;
import io.tributary.sql.KeyRangeDmlText;
import io.tributary.sql.PreparedQuery;
import io.tributary.sql.ReadContext;
import io.tributary.sql.SelectWithoutFrom;
import io.tributary.sql.StatementPlan;
import io.tributary.sql.UtilityParser;
import io.tributary.sql.UtilityStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.util.Holder;

/**
 * The SQL front end of one session: classifies a statement, parses queries and DML with Calcite's
 * Babel grammar (PostgreSQL's {@code ::} casts, identifiers folded to lower case) and plans them.
 * INSERT is planned by {@link InsertPlanner}; UPDATE and DELETE by {@link UpdateDeletePlanner},
 * as queries returning the rows to change, which the session applies. Owned by one session; not
 * thread-safe.
 */
public final class CalciteFrontend implements AutoCloseable {
    static final SqlDialect DIALECT = CalciteSqlDialect.DEFAULT;

    private final Catalog catalog;
    private final SessionSchemas schemas;
    private final DmlTargets targets;
    private final InsertPlanner inserts;
    private final UpdateDeletePlanner changes;
    private final CalciteConnection connection;
    /** Tells an INSERT's DEFAULT expressions that take a value per row before they are planned. */
    private final PerRowCalls perRowCalls;
    /**
     * Plans queries: integer arithmetic checked for overflow, then Calcite's planning with the
     * session's statement checks on every edge of the plan.
     */
    private final Program program;

    private final PgCatalog pgCatalog;
    private final CatalogResultTypes catalogTypes;
    private final DeclaredColumnTypes declaredTypes;
    /** The session's read context, which the plans made past Calcite read through. */
    private final ReadContext context;

    /**
     * @param systemTables shown read-only as schema {@link SystemTables#SCHEMA}
     * @param session the session whose user and settings {@code pg_catalog} shows
     */
    public CalciteFrontend(Catalog catalog, SystemTables systemTables, ReadContext context, PgSession session) {
        this.catalog = catalog;
        this.context = context;
        this.program = Programs.sequence(
                MicrosecondFolding.install(),
                DateIntervalSums.detect(),
                RangeFrameCheck.step(),
                TimeWindows.expansion(),
                IntervalPlans.extremes(),
                BigintSumPlans.step(),
                JsonPlans.before(UuidPlans.before(ArrayOrderPlans.before(FloatOrderPlans.before(FloatKeyPlans.before(
                        NumericArrayKeyPlans.before(NumericKeyPlans.before(FilteredDistinctAggregates.before(
                                Programs.sequence(
                                        // array text's element casts are written before PgArithmetic gives casts from
                                        // text
                                        // PostgreSQL's input (a timestamp's microseconds, a date's forms)
                                        ArrayTextOperands.before(CheckedArithmetic.before(
                                                ZonedTimestamps.before(new GuardProgram(context.control()), session))),
                                        // again after planning: expanding DISTINCT aggregates adds min/max of their
                                        // results
                                        IntervalPlans.extremes(),
                                        BigintSumPlans.step()))))))))),
                SeriesScanCalcs.after(),
                ArrayNullabilityCasts.after(),
                MicrosecondPlans.after());
        this.schemas = new SessionSchemas(catalog, systemTables, context, session);
        this.connection = schemas.connection();
        this.perRowCalls = new PerRowCalls(connection.getRootSchema());
        this.pgCatalog = schemas.pgCatalog();
        this.catalogTypes = new CatalogResultTypes(pgCatalog::tables);
        this.declaredTypes = new DeclaredColumnTypes(catalog, schemas);
        this.targets = new DmlTargets(catalog, systemTables, schemas);
        DmlQueries queries = new DmlQueries() {
            @Override
            public PreparedQuery plan(String select) {
                return ((StatementPlan.Query) CalciteFrontend.this.plan(select)).query();
            }

            @Override
            public boolean variesPerRow(String select) {
                return perRowCalls.in(parse(select, false).node());
            }

            @Override
            public PreparedQuery prepare(String text, int[] order, int parameterCount, String original) {
                return CalciteFrontend.this.prepare(text, order, parameterCount, original);
            }

            @Override
            public PreparedQuery prepare(
                    SqlNode source, int[] order, int parameterCount, String parsed, String original) {
                return CalciteFrontend.this.prepare(
                        unparse(source),
                        order,
                        parameterCount,
                        original,
                        null,
                        null,
                        null,
                        null,
                        new StatementPositions(original, parsed, source, null));
            }
        };
        this.inserts = new InsertPlanner(targets, queries);
        this.changes = new UpdateDeletePlanner(targets, queries);
    }

    /** Plans one statement (no trailing semicolon needed). */
    public StatementPlan plan(String sql) {
        io.tributary.catalog.SearchPath path = schemas.searchPath();
        Optional<UtilityStatement> utility = UtilityParser.parse(sql, catalog, path);
        if (utility.isPresent()) {
            // a stored query binds its names through the path now, as PostgreSQL's views do
            return new StatementPlan.Utility(ViewBodyNames.bind(utility.get(), catalog, path));
        }
        DmlClauses clauses = DmlClauses.split(sql);
        String statement = clauses != null ? clauses.core() : sql;
        JoinedDmlText joined = JoinedDmlText.split(statement);
        Parsed parsed = joined != null
                ? parse(joined.target(), false)
                : clauses != null ? parse(clauses.core(), false) : parse(sql, true);
        SqlNode node = parsed.node();
        ParameterRewriter rewritten = parsed.rewritten();
        SqlNode from = null;
        if (joined != null && (node.getKind() == SqlKind.UPDATE || node.getKind() == SqlKind.DELETE)) {
            from = ((SqlSelect) parse(joined.fromQuery(), false).node()).getFrom();
            // the whole statement's text, for the parameters (the joined list's sit between the SET
            // values' and the condition's, as in the query the planner prints) and for error
            // positions in either part
            rewritten = ParameterRewriter.rewrite(PgSyntaxText.rewrite(statement, schemas.timeZone()));
        }
        if (clauses != null && node.getKind() != SqlKind.INSERT) {
            if (clauses.onConflict() != null || clauses.defaultValues()) {
                throw new TributaryException(SqlState.SYNTAX_ERROR, "syntax error in " + node.getKind());
            }
        }
        return switch (node.getKind()) {
            case INSERT -> inserts.plan((SqlInsert) node, rewritten, sql, clauses);
            case UPDATE -> changes.planUpdate((SqlUpdate) node, from, rewritten, sql, clauses);
            case DELETE -> changes.planDelete((SqlDelete) node, from, rewritten, sql, clauses);
            default -> {
                if (!node.isA(SqlKind.QUERY)) {
                    throw TributaryException.notSupported(node.getKind().sql.replace('_', ' ') + " statements");
                }
                yield new StatementPlan.Query(prepare(
                        parsed.text(),
                        rewritten.order(),
                        rewritten.parameterCount(),
                        sql,
                        parsed.labels(),
                        parsed.typeOids(),
                        parsed.modifierCasts(),
                        parsed.passedOids(),
                        parsed.positions()));
            }
        };
    }

    /**
     * The plan of {@code INSERT INTO table [(columns)] VALUES (constants or $n), ...} read without
     * Calcite's parser ({@link LiteralInsertText}), or null when the statement is not of that form
     * or does not plan on this path: {@link #plan} then gives its result or error. The plan is the
     * one {@link #plan} makes of the same text.
     */
    public StatementPlan planConstantInsert(String sql) {
        LiteralInsertText.ConstantInsert read = LiteralInsertText.read(sql);
        if (read == null) {
            return null;
        }
        try {
            TableDef table = targets.table(new SqlIdentifier(read.table(), SqlParserPos.ZERO));
            int[] columns =
                    read.columns() == null ? table.targetColumns(List.of()) : table.targetColumns(read.columns());
            if (!LiteralInsertText.resolveCasts(read, table, columns)) {
                return null;
            }
            return inserts.constants(
                    table, columns, read.columns() == null, read.rows(), read.parameterCount(), null, null);
        } catch (RuntimeException e) {
            return null; // the general path reports what is wrong, with the position in the text
        }
    }

    /**
     * The plan of an UPDATE or DELETE by a range of the key ({@link KeyRangeDmlText}), made and
     * run without Calcite ({@link KeyRangeDml}), or null when the statement is not of that form
     * or its names and types leave the path: {@link #plan} then gives its result or error. The
     * plan changes the rows {@link #plan}'s plan of the same text changes, to the same values.
     */
    public StatementPlan planKeyRangeDml(String sql) {
        KeyRangeDmlText.Statement read = KeyRangeDmlText.read(sql);
        if (read == null || KeyRangeDml.namesReserved(read)) {
            return null;
        }
        try {
            TableDef table = targets.table(new SqlIdentifier(read.table(), SqlParserPos.ZERO));
            return KeyRangeDml.plan(read, table, context);
        } catch (RuntimeException e) {
            return null; // the general path reports what is wrong, with the position in the text
        }
    }

    /**
     * The lines of Calcite's physical plan for the query {@code sql}, as {@code EXPLAIN} shows them.
     *
     * @throws TributaryException 0A000 when {@code sql} is not a query
     */
    public List<String> explain(String sql) {
        if (UtilityParser.parse(sql).isPresent()) {
            throw TributaryException.notSupported("EXPLAIN of this statement");
        }
        Parsed parsed = parse(sql, true);
        if (!parsed.node().isA(SqlKind.QUERY)) {
            throw TributaryException.notSupported(
                    "EXPLAIN " + parsed.node().getKind().sql.replace('_', ' '));
        }
        String explained = "EXPLAIN PLAN FOR " + parsed.text();
        try (Hook.Closeable planning = Hook.PROGRAM.addThread((Holder<Program> h) -> h.set(program));
                java.sql.PreparedStatement statement = connection.prepareStatement(explained);
                java.sql.ResultSet rs = statement.executeQuery()) {
            return ExplainLines.of(rs);
        } catch (SQLException | RuntimeException | LinkageError | AssertionError e) {
            throw SqlErrors.translate(e, parsed.positions().validating(explained));
        }
    }

    /**
     * A statement parsed and given PostgreSQL's meaning; {@code text} is what Calcite prepares for a
     * query, {@code positions} where an error in it is in the client's statement.
     */
    private record Parsed(
            SqlNode node,
            ParameterRewriter rewritten,
            String text,
            List<String> labels,
            List<Integer> typeOids,
            List<Boolean> modifierCasts,
            List<Integer> passedOids,
            StatementPositions positions) {}

    /**
     * {@code error}, found in {@code withFrom} (the client's {@code sql} with the one-row FROM
     * {@link SelectWithoutFrom} added), at its position in {@code sql}: the FROM's characters
     * are not the client's.
     */
    private static TributaryException inClientText(TributaryException error, String sql, String withFrom) {
        if (error.position() <= 0) {
            return error;
        }
        int at = TextShifts.between(sql, withFrom).toClient(error.position());
        return new TributaryException(error.sqlState(), error.getMessage(), at, error.detail(), error.hint(), error);
    }

    /** Parses {@code sql}; {@code mayAddFrom} lets {@code SELECT ... WHERE} without FROM parse over one empty row. */
    private Parsed parse(String sql, boolean mayAddFrom) {
        schemas.addUserSchemas();
        ParameterRewriter rewritten = ParameterRewriter.rewrite(PgSyntaxText.rewrite(sql, schemas.timeZone()));
        StatementPositions textOnly = new StatementPositions(sql, rewritten.sql(), null, null);
        SqlNode node;
        try {
            node = SqlParser.create(rewritten.sql(), CalciteSettings.PARSER).parseStmt();
        } catch (SqlParseException e) {
            String withFrom = mayAddFrom ? SelectWithoutFrom.addFrom(sql) : null;
            if (withFrom != null) {
                try {
                    return parse(withFrom, false);
                } catch (TributaryException retried) {
                    throw inClientText(retried, sql, withFrom);
                }
            }
            throw SqlErrors.translate(e, textOnly);
        }
        ExplicitTableQueries explicitTables = new ExplicitTableQueries();
        node = node.accept(explicitTables);
        RecursiveQueries.check(node, sql);
        boolean distinctOn = DistinctOnSelects.apply(node);
        boolean setReturning = SelectListSetFunctions.apply(node);
        // the tree as PostgreSQL parses it; labels come from it as written, before the rewrites below
        PgOperatorPrecedence precedence = new PgOperatorPrecedence(rewritten.sql());
        node = node.accept(precedence);
        List<String> labels = ColumnLabels.of(node, textOnly);
        List<Integer> typeOids = ResultTypeOids.of(node);
        List<Boolean> modifierCasts = ModifierCasts.of(node);
        List<Integer> passedOids = PassedTypeOids.of(node, catalog, schemas.searchPath());
        ViewExpansion views = new ViewExpansion(catalog, schemas.searchPath());
        node = node.accept(views);
        DerivedTableLabels derivedLabels = new DerivedTableLabels(textOnly);
        node = node.accept(derivedLabels);
        PgExpandArray expandArray = new PgExpandArray();
        node = expandArray.apply(node);
        // as PostgreSQL's parser writes it, so that the interval rewrites' text keeps this tree's shape
        SqlNode betweens = ConstructConstants.betweensAsComparisons(node);
        boolean betweensChanged = betweens != node;
        node = betweens;
        StatementRewrite.Result postgres;
        try {
            postgres = StatementRewrite.applyAll(
                    node,
                    new PgTableOid(pgCatalog.tables()),
                    schemas.catalogCalls(),
                    new TableFunctionSubqueries(),
                    new CatalogLookupJoins(),
                    new ProcTimeSnapshots(),
                    DatabaseQualifiedNames.forStatement(catalog));
        } catch (PositionedError e) {
            throw e.in(textOnly);
        }
        node = postgres.statement();
        // after the rewrites: views are derived tables by now, and catalog functions sub-queries
        DerivedTableCorrelation.check(node);
        // the client's text unless a rewrite changed the statement (keeps error positions exact)
        boolean changed = postgres.changed()
                || explicitTables.changed()
                || distinctOn
                || setReturning
                || precedence.changed()
                || expandArray.changed()
                || betweensChanged
                || views.changed()
                || derivedLabels.changed();
        String text = node.isA(SqlKind.QUERY) ? (changed ? unparse(node) : rewritten.sql()) : null;
        return new Parsed(
                node,
                rewritten,
                text,
                labels,
                typeOids,
                modifierCasts,
                passedOids,
                new StatementPositions(sql, rewritten.sql(), node, null));
    }

    /**
     * An UPDATE or DELETE without parameters, with its exact numeric literals lifted into
     * parameters ({@link LiteralLifter}): its shape, the same for statements that differ only in
     * those constants, and the constants. Null for other statements and when there is nothing to
     * lift. Plan the shape with {@link #planLifted}.
     *
     * @throws TributaryException for text that does not parse (planning it gives the same error)
     */
    public LiftedStatement lift(String sql) {
        if (!DML_START.matcher(sql).lookingAt() || UtilityParser.parse(sql).isPresent()) {
            return null;
        }
        ParameterRewriter rewritten = ParameterRewriter.rewrite(PgSyntaxText.rewrite(sql, schemas.timeZone()));
        if (rewritten.parameterCount() > 0 || JoinedDmlText.split(sql) != null) {
            return null;
        }
        Lifted lifted = parseLifted(rewritten, sql);
        return lifted == null ? null : new LiftedStatement(unparse(lifted.node()), lifted.values());
    }

    /**
     * Plans the shape {@link #lift} gave for {@code sql}: a plan whose parameters are the lifted
     * constants, in {@link LiftedStatement#values()} order.
     *
     * @throws TributaryException when the shape does not plan; planning {@code sql} itself then
     *     gives the statement's own error (a constant folded while planning, as {@code 1/0}, fails
     *     only with the literal)
     */
    public StatementPlan planLifted(String sql, LiftedStatement lifted) {
        ParameterRewriter rewritten = ParameterRewriter.rewrite(PgSyntaxText.rewrite(sql, schemas.timeZone()));
        Lifted again = parseLifted(rewritten, sql);
        if (again == null || !again.values().equals(lifted.values())) {
            throw new IllegalStateException("not the lifted statement: " + sql);
        }
        SqlNode node = again.node();
        int count = lifted.values().size();
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            order[i] = i + 1;
        }
        ParameterRewriter markers = new ParameterRewriter(rewritten.sql(), order);
        StatementPlan plan = node.getKind() == SqlKind.UPDATE
                ? changes.planUpdate((SqlUpdate) node, null, markers, sql, null)
                : changes.planDelete((SqlDelete) node, null, markers, sql, null);
        if (plan.paramTypes().size() != count) {
            plan.close();
            throw new IllegalStateException("lifted parameters went astray in: " + sql);
        }
        return plan;
    }

    /**
     * A statement as an UPDATE or DELETE whose literals are lifted: see {@link LiftedStatement}.
     *
     * @param shape the statement with the constants lifted, as text: the same for statements that
     *     differ only in them, so a key for their plan
     * @param values the constants, in the order of the plan's parameters
     */
    public record LiftedStatement(String shape, List<Object> values) {}

    /** How the statements {@link #lift} may lift start; others are not parsed for it. */
    private static final java.util.regex.Pattern DML_START =
            java.util.regex.Pattern.compile("\\s*(?i:update|delete)\\s");

    /** A parsed statement with its literals lifted, and their values. */
    private record Lifted(SqlNode node, List<Object> values) {}

    /**
     * The parsed and rewritten UPDATE or DELETE of {@code rewritten}, its literals lifted, or null
     * when it is another statement or has no literal to lift.
     */
    private Lifted parseLifted(ParameterRewriter rewritten, String sql) {
        SqlNode node = parseTree(rewritten, sql);
        if (node.getKind() != SqlKind.UPDATE && node.getKind() != SqlKind.DELETE) {
            return null;
        }
        PgOperatorPrecedence precedence = new PgOperatorPrecedence(rewritten.sql());
        node = node.accept(precedence);
        node = StatementRewrite.applyAll(node, schemas.catalogCalls(), DatabaseQualifiedNames.forStatement(catalog))
                .statement();
        if (node.getKind() != SqlKind.UPDATE && node.getKind() != SqlKind.DELETE) {
            return null;
        }
        List<Object> values = lifter(node).values();
        return values.isEmpty() ? null : new Lifted(node, values);
    }

    /**
     * Lifts the literals of an UPDATE or DELETE in the order {@link UpdateDeletePlanner} prints
     * them: the SET values, then the condition.
     */
    private LiteralLifter lifter(SqlNode node) {
        LiteralLifter lifter = new LiteralLifter();
        if (node instanceof SqlUpdate update) {
            SqlNodeList sources = update.getSourceExpressionList();
            boolean[] text = unboundedTextTargets(update);
            for (int i = 0; i < sources.size(); i++) {
                SqlNode value = sources.get(i);
                SqlNode lifted = text[i] ? lifter.liftText(value) : null;
                sources.set(i, lifted != null ? lifted : lifter.liftValue(value));
            }
            lifter.liftWithin(update.getCondition());
        } else {
            lifter.liftWithin(((SqlDelete) node).getCondition());
        }
        return lifter;
    }

    /**
     * Which SET targets of {@code update} are {@code text} or unbounded {@code varchar} columns: a
     * string constant assigned to one of them is that string whatever PostgreSQL's unknown type
     * resolves to, so it may be lifted; all false when the target does not resolve (planning the
     * statement then reports why).
     */
    private boolean[] unboundedTextTargets(SqlUpdate update) {
        SqlNodeList columns = update.getTargetColumnList();
        boolean[] text = new boolean[columns.size()];
        TableDef table;
        try {
            table = targets.table(update.getTargetTable());
        } catch (RuntimeException e) {
            return text;
        }
        for (int i = 0; i < columns.size(); i++) {
            List<String> names = ((SqlIdentifier) columns.get(i)).names;
            String name = names.get(names.size() - 1);
            for (ColumnDef column : table.columns()) {
                if (column.name().equals(name)) {
                    DataType type = column.type();
                    text[i] = type.kind().isString() && type.precision() < 0;
                }
            }
        }
        return text;
    }

    private static SqlNode parseTree(ParameterRewriter rewritten, String sql) {
        SqlNode node;
        try {
            node = SqlParser.create(rewritten.sql(), CalciteSettings.PARSER).parseStmt();
        } catch (SqlParseException e) {
            throw SqlErrors.translate(e, sql);
        }
        RecursiveQueries.check(node, sql);
        DistinctOnSelects.apply(node);
        SelectListSetFunctions.apply(node);
        return node;
    }

    private PreparedQuery prepare(String text, int[] order, int parameterCount, String original) {
        return prepare(text, order, parameterCount, original, null, null, null, null, StatementPositions.of(original));
    }

    /**
     * @param labels PostgreSQL's names for unnamed select items, or null to keep Calcite's
     * @param typeOids {@link ResultTypeOids#of} of the statement's tree, or null
     * @param modifierCasts {@link ModifierCasts#of} of the statement's tree, or null
     * @param passedOids {@link PassedTypeOids#of} of the statement's tree, or null
     * @param positions where an error in {@code text} is in {@code original}
     */
    private PreparedQuery prepare(
            String text,
            int[] order,
            int parameterCount,
            String original,
            List<String> labels,
            List<Integer> typeOids,
            List<Boolean> modifierCasts,
            List<Integer> passedOids,
            StatementPositions positions) {
        String attempt = ExtractCalls.rewrite(
                AtTimeZoneCalls.rewrite(text, connection), () -> DateIntervalSums.validator(connection));
        for (int rewrites = 0; ; rewrites++) {
            java.sql.PreparedStatement statement = null;
            // the hook is this thread's only: other sessions plan with their own program
            try (Hook.Closeable planning = Hook.PROGRAM.addThread((Holder<Program> h) -> h.set(program))) {
                PassedColumns.offer(null);
                statement = connection.prepareStatement(attempt);
                return new CalcitePreparedQuery(
                        statement,
                        original,
                        order,
                        parameterCount,
                        labels,
                        typeOids,
                        modifierCasts,
                        passedOids,
                        PassedColumns.take(),
                        catalogTypes,
                        declaredTypes);
            } catch (SQLException | RuntimeException | LinkageError | AssertionError e) {
                closeQuietly(statement);
                String again;
                try {
                    again = rewrites < DateArithmetic.MAX_REWRITES ? DateArithmetic.rewrite(attempt, e) : null;
                } catch (PositionedError refused) {
                    // the rewrite read a constant it refuses (or found the call ambiguous), at a node of attempt's text
                    throw SqlErrors.translate(refused, positions.validating(attempt));
                }
                if (again == null && rewrites < DateArithmetic.MAX_REWRITES && DateIntervalSums.found(e)) {
                    again = DateIntervalSums.rewriteOrSkip(attempt, connection);
                }
                if (again == null) {
                    throw SqlErrors.translate(e, positions.validating(attempt));
                }
                // the extract calls a failed validation kept from being rewritten (d - DATE '2000-01-01' beside
                // extract(epoch FROM ts) left the epoch Calcite's whole seconds)
                attempt = ExtractCalls.rewrite(again, () -> DateIntervalSums.validator(connection));
            }
        }
    }

    private static void closeQuietly(java.sql.PreparedStatement statement) {
        if (statement != null) {
            try {
                statement.close();
            } catch (SQLException e) {
                // the statement never ran; the original error is what the client needs
            }
        }
    }

    /**
     * {@code node} as SQL text in {@link #DIALECT} that parses back to the same statement (sub-queries
     * under expressions in parentheses: {@link QueryOperandParentheses}).
     */
    static String unparse(SqlNode node) {
        return QueryOperandParentheses.apply(node).toSqlString(DIALECT).getSql();
    }

    /** {@code identifier} quoted in {@link #DIALECT}. */
    static String quote(String identifier) {
        return DIALECT.quoteIdentifier(identifier);
    }

    @Override
    public void close() {
        schemas.close();
    }
}
