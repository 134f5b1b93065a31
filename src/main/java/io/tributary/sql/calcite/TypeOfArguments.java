package io.tributary.sql.calcite;

import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlQualified;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.apache.calcite.util.Util;

/**
 * PostgreSQL's type of a {@code pg_typeof} argument whose Calcite type does not tell it, because
 * Tributary holds the value as another type: {@code character(n)} (Calcite's CHAR, which string
 * constants are too; {@link PgTypeOf} names CHAR {@code text}), {@code name} (the session
 * functions {@code current_user}, {@code current_schema}, {@code current_database()} ..., casts
 * to name, catalog columns; held as text), {@code "char"}, {@code oid}, the reg types and {@code
 * xid} (catalog columns and casts; held as text or bigint). Such a call becomes a call of the hidden
 * function {@value #NAMED} with the type's name as its argument, the argument itself unevaluated;
 * but a cast that can fail ({@link #evaluates}: {@code 'x'::oid}, {@code 'nosuch'::regclass})
 * becomes {@value #NAMED_AFTER} of the name and the cast, so its error reaches the client as in
 * PostgreSQL. Public for the generated code that calls {@link #named}; stateless.
 */
public final class TypeOfArguments {
    /** The hidden function answering its text argument: the name a {@code pg_typeof} call is known to answer. */
    static final String NAMED = "pg__type_named";

    /** The hidden function answering its first argument once its second, a cast that may fail, is evaluated. */
    static final String NAMED_AFTER = "pg__type_named_after";

    /** Catalog types whose cast from a value may fail, so the cast is evaluated all the same. */
    private static final Set<String> FALLIBLE_TYPES =
            Set.of("oid", "regclass", "regtype", "regnamespace", "regproc", "regprocedure", "xid");

    /** Session functions PostgreSQL types {@code name}, written without parentheses. */
    private static final Set<String> NAME_KEYWORDS =
            Set.of("current_user", "session_user", "user", "current_role", "current_schema", "current_catalog");

    /** Session functions PostgreSQL types {@code name}, called with parentheses. */
    private static final Set<String> NAME_FUNCTIONS = Set.of("current_schema", "current_database");

    /** Catalog types a cast may name, printed as PostgreSQL prints the type ({@code format_type}). */
    private static final Set<String> CATALOG_TYPES =
            Set.of("name", "oid", "regclass", "regtype", "regnamespace", "regproc", "regprocedure", "xid");

    private TypeOfArguments() {}

    /** {@code named(text)}: its argument. Called by generated code (and by constant reduction). */
    public static String named(String type) {
        return type;
    }

    /** {@code named_after(text, value)}: its first argument; {@code value} only had to be evaluated. */
    public static String namedAfter(String type, Object value) {
        return type;
    }

    /** Whether {@code type}, a name {@link #ofExpression} answered, comes from a cast that may fail. */
    static boolean evaluates(String type) {
        return FALLIBLE_TYPES.contains(type);
    }

    /** {@link #NAMED_AFTER} of {@code type} and {@code cast}, as a call. */
    static SqlNode namedAfter(String type, SqlNode cast, SqlParserPos pos) {
        return new SqlUnresolvedFunction(
                        new SqlIdentifier(NAMED_AFTER, pos),
                        null,
                        null,
                        null,
                        null,
                        SqlFunctionCategory.USER_DEFINED_FUNCTION)
                .createCall(pos, SqlLiteral.createCharString(type, pos), cast);
    }

