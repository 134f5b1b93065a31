package io.tributary.sql.calcite;

import io.tributary.catalog.SearchPath;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongBiFunction;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Gives catalog functions and casts their PostgreSQL meaning by rewriting them into lookups in
 * the live {@code pg_catalog} relations, so their answers always agree with what those relations
 * show: {@code pg_get_userbyid}, {@code pg_table_is_visible}, {@code pg_type_is_visible}, {@code
 * pg_opclass_is_visible}, {@code pg_opfamily_is_visible}, {@code pg_operator_is_visible}, {@code
 * pg_conversion_is_visible}, {@code pg_get_indexdef},
 * {@code pg_get_constraintdef}, {@code pg_get_viewdef}, {@code pg_get_function_sqlbody}, {@code obj_description},
 * {@code col_description}, {@code shobj_description}, {@code pg_relation_is_publishable}, {@code current_schemas}, the size
 * functions ({@code pg_relation_size}, {@code pg_table_size}, {@code pg_indexes_size},
 * {@code pg_total_relation_size}, {@code pg_database_size}), and casts
 * to {@code regclass}, {@code regtype}, {@code regnamespace} (a name literal becomes its OID, an
 * OID its name), {@code oid} and {@code name} (through {@link CatalogTypeCasts}). {@code current_user}, {@code session_user} and
 * {@code user} become the session's user, {@code current_catalog} the database's name,
 * {@code pg_backend_pid()} the session's process id, {@code inet_client_addr()} and its kin the
 * session's connection ({@link ConnectionEndpointCalls}), and the session functions of {@link #sessionFunction}
 * ({@code pg_postmaster_start_time}, {@code has_table_privilege}, {@code to_regclass} ...),
 * {@code current_schema} and {@code current_schema()} the first existing schema of the session's
 * {@code search_path} (NULL when none exists); {@code current_setting(name [, missing_ok])} reads {@code pg_settings} when
 * the statement runs (a name that is no setting fails with 42704 at planning unless missing_ok);
 * and a function in FROM with an alias but no column list names its column after the alias, as in
 * PostgreSQL ({@code FROM generate_series(1, 3) s} has column {@code s}).
 */
final class PgCatalogCalls extends StatementRewrite {
    /** Schema of the relation {@link io.tributary.catalog.pg.PgCatalog#definitions}; not reachable unquoted. */
    static final String DEFINITIONS_SCHEMA = "$pg";

    /** In a template: the OIDs of the search path's schemas, pg_catalog first when not listed. */
    private static final String SEARCH_PATH = "$search_path";
    /** In a template: the array of the search path's schemas, with and without the implicit pg_catalog. */
    private static final String WITH_IMPLICIT = "$with_implicit";

    private static final String EXPLICIT = "$explicit";

    /** The table functions of one column whose alias names that column ({@link #isSeries}). */
    private static final Set<String> SERIES =
            Set.of("generate_series", "pg_timestamp_series", "pg_timestamptz_series", PgRegexpMatches.NAME);

    /** Templates name their tables pg__x so that they never capture the caller's aliases. */
    private static final String ROLE = "(SELECT pg__r.rolname FROM pg_catalog.pg_roles pg__r WHERE pg__r.oid = \"$0\")";

