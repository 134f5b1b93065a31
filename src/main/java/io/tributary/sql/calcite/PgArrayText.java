package io.tributary.sql.calcite;

import java.sql.Array;
import java.sql.SQLException;
import java.util.Locale;

/**
 * An array value in PostgreSQL's text form, {@code {a,"b c",NULL}}: elements are quoted when
 * empty, {@code NULL}, or containing a brace, comma, quote, backslash or space; booleans print
 * as {@code t}/{@code f}. Used for the arrays that reach clients as text: nested ones and
 * {@code int2vector}s; other arrays are read into lists ({@link #elements}).
 */
final class PgArrayText {
    static final String ARRAY_SUFFIX = " ARRAY";

    private PgArrayText() {}

    static String format(Array array) throws SQLException {
        return format(array.getArray());
    }

    /**
     * An array result column's value as PostgreSQL prints it, each element in the text form of its
     * type ({@code 4} for a double 4.0, {@code "2024-01-01 10:00:00"} for a timestamp, {@code
     * "\\x01"} for a bytea) read as {@link TypeMapping#read} reads a column; null for SQL NULL.
     *
     * @param typeName the column's type name in Calcite's result metadata, {@code INTEGER ARRAY}
     */
    static String format(Array array, String typeName) throws SQLException {
        if (array == null) {
            return null;
        }
        String elementName = typeName.substring(0, typeName.length() - ARRAY_SUFFIX.length());
        boolean nested = isArray(elementName);
        io.tributary.common.types.DataType element = nested ? null : TypeMapping.fromJdbc(elementName, 0, 0);
        StringBuilder sb = new StringBuilder("{");
        try (java.sql.ResultSet rs = array.getResultSet()) {
            // the element is the last column (Avatica's has no index column)
            int value = rs.getMetaData().getColumnCount();
            boolean first = true;
            while (rs.next()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                String text = nested
                        ? rs.getObject(value) instanceof Array inner ? format(inner, elementName) : rs.getString(value)
                        : element.kind().isString()
                                // Avatica describes a text element as the array itself: read it as text
                                ? rs.getString(value)
                                : io.tributary.common.types.PgTextFormat.format(
                                        element, TypeMapping.read(rs, value, element));
                sb.append(text == null ? "NULL" : nested ? text : element(text));
            }
        }
        return sb.append('}').toString();
    }

    /**
     * An array result column's value as a list of canonical {@code element} values, read as
     * {@link TypeMapping#read} reads a column; null for SQL NULL. A date or timestamp element is
     * read as the number Calcite holds, which its generated code has shifted from UTC into {@code
     * sessionZone} (a scalar column is not), so the shift is undone: a timestamp by the zone's
     * offset, a date (midnight moved to the previous day by a zone east of UTC) by a day.
     */
    static java.util.List<Object> elements(
            Array array, io.tributary.common.types.DataType element, java.util.TimeZone sessionZone)
            throws SQLException {
        if (array == null) {
            return null;
        }
        io.tributary.common.types.TypeKind kind = element.kind();
        java.util.List<Object> values = new java.util.ArrayList<>();
        try (java.sql.ResultSet rs = array.getResultSet()) {
            // the element is the last column (Avatica's has no index column)
            int value = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object v = switch (kind) {
                    case DATE -> {
                        int shifted = rs.getInt(value);
                        yield sessionZone.getOffset((long) shifted * 86_400_000L) > 0 ? shifted + 1 : shifted;
                    }
                    case TIMESTAMP, TIMESTAMPTZ -> {
                        long shifted = rs.getLong(value);
                        // microseconds, shifted by the offset Avatica found taking them for milliseconds
                        yield shifted + sessionZone.getOffset(shifted + sessionZone.getOffset(shifted));
                    }
                    // Avatica describes a text element as the array itself: read it as text
                    default -> kind.isString() ? rs.getString(value) : TypeMapping.read(rs, value, element);
                };
                values.add(rs.wasNull() ? null : v);
            }
        }
        return values;
    }

    /** Whether a result column's Calcite type name, such as {@code INTEGER ARRAY}, is an array's. */
    static boolean isArray(String typeName) {
        return typeName.endsWith(ARRAY_SUFFIX);
    }

    /**
     * An {@code int2vector} as PostgreSQL prints it: the elements separated by single spaces,
     * empty for no elements; null for SQL NULL.
     */
    static String vector(Array array) throws SQLException {
        if (array == null) {
            return null;
        }
        Object elements = array.getArray();
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = java.lang.reflect.Array.getLength(elements); i < n; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(java.lang.reflect.Array.get(elements, i));
        }
        return sb.toString();
    }

    /** @param elements a Java array of objects or of primitives */
    static String format(Object elements) {
        StringBuilder sb = new StringBuilder("{");
        int n = java.lang.reflect.Array.getLength(elements);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(',');
            }
            Object e = java.lang.reflect.Array.get(elements, i);
            if (e == null) {
                sb.append("NULL");
            } else if (e instanceof Boolean b) {
                sb.append(b ? 't' : 'f');
            } else if (e.getClass().isArray()) {
                sb.append(format(e));
            } else if (e instanceof java.util.List<?> list) {
                sb.append(format(list.toArray()));
            } else {
                sb.append(element(e.toString()));
            }
        }
        return sb.append('}').toString();
    }

    private static String element(String s) {
        boolean quote = s.isEmpty()
                || s.toUpperCase(Locale.ROOT).equals("NULL")
                || s.chars()
                        .anyMatch(c ->
                                c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || Character.isWhitespace(c));
        return quote ? "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" : s;
    }
}
