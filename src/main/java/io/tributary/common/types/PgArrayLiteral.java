package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's text form of a one-dimensional array, {@code {a,"b c",NULL}}, printed as {@code
 * array_out} prints it ({@link #format}) and read into its elements as {@code array_in} reads them: blanks around an unquoted element are dropped, a
 * backslash takes the next character literally, a double-quoted element keeps everything inside
 * (so {@code "NULL"} is the text NULL), an unquoted {@code NULL} (any case) is a NULL element.
 * Stateless; any thread.
 */
public final class PgArrayLiteral {
    private PgArrayLiteral() {}

    /**
     * An array value (a list of canonical {@code element} values) as PostgreSQL prints it: each
     * element in its type's text form, double-quoted when empty, {@code NULL} in any case, or
     * holding a brace, comma, quote, backslash or blank (inside quotes a quote or backslash is
     * escaped by a backslash); a NULL element as {@code NULL}. A timestamptz element prints in
     * {@code zone}.
     */
    public static String format(DataType element, java.util.List<?> values, PgTimeZone zone) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            Object v = values.get(i);
            if (v == null) {
                sb.append("NULL");
            } else {
                appendElement(
                        sb,
                        element.kind() == TypeKind.TIMESTAMPTZ
                                ? zone.format((Long) v)
                                : PgTextFormat.format(element, v));
            }
        }
        return sb.append('}').toString();
    }

    /** Appends one element's text, quoted when {@code array_in} would otherwise read it differently. */
    public static void appendElement(StringBuilder sb, String text) {
        boolean quote = text.isEmpty() || text.equalsIgnoreCase("NULL");
        for (int i = 0; i < text.length() && !quote; i++) {
            char c = text.charAt(i);
            quote = c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || Character.isWhitespace(c);
        }
        if (!quote) {
            sb.append(text);
            return;
        }
        sb.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        sb.append('"');
    }

    /**
     * Reads PostgreSQL's array text as a list of canonical {@code element} values (a timestamptz
     * without an offset in {@code zone}), each element read as its type's input reads it.
     *
     * @throws TributaryException 22P02 for a malformed constant or an element its type cannot
     *     read; 0A000 for a multidimensional one
     */
    public static List<Object> parse(DataType element, String text, PgTimeZone zone) {
        List<String> texts = elements(text);
        List<Object> values = new ArrayList<>(texts.size());
        for (String t : texts) {
            values.add(
                    t == null
                            ? null
                            : element.kind() == TypeKind.TIMESTAMPTZ
                                    ? (Object) PgTextFormat.parseTimestamptz(t, zone)
                                    : PgTextFormat.parse(element, t));
        }
        return values;
    }

    /**
     * The elements of {@code text}, null for a NULL element; empty for {@code {}}.
     *
     * @throws TributaryException 22P02 {@code malformed array literal} when {@code text} is not an
     *     array constant or an element is missing; 0A000 for a nested (multi-dimensional) one
     */
    public static List<String> elements(String text) {
        String t = text.strip();
        if (t.length() < 2 || t.charAt(0) != '{' || t.charAt(t.length() - 1) != '}') {
            throw malformed(text);
        }
        List<String> elements = new ArrayList<>();
        String inner = t.substring(1, t.length() - 1);
        if (inner.isBlank()) {
            return elements;
        }
        StringBuilder element = new StringBuilder();
        int i = 0;
        while (true) {
            while (i < inner.length() && Character.isWhitespace(inner.charAt(i))) {
                i++;
            }
            element.setLength(0);
            boolean quoted = i < inner.length() && inner.charAt(i) == '"';
            boolean escaped = false;
            if (quoted) {
                i++;
                while (i < inner.length() && inner.charAt(i) != '"') {
                    if (inner.charAt(i) == '\\') {
                        i++;
                    }
                    if (i < inner.length()) {
                        element.append(inner.charAt(i++));
                    }
                }
                if (i++ >= inner.length()) {
                    throw malformed(text);
                }
                while (i < inner.length() && Character.isWhitespace(inner.charAt(i))) {
                    i++;
                }
            } else {
                int lastKept = 0;
                while (i < inner.length() && inner.charAt(i) != ',') {
                    char c = inner.charAt(i++);
                    if (c == '{' || c == '}') {
                        if (c == '{') {
                            throw TributaryException.notSupported("multidimensional array constants");
                        }
                        throw malformed(text);
                    }
                    if (c == '"') {
                        throw malformed(text);
                    }
                    if (c == '\\' && i < inner.length()) {
                        c = inner.charAt(i++);
                        escaped = true;
                        element.append(c);
                        lastKept = element.length();
                    } else {
                        element.append(c);
                        if (!Character.isWhitespace(c)) {
                            lastKept = element.length();
                        }
                    }
                }
                element.setLength(lastKept);
                if (element.length() == 0 && !escaped) {
                    throw malformed(text);
                }
            }
            boolean isNull = !quoted && !escaped && element.toString().equalsIgnoreCase("NULL");
            elements.add(isNull ? null : element.toString());
            if (i >= inner.length()) {
                return elements;
            }
            if (inner.charAt(i) != ',') {
                throw malformed(text);
            }
            i++;
        }
    }

    private static TributaryException malformed(String text) {
        return new TributaryException(
                SqlState.INVALID_TEXT_REPRESENTATION, "malformed array literal: \"" + text + "\"");
    }
}