    private static final String DESCRIPTION = "(SELECT pg__d.description FROM pg_catalog.pg_description pg__d"
            + " WHERE pg__d.objoid = \"$0\" AND pg__d.objsubid = %s)";
    private static final Map<String, String> FUNCTIONS = Map.ofEntries(
            Map.entry("pg_get_userbyid", ROLE),
            // visible: in a schema of the search path (SEARCH_PATH becomes their OIDs)
            Map.entry(
                    "pg_table_is_visible",
                    "EXISTS (SELECT 1 FROM pg_catalog.pg_class pg__c WHERE pg__c.oid = \"$0\""
                            + " AND pg__c.relnamespace IN (" + SEARCH_PATH + "))"),
            Map.entry(
                    "pg_type_is_visible",
                    "EXISTS (SELECT 1 FROM pg_catalog.pg_type pg__t WHERE pg__t.oid = \"$0\""
                            + " AND pg__t.typnamespace IN (" + SEARCH_PATH + "))"),
            Map.entry(
                    "pg_function_is_visible",
                    "EXISTS (SELECT 1 FROM pg_catalog.pg_proc pg__p WHERE pg__p.oid = \"$0\""
                            + " AND pg__p.pronamespace IN (" + SEARCH_PATH + "))"),
            // psql's \dd: no operator class or family is listed, but the query must run
            Map.entry(
                    "pg_opclass_is_visible",
                    "EXISTS (SELECT 1 FROM pg_catalog.pg_opclass pg__o WHERE pg__o.oid = \"$0\""
                            + " AND pg__o.opcnamespace IN (" + SEARCH_PATH + "))"),
            // psql's \do and \dc: Tributary has no operators or conversions outside pg_catalog
            Map.entry(
                    "pg_operator_is_visible",
                    "EXISTS (SELECT 1 FROM pg_catalog.pg_operator pg__o WHERE pg__o.oid = \"$0\""
                            + " AND pg__o.oprnamespace IN (" + SEARCH_PATH + "))"),
            Map.entry(
                    "pg_conversion_is_visible",
                    "EXISTS (SELECT 1 FROM pg_catalog.pg_conversion pg__o WHERE pg__o.oid = \"$0\""
                            + " AND pg__o.connamespace IN (" + SEARCH_PATH + "))"),
            Map.entry(
                    "pg_opfamily_is_visible",
                    "EXISTS (SELECT 1 FROM pg_catalog.pg_opfamily pg__o WHERE pg__o.oid = \"$0\""
                            + " AND pg__o.opfnamespace IN (" + SEARCH_PATH + "))"),
            Map.entry(
                    "pg_get_function_result",
                    "(SELECT format_type(pg__p.prorettype, NULL) FROM pg_catalog.pg_proc pg__p"
                            + " WHERE pg__p.oid = \"$0\")"),
            // pg_proc does not list argument types: only a function without arguments is described
            Map.entry(
                    "pg_get_function_arguments",
                    "(SELECT CASE WHEN pg__p.pronargs = 0 THEN '' END FROM pg_catalog.pg_proc pg__p"
                            + " WHERE pg__p.oid = \"$0\")"),
            // psql's \df+: no function has an SQL-standard body (CREATE FUNCTION ... BEGIN ATOMIC)
            Map.entry("pg_get_function_sqlbody", "CAST(NULL AS VARCHAR)"),
            Map.entry("pg_get_indexdef", definition("'i'")),
            Map.entry("pg_get_constraintdef", definition("'c'")),
            Map.entry("pg_get_viewdef", definition("'v'")),
            Map.entry("obj_description", DESCRIPTION.formatted("0")),
            Map.entry("col_description", DESCRIPTION.formatted("\"$1\"")),
            // psql's \l+: the comment on a shared object (a database)
            Map.entry(
                    "shobj_description",
                    "(SELECT pg__s.description FROM pg_catalog.pg_shdescription pg__s"
                            + " WHERE pg__s.objoid = \"$0\")"),
            Map.entry(
                    "pg_relation_is_publishable",
                    "EXISTS (SELECT 1 FROM pg_catalog.pg_class pg__c WHERE pg__c.oid = \"$0\""
                            + " AND pg__c.relkind IN ('r', 'p'))"),
            Map.entry("pg_relation_size", size("main")),
            Map.entry("pg_table_size", size("tbl")),
            Map.entry("pg_indexes_size", size("idx")),
            Map.entry("pg_total_relation_size", size("tbl + pg__z.idx")),
            // by name or by OID: no database name is a number, so one template serves both
            Map.entry(
                    "pg_database_size",
                    "(SELECT pg__z.bytes FROM \"" + DEFINITIONS_SCHEMA + "\".database_sizes pg__z"
                            + " WHERE pg__z.datname = CAST(\"$0\" AS VARCHAR)"
                            + " OR CAST(pg__z.datoid AS VARCHAR) = CAST(\"$0\" AS VARCHAR))"),
            Map.entry("current_schemas", "CASE WHEN \"$0\" THEN " + WITH_IMPLICIT + " ELSE " + EXPLICIT + " END"));

