package io.tributary.catalog.pg;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The texts PostgreSQL's {@code pg_get_indexdef}, {@code pg_get_constraintdef} and
 * {@code pg_get_viewdef} return, built from a {@link PgRelation}.
 */
public final class PgDefinitions {
    /** Words PostgreSQL's {@code quote_ident} quotes besides names that are not plain lower case. */
    private static final Set<String> RESERVED = Set.of(
            "all",
            "analyse",
            "analyze",
            "and",
            "any",
            "array",
            "as",
            "asc",
            "asymmetric",
            "both",
            "case",
            "cast",
            "check",
            "collate",
            "column",
            "constraint",
            "create",
            "current_catalog",
            "current_date",
            "current_role",
            "current_time",
            "current_timestamp",
            "current_user",
            "default",
            "deferrable",
            "desc",
            "distinct",
            "do",
            "else",
            "end",
            "except",
            "false",
            "fetch",
            "for",
            "foreign",
            "from",
            "grant",
            "group",
            "having",
            "in",
            "initially",
            "intersect",
            "into",
            "lateral",
            "leading",
            "limit",
            "localtime",
            "localtimestamp",
            "not",
            "null",
            "offset",
            "on",
            "only",
            "or",
            "order",
            "placing",
            "primary",
            "references",
            "returning",
            "select",
            "session_user",
            "some",
            "symmetric",
            "table",
            "then",
            "to",
            "trailing",
            "true",
            "union",
            "unique",
            "user",
            "using",
            "variadic",
            "when",
            "where",
            "window",
            "with");

    private PgDefinitions() {}

    /** {@code CREATE UNIQUE INDEX t_pkey ON public.t USING btree (id)}, as pg_get_indexdef gives it. */
    public static String indexDef(PgRelation r, PgRelation.Index index) {
        return "CREATE " + (index.unique() ? "UNIQUE " : "") + "INDEX " + quoteIdent(index.name()) + " ON "
                + quoteIdent(r.schema()) + "." + quoteIdent(r.name()) + " USING btree (" + keyColumns(r, index)
                + ")";
    }

    /** {@code PRIMARY KEY (id)} or {@code UNIQUE (a, b)}, as pg_get_constraintdef gives it. */
    public static String constraintDef(PgRelation r, PgRelation.Index index) {
        return (index.primary() ? "PRIMARY KEY (" : "UNIQUE (") + keyColumns(r, index) + ")";
    }

    /**
     * A view's query as stored at CREATE, after a space and ending with {@code ;} as PostgreSQL
     * prints it (PostgreSQL re-deparses the query; Tributary keeps the user's text).
     */
    public static String viewDef(PgRelation r) {
        return r.definition() == null ? null : " " + r.definition().strip() + ";";
    }

    private static String keyColumns(PgRelation r, PgRelation.Index index) {
        short[] key = index.key();
        return Arrays.stream(toInts(key))
                .mapToObj(n -> quoteIdent(r.attributes().get(n - 1).name()))
                .collect(Collectors.joining(", "));
    }

    private static int[] toInts(short[] a) {
        int[] out = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i];
        }
        return out;
    }

    /** PostgreSQL's {@code quote_ident}: double-quoted unless a plain lower-case, non-reserved name. */
    public static String quoteIdent(String name) {
        boolean plain = !name.isEmpty()
                && (Character.isLowerCase(name.charAt(0)) || name.charAt(0) == '_')
                && name.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '$')
                && !RESERVED.contains(name.toLowerCase(Locale.ROOT));
        return plain ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
