package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
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

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Gives catalog functions and casts their PostgreSQL meaning by rewriting them into lookups in
 * the live {@code pg_catalog} relations, so their answers always agree with what those relations
 * show: {@code pg_get_userbyid}, {@code pg_table_is_visible}, {@code pg_get_indexdef},
 * {@code pg_get_constraintdef}, {@code pg_get_viewdef}, {@code obj_description},
 * {@code col_description}, {@code pg_relation_is_publishable}, {@code current_schemas}, and casts
 * to {@code regclass}, {@code regtype}, {@code regnamespace} (a name literal becomes its OID, an
 * OID its name), {@code oid} and {@code name}. {@code current_user}, {@code session_user} and
 * {@code user} become the session's user.
 */
final class PgCatalogCalls extends StatementRewrite {
    /** Schema of the relation {@link io.tributary.catalog.pg.PgCatalog#definitions} shows; not reachable unquoted. */
    static final String DEFINITIONS_SCHEMA = "$pg";

    private static final String ROLE = "(SELECT r.rolname FROM pg_catalog.pg_roles r WHERE r.oid = \"$0\")";
    private static final String DESCRIPTION = "(SELECT d.description FROM pg_catalog.pg_description d"
            + " WHERE d.objoid = \"$0\" AND d.objsubid = %s)";
    private static final Map<String, String> FUNCTIONS = Map.of(
            "pg_get_userbyid", ROLE,
            "pg_table_is_visible", "EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.oid = \"$0\""
                    + " AND c.relnamespace IN (11, 2200))",
            "pg_get_indexdef", definition("i"),
            "pg_get_constraintdef", definition("c"),
            "pg_get_viewdef", definition("v"),
            "obj_description", DESCRIPTION.formatted("0"),
            "col_description", DESCRIPTION.formatted("\"$1\""),
            "pg_relation_is_publishable", "EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.oid = \"$0\""
                    + " AND c.relkind IN ('r', 'p'))",
            "current_schemas", "CASE WHEN \"$0\" THEN ARRAY['pg_catalog', 'public'] ELSE ARRAY['public'] END");

    /** For a cast to regclass, regtype, regnamespace: the name's OID, and the OID's name. */
    private static final Map<String, String[]> REG_TYPES = Map.of(
            "regclass", new String[] {
                "(SELECT c.oid FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                        + " WHERE c.relname = \"$0\" AND n.nspname = \"$1\")",
                "(SELECT c.relname FROM pg_catalog.pg_class c WHERE c.oid = \"$0\")"},
            "regtype", new String[] {
                "(SELECT t.oid FROM pg_catalog.pg_type t WHERE t.typname = \"$0\")",
                "format_type(\"$0\", NULL)"},
            "regnamespace", new String[] {
                "(SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname = \"$0\")",
                "(SELECT n.nspname FROM pg_catalog.pg_namespace n WHERE n.oid = \"$0\")"});

    private final String user;

    /** @param user the session's user, what {@code current_user} returns */
    PgCatalogCalls(String user) {
        this.user = user;
    }

    private static String definition(String kind) {
        return "(SELECT d.definition FROM \"" + DEFINITIONS_SCHEMA + "\".definitions d WHERE d.oid = \"$0\""
                + " AND d.kind = '" + kind + "')";
    }

    @Override
    public SqlNode visit(SqlCall call) {
        SqlKind kind = call.getKind();
        if (kind == SqlKind.CAST && call.operand(1) instanceof SqlDataTypeSpec spec) {
            SqlNode cast = cast(call.operand(0).accept(this), spec);
            if (cast != null) {
                return rewritten(cast);
            }
        }
        if (call.getOperator() == SqlStdOperatorTable.CURRENT_USER
                || call.getOperator() == SqlStdOperatorTable.SESSION_USER
                || call.getOperator() == SqlStdOperatorTable.USER) {
            return rewritten(SqlLiteral.createCharString(user, call.getParserPosition()));
        }
        if (call.getOperator() instanceof SqlFunction f && f.getSqlIdentifier() != null
                && f.getSqlIdentifier().isSimple()) {
            String template = FUNCTIONS.get(f.getSqlIdentifier().getSimple().toLowerCase(Locale.ROOT));
            if (template != null && call.operandCount() > 0) {
                List<SqlNode> args = call.getOperandList().stream().map(a -> a == null ? null : a.accept(this)).toList();
                return rewritten(expand(template, args));
            }
        }
        return super.visit(call);
    }

    /** The rewrite of {@code CAST(value AS spec)}, or null when the type is not a catalog type. */
    private static SqlNode cast(SqlNode value, SqlDataTypeSpec spec) {
        SqlIdentifier id = spec.getTypeNameSpec().getTypeName();
        if (!id.isSimple()) {
            return null;
        }
        String type = id.getSimple().toLowerCase(Locale.ROOT);
        SqlParserPos pos = value.getParserPosition();
        switch (type) {
            case "oid" -> {
                return castTo(value, SqlTypeName.BIGINT, pos);
            }
            case "name" -> {
                return castTo(value, SqlTypeName.VARCHAR, pos);
            }
            default -> {
                String[] templates = REG_TYPES.get(type);
                if (templates == null) {
                    return null;
                }
                if (value instanceof SqlLiteral lit && lit.getTypeName().getFamily()
                        == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER) {
                    String[] name = qualifiedName(lit.getValueAs(String.class));
                    return expand(templates[0], List.of(SqlLiteral.createCharString(name[1], pos),
                            SqlLiteral.createCharString(name[0], pos)));
                }
                return expand(templates[1], List.of(value));
            }
        }
    }

    private static SqlNode castTo(SqlNode value, SqlTypeName type, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(pos, value,
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(type, pos), pos));
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

    /** Parses {@code template} and puts {@code args} where it names {@code "$0"}, {@code "$1"} ... */
    private static SqlNode expand(String template, List<SqlNode> args) {
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
                    return n < args.size() && args.get(n) != null ? args.get(n)
                            : SqlLiteral.createNull(id.getParserPosition());
                }
                return id;
            }
        });
    }
}