    /** The functions whose first parameter is a regclass, so that a text constant there is a relation's name. */
    private static final Set<String> REGCLASS_FIRST = Set.of(
            "pg_get_viewdef",
            "pg_relation_size",
            "pg_table_size",
            "pg_indexes_size",
            "pg_total_relation_size",
            "pg_partition_ancestors");

    /** Whether {@link #visit(SqlCall)} has seen the statement's root (the first call it visits). */
    private boolean rootSeen;

    private final String user;
    private final int processId;
    private final io.tributary.catalog.pg.PgSession.Endpoints endpoints;
    private final String database;
    /** Casts to catalog types, and the names a statement's result columns show for reg casts. */
    private final CatalogTypeCasts casts;

    private final java.util.function.Predicate<String> isSetting;
    private final SearchPath path;
    /** The OID of each schema of the path, pg_catalog first when not listed, for visibility tests. */
    private final String pathOids;

    private final java.util.function.ToLongFunction<String> namespaceOid;

    /** The instant the server started, what {@code pg_postmaster_start_time()} answers. */
    private static final long STARTED_MILLIS =
            java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();

    /**
     * @param user the session's user, what {@code current_user} returns
     * @param database the session's database, what {@code current_database()} and {@code current_catalog} return
     * @param relationOid the OID of relation (schema, name), or -1 when there is none; a
     *        {@code 'name'::regclass} becomes this constant when planned, as in PostgreSQL
     * @param path the session's search path, for {@code current_schema}, {@code current_schemas}
     *        and the visibility functions
     * @param namespaceOid the {@code pg_namespace} OID of a schema of the path
     * @param processId what {@code pg_backend_pid()} returns: the session's process id
     * @param endpoints the session's connection, for {@code inet_client_addr()} and its kin ({@link
     *     ConnectionEndpointCalls})
     */
    PgCatalogCalls(
            String user,
            String database,
            ToLongBiFunction<String, String> relationOid,
            java.util.function.Predicate<String> isSetting,
            SearchPath path,
            java.util.function.ToLongFunction<String> namespaceOid,
            int processId,
            io.tributary.catalog.pg.PgSession.Endpoints endpoints) {
        this.processId = processId;
        this.endpoints = endpoints;
        this.user = user;
        this.database = database;
        this.casts = new CatalogTypeCasts(relationOid, path);
        this.isSetting = isSetting;
        this.path = path;
        this.namespaceOid = namespaceOid;
        StringBuilder oids = new StringBuilder();
        for (String schema : path.withImplicit()) {
            oids.append(oids.length() == 0 ? "" : ", ").append(namespaceOid.applyAsLong(schema));
        }
        this.pathOids = oids.toString();
    }

    /** {@code schemas} as an array constant of text; an empty one when there are none. */
    private static String arrayOf(List<String> schemas) {
        if (schemas.isEmpty()) {
            return "ARRAY(SELECT CAST(NULL AS VARCHAR) FROM (VALUES (1)) AS pg__e(x) WHERE FALSE)";
        }
        StringBuilder b = new StringBuilder("ARRAY[");
        for (int i = 0; i < schemas.size(); i++) {
            b.append(i == 0 ? "" : ", ")
                    .append("'")
                    .append(schemas.get(i).replace("'", "''"))
                    .append("'");
        }
        return b.append("]").toString();
    }

    /** The current schema as a constant: its name, or a NULL of type text when the path has none. */
    private SqlNode currentSchema(org.apache.calcite.sql.parser.SqlParserPos pos) {
        String current = path.current();
        return current != null
                ? SqlLiteral.createCharString(current, pos)
                : SqlStdOperatorTable.CAST.createCall(
                        pos,
                        SqlLiteral.createNull(pos),
                        new org.apache.calcite.sql.SqlDataTypeSpec(
                                new org.apache.calcite.sql.SqlBasicTypeNameSpec(
                                        org.apache.calcite.sql.type.SqlTypeName.VARCHAR, pos),
                                pos));
    }

