package io.tributary.sql.calcite;

import io.tributary.catalog.SearchPath;
import io.tributary.catalog.pg.PgOids;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongBiFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The casts to PostgreSQL's catalog types that {@link PgCatalogCalls} rewrites: {@code oid},
 * {@code name} and {@code "char"} become Calcite types, {@code 'array_in'::regproc} its OID (another
 * name cast to {@code regproc}, and any cast to {@code regprocedure}, is 0A000), a
 * name constant cast to {@code regclass}, {@code regtype} or {@code regnamespace} its OID (a
 * relation's through the search path) and an OID cast to them its name; and the result columns of
 * a statement's own SELECT that show the object's name instead. One instance per statement, on the
 * planning thread, made by the {@link PgCatalogCalls} it serves.
 */
final class CatalogTypeCasts {
    /** Types a reg type's value cast on to shows as the object's name ({@link #regName}). */
    private static final Set<String> TEXT_TYPES = Set.of("text", "varchar", "name");

    /** For a cast to regclass, regtype, regnamespace: the name's OID, and the OID's name. */
    private static final Map<String, String[]> REG_TYPES = Map.of(
            "regclass",
                    new String[] {
                        null,
                        // qualified when the search path does not reach the relation, as regclassout prints it
                        "(SELECT CASE WHEN pg__n.nspname IN ($visible) THEN quote_ident(pg__c.relname)"
                                + " ELSE quote_ident(pg__n.nspname) || '.' || quote_ident(pg__c.relname) END"
                                + " FROM pg_catalog.pg_class pg__c JOIN pg_catalog.pg_namespace pg__n"
                                + " ON pg__n.oid = pg__c.relnamespace WHERE pg__c.oid = \"$0\")"
                    },
            "regtype",
                    new String[] {
                        "(SELECT pg__t.oid FROM pg_catalog.pg_type pg__t WHERE pg__t.typname = \"$0\")",
                        "format_type(\"$0\", NULL)"
                    },
            "regnamespace",
                    new String[] {
                        "(SELECT pg__n.oid FROM pg_catalog.pg_namespace pg__n WHERE pg__n.nspname = \"$0\")",
                        "(SELECT pg__n.nspname FROM pg_catalog.pg_namespace pg__n WHERE pg__n.oid = \"$0\")"
                    });

    private final ToLongBiFunction<String, String> relationOid;
    private final SearchPath path;

    /**
     * @param relationOid the OID of relation (schema, name), or -1 when there is none
     * @param path the session's search path, which an unqualified relation name is looked up in
     */
    CatalogTypeCasts(ToLongBiFunction<String, String> relationOid, SearchPath path) {
        this.relationOid = relationOid;
        this.path = path;
    }

    /**
     * A result column of the statement's own SELECT that casts a name constant to {@code
     * regclass}, {@code regtype} or {@code regnamespace} (alone, aliased, or cast on to text)
     * shows the object's name, as PostgreSQL prints such values: elsewhere (sub-queries included,
     * whose values feed comparisons) the cast becomes the OID.
     *
     * @return whether a column of {@code select} was changed so (in place)
     */
    boolean showRegNames(org.apache.calcite.sql.SqlSelect select) {
        org.apache.calcite.sql.SqlNodeList items = select.getSelectList();
        if (items == null) {
            return false;
        }
        boolean shown = false;
        for (int i = 0; i < items.size(); i++) {
            SqlNode item = items.get(i);
            if (item instanceof SqlCall as && as.getKind() == SqlKind.AS) {
                SqlNode named = regName(as.operand(0));
                if (named != null) {
                    as.setOperand(0, named);
                    shown = true;
                }
            } else {
                SqlNode named = regName(item);
                if (named != null) {
                    items.set(
                            i,
                            SqlStdOperatorTable.AS.createCall(
                                    item.getParserPosition(),
                                    named,
                                    new SqlIdentifier(label(item), item.getParserPosition())));
                    shown = true;
                }
            }
        }
        return shown;
    }

    /** The name-showing form of {@code node} when it is a cast to a reg type (see {@link #showRegNames}), else null. */
    private SqlNode regName(SqlNode node) {
        if (!(node instanceof SqlCall cast)
                || cast.getKind() != SqlKind.CAST
                || !(cast.operand(1) instanceof SqlDataTypeSpec)) {
            return null; // also a cast to an interval qualifier
        }
        String type = regType(cast);
        if (type != null) {
            return shownName(cast, type);
        }
        if (cast.operand(0) instanceof SqlCall inner
                && inner.getKind() == SqlKind.CAST
                && TEXT_TYPES.contains(label(cast))
                && (type = regType(inner)) != null) {
            SqlNode shown = shownName(inner, type);
            return shown == null
                    ? null
                    : cast.getOperator().createCall(cast.getParserPosition(), shown, cast.operand(1));
        }
        return null;
    }

    /**
     * What PostgreSQL prints for {@code cast}, a name constant cast to reg type {@code type}: for a
     * relation its name, qualified when the search path does not reach it by that name alone (null
     * when there is none: the cast's own rewrite says 42P01); for the others their catalog name.
     */
    private SqlNode shownName(SqlCall cast, String type) {
        if (!type.equals("regclass")) {
            return PgCatalogCalls.expand(REG_TYPES.get(type)[1], List.of(cast));
        }
        String text = ((SqlLiteral) cast.operand(0)).getValueAs(String.class);
        String[] name = qualifiedName(text);
        long oid = unqualified(text) ? visibleOid(name[1]) : relationOid.applyAsLong(name[0], name[1]);
        if (oid < 0) {
            return null;
        }
        String shown = unqualified(text) || visibleOid(name[1]) == oid
                ? PgCatalogFunctions.quote_ident(name[1])
                : PgCatalogFunctions.quote_ident(name[0]) + "." + PgCatalogFunctions.quote_ident(name[1]);
        return SqlLiteral.createCharString(shown, cast.getParserPosition());
    }

    /**
     * The reg type ({@code regclass}, {@code regtype}, {@code regnamespace}) that {@code cast} casts
     * a name constant to, or null: a name becomes its OID, while any other value cast to a reg type
     * already becomes its name ({@link #cast}).
     */
    private static String regType(SqlCall cast) {
        if (cast.operand(0) instanceof SqlLiteral lit
                && lit.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER
                && cast.operand(1) instanceof SqlDataTypeSpec spec
                && spec.getTypeNameSpec().getTypeName().isSimple()) {
            String type = spec.getTypeNameSpec().getTypeName().getSimple().toLowerCase(Locale.ROOT);
            return REG_TYPES.containsKey(type) ? type : null;
        }
        return null;
    }

    /** PostgreSQL's label of a select-list cast: the name of the type cast to last (unqualified). */
    private static String label(SqlNode cast) {
        List<String> names = ((SqlDataTypeSpec) ((SqlCall) cast).operand(1))
                .getTypeNameSpec()
                .getTypeName()
                .names;
        return names.get(names.size() - 1).toLowerCase(Locale.ROOT);
    }

    /** The rewrite of {@code CAST(value AS spec)}, or null when the type is not a catalog type. */
    SqlNode cast(SqlNode value, SqlDataTypeSpec spec) {
        SqlIdentifier id = spec.getTypeNameSpec().getTypeName();
        if (!id.isSimple()) {
            return null;
        }
        String type = id.getSimple().toLowerCase(Locale.ROOT);
        SqlParserPos pos = value.getParserPosition();
        if (type.equals("char") && id.isComponentQuoted(0)) {
            // PostgreSQL's one-byte "char" (pg_class.relkind ...), which catalog relations hold as text:
            // a text cast to it keeps its first character ('abc'::"char" is a)
            SqlNode one = SqlLiteral.createExactNumeric("1", pos);
            return SqlStdOperatorTable.SUBSTRING.createCall(
                    pos, PgCatalogCalls.castTo(value, SqlTypeName.VARCHAR, pos), one, one);
        }
        switch (type) {
            case "oid" -> {
                return PgCatalogCalls.castTo(value, SqlTypeName.BIGINT, pos);
            }
            case "name" -> {
                return PgCatalogCalls.castTo(value, SqlTypeName.VARCHAR, pos);
            }
            case "regproc" -> {
                // the one function whose OID drivers look up this way (pg_type.typinput of arrays)
                if (value instanceof SqlLiteral lit
                        && lit.getValueAs(String.class)
                                .replaceFirst("^pg_catalog\\.", "")
                                .equals("array_in")) {
                    return SqlLiteral.createExactNumeric(Long.toString(PgOids.ARRAY_IN), pos);
                }
                if (!(value instanceof SqlLiteral)) {
                    return PgCatalogCalls.castTo(value, SqlTypeName.BIGINT, pos);
                }
                // pg_proc has no rows for the built-in functions to find a name in
                throw TributaryException.notSupported(
                        "casting a function's name to regproc other than 'array_in'::regproc (psql's \\sf NAME)");
            }
            case "regprocedure" -> {
                // pg_proc lists no argument types to match or print a signature with
                throw TributaryException.notSupported("casts to regprocedure (psql's \\sf NAME(ARGUMENTS))");
            }
            default -> {
                String[] templates = REG_TYPES.get(type);
                if (templates == null) {
                    return null;
                }
                if (value instanceof SqlLiteral lit
                        && lit.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER) {
                    String text = lit.getValueAs(String.class);
                    String[] name = qualifiedName(text);
                    if (type.equals("regclass")
                            && !text.isEmpty()
                            && text.chars().allMatch(Character::isDigit)) {
                        // PostgreSQL's regclass input takes an OID as digits (psql's \d sends them)
                        return SqlLiteral.createExactNumeric(text, pos);
                    }
                    if (type.equals("regclass")) {
                        long oid = unqualified(text) ? visibleOid(name[1]) : relationOid.applyAsLong(name[0], name[1]);
                        if (oid < 0) {
                            throw PositionedError.at(
                                    lit, SqlState.UNDEFINED_TABLE, "relation \"" + text + "\" does not exist");
                        }
                        return SqlLiteral.createExactNumeric(Long.toString(oid), pos);
                    }
                    io.tributary.common.types.DataType named =
                            type.equals("regtype") ? io.tributary.sql.PgTypeNames.parse(text) : null;
                    if (named != null) {
                        // any of the type's names ('integer', 'int4', 'int[]'), as PostgreSQL's regtype input reads
                        // them
                        return SqlLiteral.createExactNumeric(Integer.toString(named.oid()), pos);
                    }
                    return PgCatalogCalls.expand(
                            templates[0],
                            List.of(
                                    SqlLiteral.createCharString(name[1], pos),
                                    SqlLiteral.createCharString(name[0], pos)));
                }
                return PgCatalogCalls.expand(templates[1].replace("$visible", visibleSchemas()), List.of(value));
            }
        }
    }

    /**
     * The schemas of the search path, pg_catalog included, as an SQL list of string literals (one
     * that matches no schema when the path is empty): a relation there prints unqualified.
     */
    private String visibleSchemas() {
        StringBuilder list = new StringBuilder();
        for (String schema : path.withImplicit()) {
            list.append(list.length() == 0 ? "" : ", ")
                    .append('\'')
                    .append(schema.replace("'", "''"))
                    .append('\'');
        }
        return list.length() == 0 ? "''" : list.toString();
    }

    /** Whether relation name {@code text} names no schema (has no {@code .} outside quotes). */
    private static boolean unqualified(String text) {
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '.' && !quoted) {
                return false;
            }
        }
        return true;
    }

    /** The OID of the relation an unqualified name reaches through the search path, or -1. */
    private long visibleOid(String name) {
        for (String schema : path.withImplicit()) {
            long oid = relationOid.applyAsLong(schema, name);
            if (oid >= 0) {
                return oid;
            }
        }
        return -1;
    }

    /** {@code [schema, name]} of a relation name as PostgreSQL reads it: unquoted parts fold to lower case. */
    private static String[] qualifiedName(String text) {
        List<String> parts = new java.util.ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    part.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == '.' && !quoted) {
                parts.add(part.toString());
                part.setLength(0);
            } else {
                part.append(quoted ? c : Character.toLowerCase(c));
            }
        }
        parts.add(part.toString());
        if (parts.size() == 1) {
            String name = parts.get(0);
            return new String[] {name.startsWith("pg_") ? "pg_catalog" : "public", name};
        }
        return new String[] {parts.get(parts.size() - 2), parts.get(parts.size() - 1)};
    }
}
