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
import io.tributary.sql.KeyRangeDmlText;
import io.tributary.sql.PreparedQuery;
import io.tributary.sql.ReadContext;
import io.tributary.sql.SelectWithoutFrom;
import io.tributary.sql.StatementPlan;
import io.tributary.sql.UtilityParser;
import io.tributary.sql.UtilityStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
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
 * UPDATE and DELETE become queries over a schema that also shows hidden columns, returning the
 * rows to change; the session applies them. Owned by one session; not thread-safe.
 */
public final class CalciteFrontend implements AutoCloseable {
    static final SqlDialect DIALECT = CalciteSqlDialect.DEFAULT;

    private final Catalog catalog;
    private final SystemTables systemTables;
    private final SessionSchemas schemas;
    private final CalciteConnection connection;
    /**
     * Plans queries: integer arithmetic checked for overflow, then Calcite's planning with the
     * session's statement checks on every edge of the plan.
     */
    private final Program program;

    private final PgCatalog pgCatalog;
    /** The session's read context, which the plans made past Calcite read through. */
    private final ReadContext context;

    /**
     * @param systemTables shown read-only as schema {@link SystemTables#SCHEMA}
     * @param session the session whose user and settings {@code pg_catalog} shows
     */
    public CalciteFrontend(Catalog catalog, SystemTables systemTables, ReadContext context, PgSession session) {
        this.catalog = catalog;
        this.systemTables = systemTables;
        this.context = context;
        this.program = Programs.sequence(
                DateIntervalSums.detect(),
                TimeWindows.expansion(),
                IntervalPlans.extremes(),
                CheckedArithmetic.before(ZonedTimestamps.before(new GuardProgram(context.control()), session)),
                // again after planning: expanding DISTINCT aggregates adds min/max of their results
                IntervalPlans.extremes());
        this.schemas = new SessionSchemas(catalog, systemTables, context, session);
        this.connection = schemas.connection();
        this.pgCatalog = schemas.pgCatalog();
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
        Parsed parsed = clauses != null ? parse(clauses.core(), false) : parse(sql, true);
        SqlNode node = parsed.node();
        ParameterRewriter rewritten = parsed.rewritten();
        if (clauses != null && node.getKind() != SqlKind.INSERT) {
            if (clauses.onConflict() != null || clauses.defaultValues()) {
                throw new TributaryException(SqlState.SYNTAX_ERROR, "syntax error in " + node.getKind());
            }
        }
        return switch (node.getKind()) {
            case INSERT -> planInsert((SqlInsert) node, rewritten, sql, clauses);
            case UPDATE -> planUpdate((SqlUpdate) node, rewritten, sql, clauses);
            case DELETE -> planDelete((SqlDelete) node, rewritten, sql, clauses);
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
            TableDef table = targetTable(new SqlIdentifier(read.table(), SqlParserPos.ZERO));
            int[] targets =
                    read.columns() == null ? table.targetColumns(List.of()) : table.targetColumns(read.columns());
            if (!LiteralInsertText.resolveCasts(read, table, targets)) {
                return null;
            }
            return literalInsert(
                    table, targets, read.columns() == null, read.rows(), read.parameterCount(), null, null);
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
            TableDef table = targetTable(new SqlIdentifier(read.table(), SqlParserPos.ZERO));
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
            StatementPositions positions) {}

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
                return parse(withFrom, false);
            }
            throw SqlErrors.translate(e, textOnly);
        }
        RecursiveQueries.check(node, sql);
        // the tree as PostgreSQL parses it; labels come from it as written, before the rewrites below
        PgOperatorPrecedence precedence = new PgOperatorPrecedence(rewritten.sql());
        node = node.accept(precedence);
        List<String> labels = ColumnLabels.of(node);
        ViewExpansion views = new ViewExpansion(catalog, schemas.searchPath());
        node = node.accept(views);
        DerivedTableLabels derivedLabels = new DerivedTableLabels();
        node = node.accept(derivedLabels);
        PgExpandArray expandArray = new PgExpandArray();
        node = expandArray.apply(node);
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
                || precedence.changed()
                || expandArray.changed()
                || views.changed()
                || derivedLabels.changed();
        String text = node.isA(SqlKind.QUERY) ? (changed ? unparse(node) : rewritten.sql()) : null;
        return new Parsed(node, rewritten, text, labels, new StatementPositions(sql, rewritten.sql(), node, null));
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
        if (rewritten.parameterCount() > 0) {
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
                ? planUpdate((SqlUpdate) node, markers, sql, null)
                : planDelete((SqlDelete) node, markers, sql, null);
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
     * Lifts the literals of an UPDATE or DELETE in the order {@link #planUpdate} and {@link
     * #planDelete} print them: the SET values, then the condition.
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
            table = targetTable(update.getTargetTable());
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
        return node;
    }

    private PreparedQuery prepare(String text, int[] order, int parameterCount, String original) {
        return prepare(text, order, parameterCount, original, null, StatementPositions.of(original));
    }

    /**
     * @param labels PostgreSQL's names for unnamed select items, or null to keep Calcite's
     * @param positions where an error in {@code text} is in {@code original}
     */
    private PreparedQuery prepare(
            String text,
            int[] order,
            int parameterCount,
            String original,
            List<String> labels,
            StatementPositions positions) {
        String attempt = AtTimeZoneCalls.rewrite(text, connection);
        for (int rewrites = 0; ; rewrites++) {
            java.sql.PreparedStatement statement = null;
            // the hook is this thread's only: other sessions plan with their own program
            try (Hook.Closeable planning = Hook.PROGRAM.addThread((Holder<Program> h) -> h.set(program))) {
                statement = connection.prepareStatement(attempt);
                return new CalcitePreparedQuery(statement, original, order, parameterCount, labels);
            } catch (SQLException | RuntimeException | LinkageError | AssertionError e) {
                closeQuietly(statement);
                String again = rewrites < DateArithmetic.MAX_REWRITES ? DateArithmetic.rewrite(attempt, e) : null;
                if (again == null && rewrites < DateArithmetic.MAX_REWRITES && DateIntervalSums.found(e)) {
                    again = DateIntervalSums.rewriteOrSkip(attempt, connection);
                }
                if (again == null) {
                    throw SqlErrors.translate(e, positions.validating(attempt));
                }
                attempt = again;
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

    private TableDef targetTable(SqlNode target) {
        if (!(target instanceof SqlIdentifier id)) {
            throw TributaryException.notSupported("this DML target");
        }
        List<String> names = id.names;
        if (names.size() > 1 && names.get(names.size() - 2).equals(SystemTables.SCHEMA)) {
            throw SystemTables.cannotChange(
                    systemTables.require(names.get(names.size() - 1)).name());
        }
        String name = names.get(names.size() - 1);
        String key = names.size() > 1
                ? Catalog.key(names.get(names.size() - 2), name)
                : catalog.resolve(schemas.searchPath(), name);
        if (catalog.view(key).isPresent()) {
            throw TributaryException.notSupported("INSERT, UPDATE and DELETE on a view");
        }
        TableDef table = catalog.table(key)
                .orElseThrow(() -> Catalog.undefinedTable(names.size() > 1 ? String.join(".", names) : name));
        if (table.isView()) {
            throw new TributaryException(
                    SqlState.WRONG_OBJECT_TYPE, "cannot change materialized view \"" + table.name() + "\"");
        }
        return table;
    }

    private static int[] targetColumns(TableDef table, SqlNodeList columnList) {
        if (columnList == null) {
            return table.targetColumns(List.of());
        }
        return table.targetColumns(columnList.stream()
                .map(n -> ((SqlIdentifier) n).names.get(((SqlIdentifier) n).names.size() - 1))
                .toList());
    }

    private StatementPlan planInsert(
            SqlInsert insert, ParameterRewriter rewritten, String original, DmlClauses clauses) {
        TableDef table = targetTable(insert.getTargetTable());
        boolean defaultValues = clauses != null && clauses.defaultValues();
        int[] targets = defaultValues ? new int[0] : targetColumns(table, insert.getTargetColumnList());
        SqlNode source = insert.getSource();
        List<Object[]> literalRows = defaultValues
                ? List.<Object[]>of(new Object[0])
                : source.getKind() == SqlKind.VALUES
                        ? InsertSources.literalRows((SqlCall) source, rewritten.order())
                        : null;
        StatementPlan.Conflict conflict = clauses != null ? conflict(table, clauses.onConflict()) : null;
        StatementPlan.Returning returning = returning(clauses, table, table.localName());
        boolean allColumns = insert.getTargetColumnList() == null && !defaultValues;
        if (literalRows != null) {
            return literalInsert(
                    table, targets, allColumns, literalRows, rewritten.parameterCount(), conflict, returning);
        }
        InsertDefaults.replaceDefaultCells(source, table, targets);
        InsertSources.typeBareParameters(source, table, targets);
        PreparedQuery query = prepare(unparse(source), rewritten.order(), rewritten.parameterCount(), original);
        if (allColumns && query.columns().size() < targets.length) {
            targets = Arrays.copyOf(targets, query.columns().size());
        }
        InsertSources.checkArity(query.columns().size(), targets.length);
        InsertDefaults.checkGeneratedAlways(table, targets, null);
        int[] defaultColumns = InsertDefaults.expressionColumns(table, targets, null);
        return new StatementPlan.Insert(
                table,
                targets,
                null,
                query,
                query.paramTypes(),
                defaultsQuery(table, defaultColumns),
                defaultColumns,
                conflict,
                returning);
    }

    /**
     * The plan of an INSERT of constant rows (cells as {@link InsertSources#literalRows} makes them):
     * no query is planned unless the omitted columns have DEFAULT expressions.
     *
     * @param allColumns whether the statement lists no columns, so a shorter row fills the rest with defaults
     */
    private StatementPlan literalInsert(
            TableDef table,
            int[] targets,
            boolean allColumns,
            List<Object[]> literalRows,
            int parameterCount,
            StatementPlan.Conflict conflict,
            StatementPlan.Returning returning) {
        if (allColumns && literalRows.get(0).length < targets.length) {
            // PostgreSQL fills the columns a shorter VALUES list leaves out with their defaults
            targets = Arrays.copyOf(targets, literalRows.get(0).length);
        }
        for (Object[] row : literalRows) {
            InsertSources.checkArity(row.length, targets.length);
        }
        InsertDefaults.checkGeneratedAlways(table, targets, literalRows);
        DataType[] types = new DataType[parameterCount];
        for (Object[] row : literalRows) {
            for (int i = 0; i < row.length; i++) {
                if (row[i] instanceof StatementPlan.ParamRef p && types[p.index() - 1] == null) {
                    types[p.index() - 1] = table.columns().get(targets[i]).type();
                }
            }
        }
        for (int i = 0; i < types.length; i++) {
            if (types[i] == null) {
                types[i] = DataType.TEXT;
            }
        }
        int[] defaultColumns = InsertDefaults.expressionColumns(table, targets, literalRows);
        return new StatementPlan.Insert(
                table,
                targets,
                literalRows,
                null,
                List.copyOf(Arrays.asList(types)),
                defaultsQuery(table, defaultColumns),
                defaultColumns,
                conflict,
                returning);
    }

    /** One row of the DEFAULT expressions of {@code columns}; null when there are none. */
    private PreparedQuery defaultsQuery(TableDef table, int[] columns) {
        if (columns.length == 0) {
            return null;
        }
        StringBuilder q = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.length; i++) {
            q.append(i == 0 ? "(" : ", (")
                    .append(table.columns().get(columns[i]).defaultExpr())
                    .append(')');
        }
        return ((StatementPlan.Query) plan(q.toString())).query();
    }

    /** The RETURNING list of a DML statement, planned over its table's written rows; or null. */
    private StatementPlan.Returning returning(DmlClauses clauses, TableDef table, String alias) {
        if (clauses == null || clauses.returning() == null) {
            return null;
        }
        int[] visible = table.targetColumns(List.of());
        String q = "SELECT " + clauses.returning() + " FROM " + WrittenRows.source(table, visible, 1, alias);
        return new StatementPlan.Returning(((StatementPlan.Query) plan(q)).query(), visible);
    }

    /**
     * The ON CONFLICT action, or null without one.
     *
     * @throws TributaryException 42P10 when the target is not the primary key, 42704 for another
     *     constraint, 42703 for an unknown column, 0A000 for DO UPDATE of a key column, 428C9 for
     *     DO UPDATE of a GENERATED ALWAYS column
     */
    private StatementPlan.Conflict conflict(TableDef table, DmlClauses.OnConflict onConflict) {
        if (onConflict == null) {
            return null;
        }
        if (onConflict.constraint() != null) {
            if (table.hasRowId() || !onConflict.constraint().equals(table.localName() + "_pkey")) {
                throw new TributaryException(
                        SqlState.UNDEFINED_OBJECT,
                        "constraint \"" + onConflict.constraint() + "\" for table \"" + table.localName()
                                + "\" does not exist");
            }
        } else if (!onConflict.columns().isEmpty()) {
            java.util.Set<Integer> named = new java.util.HashSet<>();
            for (String c : onConflict.columns()) {
                int idx = table.columnIndex(c);
                if (idx < 0 || table.columns().get(idx).hidden()) {
                    throw new TributaryException(SqlState.UNDEFINED_COLUMN, "column \"" + c + "\" does not exist");
                }
                named.add(idx);
            }
            java.util.Set<Integer> key = new java.util.HashSet<>();
            for (int k : table.primaryKey()) {
                key.add(k);
            }
            if (table.hasRowId() || !named.equals(key)) {
                throw new TributaryException(
                        SqlState.INVALID_COLUMN_REFERENCE,
                        "there is no unique or exclusion constraint matching the ON CONFLICT specification");
            }
        }
        if (onConflict.doNothing()) {
            return new StatementPlan.Conflict(true, new int[0], null, false);
        }
        int[] setColumns = new int[onConflict.setColumns().size()];
        int[] visible = table.targetColumns(List.of());
        StringBuilder q = new StringBuilder("SELECT ");
        for (int i = 0; i < setColumns.length; i++) {
            String c = onConflict.setColumns().get(i);
            setColumns[i] = table.targetColumns(List.of(c))[0];
            ColumnDef def = table.columns().get(setColumns[i]);
            if (def.identity() == ColumnDef.Identity.ALWAYS || def.generated() != null) {
                throw new TributaryException(
                        SqlState.GENERATED_ALWAYS, "column \"" + c + "\" can only be updated to DEFAULT");
            }
            for (int k : table.primaryKey()) {
                if (k == setColumns[i]) {
                    throw TributaryException.notSupported("ON CONFLICT DO UPDATE of a primary key column");
                }
            }
            q.append(i == 0 ? "(" : ", (")
                    .append(onConflict.setExpressions().get(i))
                    .append(')');
        }
        if (onConflict.where() != null) {
            q.append(", (").append(onConflict.where()).append(')');
        }
        q.append(" FROM ")
                .append(WrittenRows.source(table, visible, 1, table.localName()))
                .append(", ")
                .append(WrittenRows.source(table, visible, visible.length + 1, "excluded"));
        PreparedQuery update = ((StatementPlan.Query) plan(q.toString())).query();
        return new StatementPlan.Conflict(false, setColumns, update, onConflict.where() != null);
    }

    private StatementPlan planUpdate(
            SqlUpdate update, ParameterRewriter rewritten, String original, DmlClauses clauses) {
        TableDef table = targetTable(update.getTargetTable());
        int[] targets = targetColumns(table, update.getTargetColumnList());
        for (int t : targets) {
            ColumnDef column = table.columns().get(t);
            if (column.identity() == ColumnDef.Identity.ALWAYS || column.generated() != null) {
                throw new TributaryException(
                        SqlState.GENERATED_ALWAYS,
                        "column \"" + column.name() + "\" can only be updated to DEFAULT",
                        0,
                        "Column \"" + column.name()
                                + (column.generated() != null
                                        ? "\" is a generated column."
                                        : "\" is an identity column defined as GENERATED ALWAYS."),
                        null,
                        null);
            }
        }
        String alias = update.getAlias() != null ? update.getAlias().getSimple() : table.localName();
        StringBuilder q = new StringBuilder("SELECT ").append(quote(alias)).append(".*");
        List<SqlNode> sources = update.getSourceExpressionList().getList();
        for (int i = 0; i < sources.size(); i++) {
            SqlNode expr = InsertSources.typedParameter(
                    sources.get(i), table.columns().get(targets[i]).type());
            q.append(", (").append(unparse(expr)).append(')');
        }
        appendFromWhere(q, table, alias, update.getCondition());
        StatementPlan.Returning returning = returning(clauses, table, alias);
        PreparedQuery query = prepare(q.toString(), rewritten.order(), rewritten.parameterCount(), original);
        return new StatementPlan.Update(table, targets, query, returning);
    }

    private StatementPlan planDelete(
            SqlDelete delete, ParameterRewriter rewritten, String original, DmlClauses clauses) {
        TableDef table = targetTable(delete.getTargetTable());
        String alias = delete.getAlias() != null ? delete.getAlias().getSimple() : table.localName();
        StringBuilder q = new StringBuilder("SELECT ").append(quote(alias)).append(".*");
        appendFromWhere(q, table, alias, delete.getCondition());
        StatementPlan.Returning returning = returning(clauses, table, alias);
        PreparedQuery query = prepare(q.toString(), rewritten.order(), rewritten.parameterCount(), original);
        return new StatementPlan.Delete(table, query, returning);
    }

    private static void appendFromWhere(StringBuilder q, TableDef table, String alias, SqlNode condition) {
        q.append(" FROM ")
                .append(quote(SessionSchemas.FULL_SCHEMA))
                .append('.')
                .append(quote(table.name()))
                .append(" AS ")
                .append(quote(alias));
        if (condition != null) {
            q.append(" WHERE ").append(unparse(condition));
        }
    }

    private static String unparse(SqlNode node) {
        return node.toSqlString(DIALECT).getSql();
    }

    private static String quote(String identifier) {
        return DIALECT.quoteIdentifier(identifier);
    }

    @Override
    public void close() {
        schemas.close();
    }
}