    /** The lookup of column {@code column} of the relation sizes for the OID in "$0"; NULL for an unknown OID. */
    private static String size(String column) {
        return "(SELECT pg__z." + column + " FROM \"" + DEFINITIONS_SCHEMA + "\".relation_sizes pg__z"
                + " WHERE pg__z.relid = \"$0\")";
    }

    /** The definitions lookup of the OID in "$0" and the kind {@code kind} (an SQL expression) yields. */
    private static String definition(String kind) {
        return "(SELECT pg__d.definition FROM \"" + DEFINITIONS_SCHEMA + "\".definitions pg__d"
                + " WHERE pg__d.defoid = \"$0\" AND pg__d.kind = " + kind + ")";
    }

    @Override
    public SqlNode visit(SqlIdentifier id) {
        // Babel reads an unquoted current_user, session_user or user as an identifier
        if (id.isSimple()
                && !id.isComponentQuoted(0)
                && List.of("current_user", "session_user", "user")
                        .contains(id.getSimple().toLowerCase(Locale.ROOT))) {
            return rewritten(SqlLiteral.createCharString(user, id.getParserPosition()));
        }
        if (id.isSimple() && !id.isComponentQuoted(0) && id.getSimple().equalsIgnoreCase("current_schema")) {
            return rewritten(currentSchema(id.getParserPosition()));
        }
        if (id.isSimple() && !id.isComponentQuoted(0) && id.getSimple().equalsIgnoreCase("current_catalog")) {
            return rewritten(SqlLiteral.createCharString(database, id.getParserPosition()));
        }
        return id;
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (!rootSeen) {
            rootSeen = true;
            // only the statement's own result columns print names: a sub-query's feed comparisons
            SqlNode top = call instanceof org.apache.calcite.sql.SqlOrderBy order ? order.query : call;
            if (top instanceof org.apache.calcite.sql.SqlSelect select) {
                if (casts.showRegNames(select)) {
                    rewritten(select);
                }
            }
        }
        if (isTypeOf(call) && call.operandCount() == 1) {
            // before its argument becomes a constant (current_user) or loses its type (::name is varchar)
            String type = TypeOfArguments.ofExpression(call.operand(0));
            if (type != null && TypeOfArguments.evaluates(type)) {
                // the cast may fail ('x'::oid, 'nosuch'::regclass): PostgreSQL evaluates it first
                return rewritten(
                        TypeOfArguments.namedAfter(type, call.operand(0).accept(this), call.getParserPosition()));
            }
            if (type != null) {
                return rewritten(TypeOfArguments.named(type, call.getParserPosition()));
            }
        }
        SqlKind kind = call.getKind();
        if (kind == SqlKind.CAST && call.operand(1) instanceof SqlDataTypeSpec spec) {
            SqlNode cast = casts.cast(call.operand(0).accept(this), spec);
            if (cast != null) {
                return rewritten(cast);
            }
        }
        if ((kind == SqlKind.EQUALS || kind == SqlKind.NOT_EQUALS)
                && (isTypeOf(call.operand(0)) && isRegtype(call.operand(1))
                        || isRegtype(call.operand(0)) && isTypeOf(call.operand(1)))) {
            // pg_typeof answers the type's name, as a regtype shows: compare the regtype's name
            SqlNode[] operands = new SqlNode[2];
            for (int i = 0; i < 2; i++) {
                SqlNode operand = call.operand(i).accept(this);
                operands[i] =
                        isRegtype(call.operand(i)) ? expand("format_type(\"$0\", NULL)", List.of(operand)) : operand;
            }
            return rewritten(call.getOperator().createCall(call.getParserPosition(), operands));
        }
        if ((kind == SqlKind.SOME || kind == SqlKind.ALL)
                && call.operand(0) instanceof SqlLiteral lit
                && lit.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER) {
            // Calcite compares a CHAR(n) literal with a VARCHAR array's elements only once it is VARCHAR
            return rewritten(call.getOperator()
                    .createCall(
                            call.getParserPosition(),
                            castTo(lit, SqlTypeName.VARCHAR, lit.getParserPosition()),
                            call.operand(1).accept(this)));
        }
        if (kind == SqlKind.ITEM && call.operandCount() == 2 && !(call.operand(1) instanceof SqlLiteral)) {
            // Calcite indexes arrays by INTEGER only; PostgreSQL takes any integer expression
            return rewritten(call.getOperator()
                    .createCall(
                            call.getParserPosition(),
                            call.operand(0).accept(this),
                            castTo(call.operand(1).accept(this), SqlTypeName.INTEGER, call.getParserPosition())));
        }
        if (call instanceof org.apache.calcite.sql.SqlSelect select) {
            FromItems.replaceIn(select, this::fromItem);
        }
        if (call.getOperator() instanceof SqlFunction f
                && f.getSqlIdentifier() != null
                && f.getSqlIdentifier().isSimple()
                && f.getSqlIdentifier().getSimple().equalsIgnoreCase("current_setting")
                && (call.operandCount() == 1 || call.operandCount() == 2)) {
            return rewritten(currentSetting(call));
        }
        if (call.getOperator() instanceof SqlFunction f
                && f.getSqlIdentifier() != null
                && f.getSqlIdentifier().isSimple()
                && f.getSqlIdentifier().getSimple().equalsIgnoreCase("current_database")
                && call.operandCount() == 0) {
            // the session's database, which a static function could not know
            return rewritten(SqlLiteral.createCharString(database, call.getParserPosition()));
        }
        if (call.getOperator() instanceof SqlFunction f
                && f.getSqlIdentifier() != null
                && f.getSqlIdentifier().isSimple()
                && f.getSqlIdentifier().getSimple().equalsIgnoreCase("pg_backend_pid")
                && call.operandCount() == 0) {
            // an int4 constant, as pg_stat_activity.pid
            return rewritten(castTo(
                    SqlLiteral.createExactNumeric(Integer.toString(processId), call.getParserPosition()),
                    SqlTypeName.INTEGER,
                    call.getParserPosition()));
        }
        if (call.getOperator() instanceof SqlFunction f
                && f.getSqlIdentifier() != null
                && f.getSqlIdentifier().isSimple()) {
            SqlNode session = sessionFunction(f.getSqlIdentifier().getSimple().toLowerCase(Locale.ROOT), call);
            if (session != null) {
                return rewritten(session);
            }
            SqlNode endpoint =
                    ConnectionEndpointCalls.replacement(f.getSqlIdentifier().getSimple(), call, endpoints);
            if (endpoint != null) {
                return rewritten(endpoint);
            }
        }
        if (call.getOperator() == SqlStdOperatorTable.CURRENT_USER
                || call.getOperator() == SqlStdOperatorTable.SESSION_USER
                || call.getOperator() == SqlStdOperatorTable.USER) {
            return rewritten(SqlLiteral.createCharString(user, call.getParserPosition()));
        }
        if (call.getOperator().getName().equalsIgnoreCase("current_schema") && call.operandCount() == 0) {
            return rewritten(currentSchema(call.getParserPosition()));
        }
        if (call.getOperator() instanceof SqlFunction f
                && f.getSqlIdentifier() != null
                && f.getSqlIdentifier().isSimple()) {
            String template = FUNCTIONS.get(f.getSqlIdentifier().getSimple().toLowerCase(Locale.ROOT));
            if (template != null
                    && call.operandCount() == 3
                    && f.getSqlIdentifier().getSimple().equalsIgnoreCase("pg_get_indexdef")) {
                // pg_get_indexdef(index, column, pretty): the name of the index's column at that position
                template = "CASE WHEN \"$1\" = 0 THEN " + definition("'i'")
                        + " ELSE (SELECT pg__a.attname FROM pg_catalog.pg_attribute pg__a"
                        + " WHERE pg__a.attrelid = \"$0\" AND pg__a.attnum = \"$1\") END";
            }
            if (template != null
                    && call.operandCount() == 2
                    && f.getSqlIdentifier().getSimple().equalsIgnoreCase("pg_get_constraintdef")) {
                // pg_get_constraintdef(constraint, pretty): one lookup, so it is still planned as a join
                template = "(SELECT CASE WHEN \"$1\" THEN pg__d.pretty ELSE pg__d.definition END FROM \""
                        + DEFINITIONS_SCHEMA + "\".definitions pg__d WHERE pg__d.defoid = \"$0\" AND pg__d.kind = 'c')";
            }
            if (template != null) {
                template = template.replace(SEARCH_PATH, pathOids)
                        .replace(WITH_IMPLICIT, arrayOf(path.withImplicit()))
                        .replace(EXPLICIT, arrayOf(path.explicit()));
            }
            if (template != null && call.operandCount() > 0) {
                List<SqlNode> args = new java.util.ArrayList<>();
                for (SqlNode a : call.getOperandList()) {
                    args.add(a == null ? null : viewName(f, args.isEmpty(), a).accept(this));
                }
                return rewritten(expand(template, args));
            }
            if (template == null && call.operandCount() > 0 && call.operand(0) != null) {
                // a table function taking a regclass (pg_partition_ancestors('t')): the name is read the same way
                call.setOperand(0, viewName(f, true, call.operand(0)));
            }
        }
        return super.visit(call);
    }

