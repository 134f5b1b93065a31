package io.tributary.sql.calcite;

import java.sql.Array;
import java.sql.SQLException;
import java.util.Locale;

/**
 * An array value in PostgreSQL's text form, {@code {a,"b c",NULL}}: elements are quoted when
 * empty, {@code NULL}, or containing a brace, comma, quote, backslash or space; booleans print
 * as {@code t}/{@code f}. Arrays reach clients as text; Tributary has no array column type.
 */
final class PgArrayText {
    private PgArrayText() {}

    static String format(Array array) throws SQLException {
        return format(array.getArray());
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
    private static String format(Object elements) {
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