    /**
     * On the parse tree, before the session functions become constants ({@link PgCatalogCalls}):
     * the type of {@code argument} when it is a session function PostgreSQL types {@code name} or a
     * cast to {@code character(n)} or to a catalog type.
     *
     * @return PostgreSQL's name of the type, or null when the argument is none of those
     */
    static String ofExpression(SqlNode argument) {
        if (argument instanceof SqlIdentifier id
                && id.isSimple()
                && !id.isComponentQuoted(0)
                && NAME_KEYWORDS.contains(id.getSimple().toLowerCase(Locale.ROOT))) {
            return "name";
        }
        if (!(argument instanceof SqlCall call)) {
            return null;
        }
        if (call.getOperator() == SqlStdOperatorTable.CURRENT_USER
                || call.getOperator() == SqlStdOperatorTable.SESSION_USER
                || call.getOperator() == SqlStdOperatorTable.USER
                || call.getOperator() == SqlStdOperatorTable.CURRENT_ROLE
                || call.getOperator() == SqlStdOperatorTable.CURRENT_CATALOG) {
            return "name";
        }
        if (call.getOperator() instanceof SqlFunction f
                && call.operandCount() == 0
                && NAME_FUNCTIONS.contains(f.getName().toLowerCase(Locale.ROOT))) {
            return "name";
        }
        if (call.getKind() != SqlKind.CAST || !(call.operand(1) instanceof SqlDataTypeSpec spec)) {
            return null;
        }
        SqlIdentifier type = spec.getTypeNameSpec().getTypeName();
        if (!type.isSimple() || spec.getCollectionsTypeName() != null) {
            return null;
        }
        String name = type.getSimple().toLowerCase(Locale.ROOT);
        if (name.equals("char") && type.isComponentQuoted(0)) {
            return "\"char\"";
        }
        if (name.equals("char") || name.equals("character") || name.equals("bpchar")) {
            return "character";
        }
        return CATALOG_TYPES.contains(name) ? name : null;
    }

    /**
     * During validation, before {@code call}'s type is derived: when {@code call} is {@code
     * pg_typeof} of a column that is a table's {@code character(n)} column ({@link CharColumns}),
     * a catalog relation's column of a type Tributary holds as another ({@code name}, {@code
     * oid}, {@code "char"} ...) or a view's or derived table's column of such a type ({@link
     * ViewColumnTypes}: {@code regtype} of a {@code pg_typeof} item, {@code name} ...), or of a
     * {@code pg_typeof} call or an expression {@link #ofExpression} names (in a view's query, which
     * {@link PgCatalogCalls} does not rewrite), it becomes {@link #named} of that type's name, in place.
     */
    static void resolve(PgValidator validator, SqlValidatorScope scope, SqlBasicCall call) {
        if (!call.getOperator().getName().equalsIgnoreCase(PgTypeOf.NAME) || call.operandCount() != 1) {
            return;
        }
        String type;
        if (call.operand(0) instanceof SqlIdentifier column) {
            type = catalogColumnType(scope, column);
            if (type == null && CharColumns.isCharColumn(validator, scope, column)) {
                type = "character";
            }
            if (type == null) {
                type = ViewColumnTypes.of(validator, scope, column);
            }
        } else {
            // a view's query reaches validation without PgCatalogCalls' rewrites
            type = ViewColumnTypes.ofItem(call.operand(0));
        }
        if (type != null) {
            SqlParserPos pos = call.getParserPosition();
            call.setOperator(function(pos));
            call.setOperand(0, SqlLiteral.createCharString(type, pos));
        }
    }

    /** {@link #NAMED} of {@code type} (a name as PostgreSQL prints the type), as a call. */
    static SqlNode named(String type, SqlParserPos pos) {
        return function(pos).createCall(pos, SqlLiteral.createCharString(type, pos));
    }

    private static SqlFunction function(SqlParserPos pos) {
        return new SqlUnresolvedFunction(
                new SqlIdentifier(NAMED, pos), null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION);
    }

    /** PostgreSQL's name of the type of the catalog relation's column {@code column} names, or null. */
    private static String catalogColumnType(SqlValidatorScope scope, SqlIdentifier column) {
        try {
            SqlQualified qualified = scope.fullyQualify(column);
            SqlValidatorTable table = qualified.namespace == null ? null : qualified.namespace.getTable();
            PgCalciteTable catalog = table == null ? null : table.unwrap(PgCalciteTable.class);
            return catalog == null ? null : catalog.typeName(Util.last(qualified.suffix()));
        } catch (RuntimeException e) {
            return null; // not a column here: validation reports it as it always did
        }
    }
}
