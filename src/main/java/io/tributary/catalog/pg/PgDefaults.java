package io.tributary.catalog.pg;

import io.tributary.catalog.ColumnDef;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.TypeKind;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text {@code pg_get_expr(adbin, adrelid)} returns for a column's default, as PostgreSQL
 * deparses the stored expression: a constant is shown coerced to the column's type
 * ({@code 'x'::text}, {@code '2024-01-01'::date}, a number bare, a negative integer quoted), a
 * {@code SERIAL} column's default as {@code nextval('<table>_<column>_seq'::regclass)}, the
 * functions {@code now()} and {@code CURRENT_TIMESTAMP}/{@code CURRENT_DATE} as PostgreSQL
 * prints them. Any other expression is shown as written. Called when {@code pg_attribute} and
 * {@code pg_attrdef} rows are computed, on the querying thread.
 */
final class PgDefaults {
    private static final Pattern STRING = Pattern.compile("(?s)'((?:[^']|'')*)'(?:\\s*::\\s*[a-z][a-z0-9 ()_,]*)?");
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern INTEGER = Pattern.compile("-?\\d+");
    private static final Pattern NEXTVAL =
            Pattern.compile("(?i)nextval\\s*\\(\\s*'([a-z_][a-z0-9_.]*)'\\s*(?:::\\s*regclass\\s*)?\\)");

    private PgDefaults() {}

    /** The deparsed default of {@code column} of table {@code table}, or null when it has none. */
    static String text(String table, ColumnDef column) {
        if (column.proctime()) {
            return "proctime()"; // a generated column's expression is its pg_attrdef row
        }
        if (column.identity() == ColumnDef.Identity.SERIAL) {
            return "nextval('" + table + "_" + column.name() + "_seq'::regclass)";
        }
        String expr = column.defaultExpr();
        if (expr == null) {
            return null;
        }
        String trimmed = expr.trim();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        Matcher nextval = NEXTVAL.matcher(trimmed);
        if (nextval.matches()) {
            // a regclass constant prints without the schema when the search path finds it
            String sequence =
                    nextval.group(1).startsWith("public.") ? nextval.group(1).substring(7) : nextval.group(1);
            return "nextval('" + sequence + "'::regclass)";
        }
        switch (lower) {
            case "now()":
                return "now()";
            case "current_timestamp":
                return "CURRENT_TIMESTAMP";
            case "current_date":
                return "CURRENT_DATE";
            case "true", "false":
                return column.type().kind() == TypeKind.BOOLEAN ? lower : trimmed;
            case "null":
                return "NULL::" + typeName(column.type());
            default:
                break;
        }
        Matcher string = STRING.matcher(trimmed);
        if (string.matches()) {
            return constant(column.type(), string.group(1).replace("''", "'"), trimmed);
        }
        if (NUMBER.matcher(trimmed).matches()) {
            return number(trimmed);
        }
        return trimmed;
    }

    /**
     * A string constant coerced to {@code type}, as PostgreSQL prints the resulting constant (a
     * length or precision is applied by a hidden cast, so the value is shown as converted to the
     * bare type); {@code written} when it does not convert.
     */
    private static String constant(DataType column, String value, String written) {
        // an array's element loses its length or precision too: '{}'::character varying[]
        DataType type = column.kind() == TypeKind.ARRAY
                ? DataType.array(DataType.of(column.element().kind()))
                : DataType.of(column.kind());
        String canonical;
        try {
            canonical = PgTextFormat.format(type, PgTextFormat.parse(type, value.trim()));
        } catch (TributaryException | IllegalArgumentException | ArithmeticException e) {
            return written;
        }
        return switch (type.kind()) {
            case INTEGER -> canonical.startsWith("-") ? quote(canonical) + "::integer" : canonical;
            case NUMERIC ->
                canonical.startsWith("-")
                        ? quote(canonical) + "::numeric"
                        : canonical.contains(".") ? canonical : canonical + "::numeric";
            case BOOLEAN -> canonical.equals("t") ? "true" : "false";
            default -> quote(canonical) + "::" + typeName(type);
        };
    }

    /**
     * A number as written, as PostgreSQL types and prints it: an integer constant is int4 when it
     * fits, else int8, else numeric; a decimal one numeric. The cast to the column's type is
     * implicit and not shown.
     */
    private static String number(String written) {
        String n = written.startsWith("+") ? written.substring(1) : written;
        boolean negative = n.startsWith("-");
        if (INTEGER.matcher(n).matches()) {
            java.math.BigInteger v = new java.math.BigInteger(n);
            if (v.bitLength() < 32) {
                return negative ? quote(n) + "::integer" : n;
            }
            if (v.bitLength() < 64) {
                return quote(n) + "::bigint";
            }
            return negative ? quote(n) + "::numeric" : n + "::numeric";
        }
        String plain = new java.math.BigDecimal(n).toPlainString();
        return negative ? quote(plain) + "::numeric" : plain;
    }

    /** The type name PostgreSQL's deparser attaches to a constant: without a length or precision. */
    private static String typeName(DataType type) {
        return PgTypes.formatType((long) type.oid(), -1);
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
