package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's {@code substring(s SIMILAR pattern ESCAPE escape)} and {@code substring(s FROM
 * pattern FOR escape)} over text: the pattern, an SQL regular expression, must match the whole of
 * {@code s}; the part between the two {@code escape"} separators is the answer (the whole string
 * without separators). As PostgreSQL does, the part before the first separator matches as little
 * as it can. NULL when nothing matches or an argument is NULL. Called by reflection from generated
 * code, on any thread.
 */
public final class PgSimilarSubstring {
    /** The name it is registered under ({@link PgRegexpMatch#register}). */
    static final String NAME = "pg_similar_substring";

    private PgSimilarSubstring() {}

    /** The part of {@code s} the separated part of {@code pattern} matched; see the class comment. */
    public static String similarSubstring(String s, String pattern, String escape) {
        if (s == null || pattern == null || escape == null) {
            return null;
        }
        if (escape.codePointCount(0, escape.length()) > 1) {
            throw new TributaryException(SqlState.INVALID_ESCAPE_SEQUENCE, "invalid escape string");
        }
        Matcher m = Pattern.compile(regex(pattern, escape), Pattern.DOTALL).matcher(s);
        if (!m.matches()) {
            return null;
        }
        return m.groupCount() == 0 ? s : m.group(1);
    }

    /**
     * {@code pattern} as a Java regular expression anchored at both ends: {@code %} any text,
     * {@code _} any character, the escape character quoting the next, {@code escape"} opening and
     * closing the returned group; brackets and {@code | * + ? { } ( )} as in a regular expression.
     */
    private static String regex(String pattern, String escape) {
        int esc = escape.isEmpty() ? -1 : escape.codePointAt(0);
        StringBuilder out = new StringBuilder(pattern.length() + 16);
        int separators = 0;
        boolean bracket = false;
        for (int i = 0; i < pattern.length(); ) {
            int c = pattern.codePointAt(i);
            i += Character.charCount(c);
            if (c == esc && i < pattern.length()) {
                int next = pattern.codePointAt(i);
                i += Character.charCount(next);
                if (next == '"' && !bracket) {
                    if (++separators > 2) {
                        throw new TributaryException(
                                SqlState.INVALID_USE_OF_ESCAPE_CHARACTER,
                                "SQL regular expression may not contain more than two escape-double-quote separators");
                    }
                    out.append(separators == 1 ? ")(" : ")(?:");
                } else {
                    literal(out, next);
                }
            } else if (bracket) {
                if (c == ']') {
                    bracket = false;
                }
                if (c == '\\' || c == '[') {
                    out.append('\\');
                }
                out.appendCodePoint(c);
            } else if (c == '[') {
                bracket = true;
                out.append('[');
            } else if (c == '%') {
                out.append(separators == 0 ? ".*?" : ".*");
            } else if (c == '_') {
                out.append('.');
            } else if (c == '(') {
                out.append("(?:"); // the returned part is the only capturing group
            } else if ("|*+?{})".indexOf(c) >= 0) {
                out.appendCodePoint(c);
            } else {
                literal(out, c);
            }
        }
        return "(?:" + out + ")";
    }

    private static void literal(StringBuilder out, int c) {
        if (!Character.isLetterOrDigit(c) && c < 128) {
            out.append('\\');
        }
        out.appendCodePoint(c);
    }
}