    /**
     * The session and privilege functions tools call, or null when {@code call} is none of them
     * (or has arguments they do not take here, left for Calcite's 42883): {@code
     * pg_postmaster_start_time()} the server's start; {@code
     * has_table_privilege([user,] table, privilege)} true for an existing relation (every session
     * may read and write every relation; 42P01 for a missing one), {@code has_schema_privilege} and
     * {@code has_database_privilege} of a named schema or database likewise (3F000, 3D000); {@code
     * to_regclass('name')} the relation's OID as a regclass cast gives it, NULL when there is none.
     */
    private SqlNode sessionFunction(String name, SqlCall call) {
        if (!SESSION_FUNCTIONS.contains(name)) {
            return null;
        }
        // arguments first: current_database() and current_user become the constants read here
        for (int i = 0; i < call.operandCount(); i++) {
            if (call.operand(i) != null) {
                call.setOperand(i, call.operand(i).accept(this));
            }
        }
        SqlParserPos pos = call.getParserPosition();
        int n = call.operandCount();
        switch (name) {
            case "pg_postmaster_start_time" -> {
                return n != 0
                        ? null
                        : expand(
                                "TIMESTAMP WITH LOCAL TIME ZONE '"
                                        + org.apache.calcite.util.TimestampString.fromMillisSinceEpoch(STARTED_MILLIS)
                                        + "'",
                                List.of());
            }
            case "has_table_privilege" -> {
                if (n != 2 && n != 3 || !(call.operand(n - 1) instanceof SqlLiteral privilege)) {
                    return null;
                }
                PgPrivilegeText.check(privilege.getValueAs(String.class), PgPrivilegeText.TABLE);
                SqlNode oid = casts.cast(call.operand(n - 2), regclass(pos));
                return SqlStdOperatorTable.CASE.createCall(
                        null,
                        pos,
                        null,
                        new org.apache.calcite.sql.SqlNodeList(
                                List.of(SqlStdOperatorTable.IS_NOT_NULL.createCall(pos, oid)), pos),
                        new org.apache.calcite.sql.SqlNodeList(List.of(SqlLiteral.createBoolean(true, pos)), pos),
                        castTo(SqlLiteral.createNull(pos), SqlTypeName.BOOLEAN, pos));
            }
            case "has_schema_privilege", "has_database_privilege" -> {
                if (n != 2 && n != 3 || !(call.operand(n - 1) instanceof SqlLiteral privilege)) {
                    return null;
                }
                boolean schema = name.equals("has_schema_privilege");
                PgPrivilegeText.check(
                        privilege.getValueAs(String.class), schema ? PgPrivilegeText.SCHEMA : PgPrivilegeText.DATABASE);
                if (!(call.operand(n - 2) instanceof SqlLiteral object)) {
                    // a column (psql's \l+ passes pg_database.datname): the session's user holds
                    // every privilege, so true for an object that exists, by name or OID
                    return expand(schema ? SCHEMA_EXISTS : DATABASE_EXISTS, List.of(call.operand(n - 2)));
                }
                if (object.getTypeName().getFamily() != org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER) {
                    return null;
                }
                String objectName = object.getValueAs(String.class);
                if (schema ? namespaceOid.applyAsLong(objectName) < 0 : !objectName.equals(database)) {
                    throw new TributaryException(
                            schema ? SqlState.INVALID_SCHEMA_NAME : SqlState.INVALID_CATALOG_NAME,
                            (schema ? "schema \"" : "database \"") + objectName + "\" does not exist");
                }
                return SqlLiteral.createBoolean(true, pos);
            }
            case "to_regclass" -> {
                if (n != 1
                        || !(call.operand(0) instanceof SqlLiteral text)
                        || text.getTypeName().getFamily() != org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER) {
                    return null;
                }
                try {
                    return casts.cast(text, regclass(pos));
                } catch (TributaryException missing) {
                    // to_regclass is the cast that answers NULL where the cast fails with 42P01
                    if (!SqlState.UNDEFINED_TABLE.equals(missing.sqlState())) {
                        throw missing;
                    }
                    return castTo(SqlLiteral.createNull(pos), SqlTypeName.BIGINT, pos);
                }
            }
            default -> {
                return null;
            }
        }
    }

