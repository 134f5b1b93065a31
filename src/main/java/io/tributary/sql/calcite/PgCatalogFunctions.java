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

    /** {@code pg_get_triggerdef(oid, pretty)}: there are no triggers, so no OID names one. */
    public static String pg_get_triggerdef(Long oid, Boolean pretty) {
        return null;
    }

    /** {@code pg_get_ruledef(oid, pretty)}: {@code pg_rewrite} is empty, so no OID names a rule. */
    public static String pg_get_ruledef(Long oid, Boolean pretty) {
        return null;
    }

    /** {@code quote_ident(name)}: double-quoted unless plain lower case and not reserved. */
    public static String quote_ident(String name) {
        return name == null ? null : io.tributary.catalog.pg.PgDefinitions.quoteIdent(name);
    }

    /**
     * {@code set_config(name, value, is_local)} evaluated inside a query. A statement that is only
     * {@code SELECT set_config('n', 'v', b)} changes the setting (a utility statement); inside a
     * query a setting cannot change, so reaching a row fails with 0A000. A query whose filter
     * leaves no rows (pg_dump's {@code ... FROM pg_settings WHERE name = 'x'} for a setting
     * Tributary lacks) succeeds with no rows, as in PostgreSQL.
     */
    public static String set_config(String name, String value, Boolean isLocal) {
        throw io.tributary.common.TributaryException.notSupported(
                "set_config inside a query (only SELECT set_config('name', 'value', is_local) alone)");
    }

    /**
     * {@code nextval(sequence)} evaluated inside a query: 0A000 once it reaches a row. Alone, {@code
     * SELECT nextval('seq')} is a utility statement that hands out a durable value (so are currval
     * and setval below); inside a query the value could not be made durable with the statement.
     */
    public static Long nextval(String sequence) {
        throw io.tributary.common.TributaryException.notSupported(
                "nextval inside a query (only SELECT nextval('sequence') alone)");
    }

    /** {@code currval(sequence)} inside a query: 0A000, as {@link #nextval}. */
    public static Long currval(String sequence) {
        throw io.tributary.common.TributaryException.notSupported(
                "currval inside a query (only SELECT currval('sequence') alone)");
    }

    /** {@code setval(sequence, value)} inside a query: 0A000, as {@link #nextval}. */
    public static Long setval(String sequence, Long value) {
        throw io.tributary.common.TributaryException.notSupported(
                "setval inside a query (only SELECT setval('sequence', value) alone)");
    }

    /** {@code setval(sequence, value, is_called)} inside a query: 0A000, as {@link #nextval}. */
    public static Long setval(String sequence, Long value, Boolean isCalled) {
        throw io.tributary.common.TributaryException.notSupported(
                "setval inside a query (only SELECT setval('sequence', value, is_called) alone)");
    }

    /**
     * {@code acldefault(kind, owner)}: Tributary has no privileges, so no relation or schema
     * carries an access list and there is no default one to compare with: NULL, which tools such as
     * pg_dump read as "nothing to grant or revoke".
     */
    public static String acldefault(String kind, Long owner) {
        return null;
    }

    /**
     * {@code quote_literal(text)}: the text as a string literal, quotes doubled; one holding a
     * backslash is written {@code E'...'} with backslashes doubled, as PostgreSQL does.
     */
    public static String quote_literal(String s) {
        if (s == null) {
            return null;
        }
        String quoted = "'" + s.replace("'", "''").replace("\\", "\\\\") + "'";
        return s.indexOf('\\') >= 0 ? "E" + quoted : quoted;
    }
}
