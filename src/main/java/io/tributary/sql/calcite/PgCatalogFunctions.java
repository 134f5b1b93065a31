package io.tributary.sql.calcite;

import io.tributary.catalog.pg.PgTypes;

/**
 * PostgreSQL's catalog functions that need no catalog lookup (those that do are planned as
 * lookups by {@link PgCatalogCalls}). Calcite calls the public static methods by reflection;
 * they take boxed values so NULL passes through.
 */
public final class PgCatalogFunctions {
    private PgCatalogFunctions() {}

    /** {@code format_type(type_oid, typmod)}, e.g. {@code numeric(10,2)}. */
    public static String format_type(Long oid, Integer typmod) {
        return PgTypes.formatType(oid, typmod);
    }

    /** {@code pg_get_expr(expr, relation)}: expressions are stored as their text. */
    public static String pg_get_expr(String expression, Long relation) {
        return expression;
    }

    /** {@code pg_get_expr(expr, relation, pretty)}. */
    public static String pg_get_expr(String expression, Long relation, Boolean pretty) {
        return expression;
    }

    /** {@code pg_is_in_recovery()}: Tributary is never a standby. */
    public static Boolean pg_is_in_recovery() {
        return false;
    }

    /** {@code pg_encoding_to_char(6)}: the only encoding, UTF8 (PostgreSQL's number 6). */
    public static String pg_encoding_to_char(Integer encoding) {
        return encoding == null ? null : encoding == 6 ? "UTF8" : "";
    }

    /** {@code pg_get_statisticsobjdef_columns(oid)}: there are no extended statistics objects. */
    public static String pg_get_statisticsobjdef_columns(Long oid) {
        return null;
    }

    /** {@code quote_ident(name)}: double-quoted unless plain lower case and not reserved. */
    public static String quote_ident(String name) {
        return name == null ? null : io.tributary.catalog.pg.PgDefinitions.quoteIdent(name);
    }
}