    /** True when the schema named (or numbered) by "$0" exists, else NULL. */
    private static final String SCHEMA_EXISTS = "CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_namespace pg__n"
            + " WHERE pg__n.nspname = CAST(\"$0\" AS VARCHAR)"
            + " OR CAST(pg__n.oid AS VARCHAR) = CAST(\"$0\" AS VARCHAR)) THEN TRUE END";

    /** True when the database named (or numbered) by "$0" exists, else NULL. */
    private static final String DATABASE_EXISTS = "CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_database pg__d"
            + " WHERE pg__d.datname = CAST(\"$0\" AS VARCHAR)"
            + " OR CAST(pg__d.oid AS VARCHAR) = CAST(\"$0\" AS VARCHAR)) THEN TRUE END";

    /** Whether {@code node} is a call of {@code pg_typeof}. */
    private static boolean isTypeOf(SqlNode node) {
        return node instanceof SqlCall c
                && c.getOperator() instanceof SqlFunction f
                && f.getName().equalsIgnoreCase(PgTypeOf.NAME);
    }

    /** Whether {@code node} is a cast to {@code regtype}. */
    private static boolean isRegtype(SqlNode node) {
        return node.getKind() == SqlKind.CAST
                && ((SqlCall) node).operand(1) instanceof SqlDataTypeSpec spec
                && spec.getTypeNameSpec().getTypeName().isSimple()
                && spec.getTypeNameSpec().getTypeName().getSimple().equalsIgnoreCase("regtype");
    }

