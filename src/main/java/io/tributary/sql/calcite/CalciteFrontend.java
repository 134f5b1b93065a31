package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SystemTables;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.pg.PgCatalog;
import io.tributary.catalog.pg.PgSession;
import io.tributary.catalog.pg.PgTable;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.sql.PreparedQuery;
import io.tributary.sql.ReadContext;
import io.tributary.sql.StatementPlan;
import io.tributary.sql.UtilityParser;
import io.tributary.sql.UtilityStatement;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
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
    /** Schema with hidden columns, for the queries DML is planned into; not reachable unquoted. */
    private static final String FULL_SCHEMA = "$full";

    private static final SqlDialect DIALECT = CalciteSqlDialect.DEFAULT;

    private final Catalog catalog;
    private final SystemTables systemTables;
    private final CalciteConnection connection;
    /**
     * Plans queries: integer arithmetic checked for overflow, then Calcite's planning with the
     * session's statement checks on every edge of the plan.
     */
    private final Program program;

    private final PgSession session;
    private final PgCatalog pgCatalog;

    /**
     * @param systemTables shown read-only as schema {@link SystemTables#SCHEMA}
     * @param session the session whose user and settings {@code pg_catalog} shows
     */
    public CalciteFrontend(Catalog catalog, SystemTables systemTables, ReadContext context, PgSession session) {
        this.catalog = catalog;
        this.systemTables = systemTables;
        this.program = Programs.sequence(
                TimeWindows.expansion(), CheckedArithmetic.before(new GuardProgram(context.control())));
        this.session = session;
        Properties props = CalciteSettings.connectionProperties();
        try {
            this.connection = new org.apache.calcite.jdbc.Driver()
                    .connect("jdbc:calcite:", props)
                    .unwrap(CalciteConnection.class);
            SchemaPlus root = connection.getRootSchema();
            root.add(Catalog.SCHEMA, new CatalogSchema(catalog, context, false)).setCacheEnabled(false);
            root.add(FULL_SCHEMA, new CatalogSchema(catalog, context, true)).setCacheEnabled(false);
            root.add(SystemTables.SCHEMA, new SystemSchema(systemTables)).setCacheEnabled(false);
            PgCatalog pg = new PgCatalog(catalog, session, CatalogSchema::functionNames);
            this.pgCatalog = pg;
            root.add(PgCatalog.SCHEMA, new PgCatalogSchema(pg::tables)).setCacheEnabled(false);
            // PostgreSQL searches pg_catalog for unqualified names too; Calcite searches the root after public
            for (PgTable t : pg.tables()) {
                root.add(t.name(), new PgCalciteTable(t));
            }
            root.add("information_schema", new PgCatalogSchema(pg::informationSchemaTables))
                    .setCacheEnabled(false);
            PgTable definitions = pg.definitions(PgCatalogCalls.DEFINITIONS_SCHEMA);
            root.add(PgCatalogCalls.DEFINITIONS_SCHEMA, new PgCatalogSchema(() -> List.of(definitions)))
                    .setCacheEnabled(false);
            PgTypeAliases.register(root);
            connection.setSchema(Catalog.SCHEMA);
        } catch (SQLException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "cannot start the SQL engine: " + e.getMessage(), e);
        }
    }

    /** Plans one statement (no trailing semicolon needed). */
    public StatementPlan plan(String sql) {
        Optional<UtilityStatement> utility = UtilityParser.parse(sql);
        if (utility.isPresent()) {
            return new StatementPlan.Utility(utility.get());
        }
        ParameterRewriter rewritten = ParameterRewriter.rewrite(PgSyntaxText.rewrite(sql));
        SqlNode node;
        try {
            node = SqlParser.create(rewritten.sql(), CalciteSettings.PARSER).parseStmt();
        } catch (SqlParseException e) {
            throw SqlErrors.translate(e, sql);
        }
        RecursiveQueries.check(node, sql);
        // the tree as PostgreSQL parses it; labels come from it as written, before the rewrites below
        PgOperatorPrecedence precedence = new PgOperatorPrecedence(rewritten.sql());
        node = node.accept(precedence);
        List<String> labels = ColumnLabels.of(node);
        StatementRewrite.Result postgres =
                StatementRewrite.applyAll(node, new PgCatalogCalls(session.user(), pgCatalog::relationOid));
        node = postgres.statement();
        return switch (node.getKind()) {
            case INSERT -> planInsert((SqlInsert) node, rewritten, sql);
            case UPDATE -> planUpdate((SqlUpdate) node, rewritten, sql);
            case DELETE -> planDelete((SqlDelete) node, rewritten, sql);
            default -> {
                if (!node.isA(SqlKind.QUERY)) {
                    throw TributaryException.notSupported(node.getKind().sql.replace('_', ' ') + " statements");
                }
                // the client's text unless a rewrite changed the statement (keeps error positions exact)
                String text = postgres.changed() || precedence.changed() ? unparse(node) : rewritten.sql();
                yield new StatementPlan.Query(
                        prepare(text, rewritten.order(), rewritten.parameterCount(), sql, labels));
            }
        };
    }

    private PreparedQuery prepare(String text, int[] order, int parameterCount, String original) {
        return prepare(text, order, parameterCount, original, null);
    }

    /** @param labels PostgreSQL's names for unnamed select items, or null to keep Calcite's */
    private PreparedQuery prepare(String text, int[] order, int parameterCount, String original, List<String> labels) {
        java.sql.PreparedStatement statement = null;
        // the hook is this thread's only: other sessions plan with their own program
        try (Hook.Closeable planning = Hook.PROGRAM.addThread((Holder<Program> h) -> h.set(program))) {
            statement = connection.prepareStatement(text);
            return new CalcitePreparedQuery(statement, original, order, parameterCount, labels);
        } catch (SQLException | RuntimeException | LinkageError e) {
            closeQuietly(statement);
            throw SqlErrors.translate(e, original);
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
        if (names.size() > 1 && !names.get(names.size() - 2).equals(Catalog.SCHEMA)) {
            throw new TributaryException(
                    SqlState.UNDEFINED_OBJECT, "schema \"" + names.get(names.size() - 2) + "\" does not exist");
        }
        TableDef table = catalog.require(names.get(names.size() - 1));
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

    private StatementPlan planInsert(SqlInsert insert, ParameterRewriter rewritten, String original) {
        TableDef table = targetTable(insert.getTargetTable());
        int[] targets = targetColumns(table, insert.getTargetColumnList());
        SqlNode source = insert.getSource();
        List<Object[]> literalRows =
                source.getKind() == SqlKind.VALUES ? literalRows((SqlCall) source, rewritten.order()) : null;
        if (literalRows != null) {
            for (Object[] row : literalRows) {
                checkArity(row.length, targets.length);
            }
            DataType[] types = new DataType[rewritten.parameterCount()];
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
            return new StatementPlan.Insert(table, targets, literalRows, null, List.copyOf(Arrays.asList(types)));
        }
        typeBareParameters(source, table, targets);
        PreparedQuery query = prepare(unparse(source), rewritten.order(), rewritten.parameterCount(), original);
        checkArity(query.columns().size(), targets.length);
        return new StatementPlan.Insert(table, targets, null, query, query.paramTypes());
    }

    /**
     * Calcite cannot type a bare parameter in a select list or VALUES; where it feeds a column,
     * it takes the column's type, as in PostgreSQL.
     */
    private static void typeBareParameters(SqlNode source, TableDef table, int[] targets) {
        if (source instanceof SqlSelect select) {
            SqlNodeList items = select.getSelectList();
            for (int i = 0; i < items.size() && i < targets.length; i++) {
                items.set(
                        i,
                        typedParameter(
                                items.get(i), table.columns().get(targets[i]).type()));
            }
        } else if (source.getKind() == SqlKind.VALUES) {
            for (SqlNode rowNode : ((SqlCall) source).getOperandList()) {
                if (rowNode instanceof SqlCall row && row.getKind() == SqlKind.ROW) {
                    for (int i = 0; i < row.operandCount() && i < targets.length; i++) {
                        row.setOperand(
                                i,
                                typedParameter(
                                        row.operand(i),
                                        table.columns().get(targets[i]).type()));
                    }
                }
            }
        }
    }

    /** {@code CAST(? AS type)} for a bare parameter, else the node unchanged. */
    private static SqlNode typedParameter(SqlNode node, DataType type) {
        if (!(node instanceof SqlDynamicParam)) {
            return node;
        }
        SqlTypeName name = switch (type.kind()) {
            case BOOLEAN -> SqlTypeName.BOOLEAN;
            case SMALLINT -> SqlTypeName.SMALLINT;
            case INTEGER -> SqlTypeName.INTEGER;
            case BIGINT -> SqlTypeName.BIGINT;
            case REAL -> SqlTypeName.REAL;
            case DOUBLE -> SqlTypeName.DOUBLE;
            case NUMERIC -> SqlTypeName.DECIMAL;
            case VARCHAR, TEXT -> SqlTypeName.VARCHAR;
            case DATE -> SqlTypeName.DATE;
            case TIME -> SqlTypeName.TIME;
            case TIMESTAMP -> SqlTypeName.TIMESTAMP;
            case TIMESTAMPTZ -> SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
            case BYTEA -> SqlTypeName.VARBINARY;
            case INTERVAL -> null;
        };
        if (name == null) {
            return node;
        }
        SqlParserPos pos = node.getParserPosition();
        SqlBasicTypeNameSpec spec = name == SqlTypeName.DECIMAL && type.precision() > 0
                ? new SqlBasicTypeNameSpec(name, type.precision(), Math.max(type.scale(), 0), pos)
                : new SqlBasicTypeNameSpec(name, pos);
        return SqlStdOperatorTable.CAST.createCall(pos, node, new SqlDataTypeSpec(spec, pos));
    }

    private static void checkArity(int expressions, int targets) {
        if (expressions > targets) {
            throw new TributaryException(SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns");
        }
        if (expressions < targets) {
            throw new TributaryException(SqlState.SYNTAX_ERROR, "INSERT has more target columns than expressions");
        }
    }

    /** The rows of a VALUES of constants, or null when some cell needs evaluating. */
    private static List<Object[]> literalRows(SqlCall values, int[] order) {
        List<Object[]> rows = new ArrayList<>(values.operandCount());
        for (SqlNode rowNode : values.getOperandList()) {
            if (!(rowNode instanceof SqlCall row) || row.getKind() != SqlKind.ROW) {
                return null;
            }
            Object[] out = new Object[row.operandCount()];
            for (int i = 0; i < out.length; i++) {
                Object v = literal(row.operand(i), order);
                if (v == NOT_LITERAL) {
                    return null;
                }
                out[i] = v;
            }
            rows.add(out);
        }
        return rows;
    }

    private static final Object NOT_LITERAL = new Object();

    /**
     * A cell's value without planning: numbers as BigDecimal, strings and typed literals as their
     * text (parsed later as the target column's type, like PostgreSQL's untyped literals), NULL and
     * DEFAULT as null, parameters as {@link StatementPlan.ParamRef}.
     */
    private static Object literal(SqlNode node, int[] order) {
        if (node instanceof SqlDynamicParam p) {
            return new StatementPlan.ParamRef(order[p.getIndex()]);
        }
        if (node instanceof SqlNumericLiteral n) {
            return n.getValueAs(BigDecimal.class);
        }
        if (node instanceof SqlLiteral lit) {
            Object v = lit.getValue();
            if (v == null) {
                return null;
            }
            if (v instanceof Boolean) {
                return v;
            }
            if (lit.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER) {
                return lit.getValueAs(String.class);
            }
            return NOT_LITERAL;
        }
        if (node.getKind() == SqlKind.DEFAULT) {
            return null;
        }
        if (node.getKind() == SqlKind.MINUS_PREFIX
                && node instanceof SqlBasicCall call
                && call.operand(0) instanceof SqlNumericLiteral n) {
            return n.getValueAs(BigDecimal.class).negate();
        }
        return NOT_LITERAL;
    }

    private StatementPlan planUpdate(SqlUpdate update, ParameterRewriter rewritten, String original) {
        TableDef table = targetTable(update.getTargetTable());
        int[] targets = targetColumns(table, update.getTargetColumnList());
        String alias = update.getAlias() != null ? update.getAlias().getSimple() : table.name();
        StringBuilder q = new StringBuilder("SELECT ").append(quote(alias)).append(".*");
        List<SqlNode> sources = update.getSourceExpressionList().getList();
        for (int i = 0; i < sources.size(); i++) {
            SqlNode expr = typedParameter(
                    sources.get(i), table.columns().get(targets[i]).type());
            q.append(", (").append(unparse(expr)).append(')');
        }
        appendFromWhere(q, table, alias, update.getCondition());
        PreparedQuery query = prepare(q.toString(), rewritten.order(), rewritten.parameterCount(), original);
        return new StatementPlan.Update(table, targets, query);
    }

    private StatementPlan planDelete(SqlDelete delete, ParameterRewriter rewritten, String original) {
        TableDef table = targetTable(delete.getTargetTable());
        String alias = delete.getAlias() != null ? delete.getAlias().getSimple() : table.name();
        StringBuilder q = new StringBuilder("SELECT ").append(quote(alias)).append(".*");
        appendFromWhere(q, table, alias, delete.getCondition());
        PreparedQuery query = prepare(q.toString(), rewritten.order(), rewritten.parameterCount(), original);
        return new StatementPlan.Delete(table, query);
    }

    private static void appendFromWhere(StringBuilder q, TableDef table, String alias, SqlNode condition) {
        q.append(" FROM ")
                .append(quote(FULL_SCHEMA))
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
        try {
            connection.close();
        } catch (SQLException e) {
            // closing an in-process Calcite connection releases nothing external
        }
    }
}