    /** The functions {@link #sessionFunction} answers. */
    private static final Set<String> SESSION_FUNCTIONS = Set.of(
            "pg_postmaster_start_time",
            "has_table_privilege",
            "has_schema_privilege",
            "has_database_privilege",
            "to_regclass");

    private static SqlDataTypeSpec regclass(SqlParserPos pos) {
        return new SqlDataTypeSpec(new org.apache.calcite.sql.SqlUserDefinedTypeNameSpec("regclass", pos), pos);
    }

    /**
     * {@code pg_get_viewdef('name')}: PostgreSQL's text variant names the view as a regclass does,
     * so a text constant as the first argument becomes a cast to regclass; any other argument as is.
     * The same for the size functions, whose regclass parameter reads a text constant as a name.
     */
    private static SqlNode viewName(SqlFunction f, boolean first, SqlNode arg) {
        if (first
                && REGCLASS_FIRST.contains(f.getSqlIdentifier().getSimple().toLowerCase(Locale.ROOT))
                && arg instanceof SqlLiteral lit
                && lit.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER) {
            SqlParserPos pos = arg.getParserPosition();
            return SqlStdOperatorTable.CAST.createCall(
                    pos,
                    arg,
                    new SqlDataTypeSpec(new org.apache.calcite.sql.SqlUserDefinedTypeNameSpec("regclass", pos), pos));
        }
        return arg;
    }

    /** {@code current_setting(name [, missing_ok])} as a lookup in {@code pg_settings}. */
    private SqlNode currentSetting(SqlCall call) {
        SqlNode name = call.operand(0);
        boolean missingOk = call.operandCount() == 2
                && call.operand(1) instanceof SqlLiteral ok
                && Boolean.TRUE.equals(ok.getValueAs(Boolean.class));
        if (name instanceof SqlLiteral lit
                && lit.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER
                && !missingOk
                && !isSetting.test(lit.getValueAs(String.class).toLowerCase(Locale.ROOT))) {
            throw new TributaryException(
                    SqlState.UNDEFINED_OBJECT,
                    "unrecognized configuration parameter \"" + lit.getValueAs(String.class) + "\"");
        }
        return expand(
                "(SELECT pg__s.setting FROM pg_catalog.pg_settings pg__s WHERE pg__s.name = lower(\"$0\"))",
                List.of(name.accept(this)));
    }

    /**
     * A FROM item with PostgreSQL's naming: the one column of a function with an alias but no
     * column list is named after the alias ({@code FROM generate_series(1, 3) s} has column s).
     */
    private SqlNode fromItem(SqlNode from, SqlCall as) {
        if (as != null
                && as.operandCount() == 2
                && from instanceof SqlCall fn
                && (fn.getOperator() instanceof SqlFunction || isSeries(fn) || isLateralSeries(fn))) {
            return rewritten(
                    SqlStdOperatorTable.AS.createCall(as.getParserPosition(), fn, as.operand(1), as.operand(1)));
        }
        return FromItems.unchanged(from, as);
    }

    /**
     * Whether {@code fn} is the parser's {@code TABLE(...)} around a call of one of the series
     * functions, whose rows have one column ({@code generate_series}, and the names {@link
     * PgValueSemantics} gives its timestamp form, and {@code regexp_matches}).
     */
    private static boolean isSeries(SqlCall fn) {
        return fn.getKind() == SqlKind.COLLECTION_TABLE
                && fn.operandCount() == 1
                && fn.operand(0) instanceof SqlCall series
                && SERIES.contains(series.getOperator().getName().toLowerCase(Locale.ROOT));
    }

    /** Whether {@code fn} is {@code LATERAL} around a series call ({@link #isSeries}). */
    private static boolean isLateralSeries(SqlCall fn) {
        return fn.getKind() == SqlKind.LATERAL && fn.operand(0) instanceof SqlCall inner && isSeries(inner);
    }

    /** {@code CAST(value AS type)}, placed at {@code pos}. */
    static SqlNode castTo(SqlNode value, SqlTypeName type, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(
                pos, value, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(type, pos), pos));
    }

    /** Parses {@code template} and puts {@code args} where it names {@code "$0"}, {@code "$1"} ... */
    static SqlNode expand(String template, List<SqlNode> args) {
        SqlNode parsed;
        try {
            parsed = SqlParser.create(template, CalciteSettings.PARSER).parseExpression();
        } catch (SqlParseException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "bad catalog template: " + template, e);
        }
        return parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                if (id.isSimple() && id.getSimple().startsWith("$")) {
                    int n = Integer.parseInt(id.getSimple().substring(1));
                    return n < args.size() && args.get(n) != null
                            ? args.get(n)
                            : SqlLiteral.createNull(id.getParserPosition());
                }
                return id;
            }
        });
    }
}
