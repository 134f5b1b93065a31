package io.tributary.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a simple-query string at top-level semicolons, skipping those inside quotes, dollar
 * quotes and comments, as PostgreSQL does. Stateless and thread-safe.
 */
public final class StatementSplitter {
    private StatementSplitter() {}

    /**
     * One statement of a simple-query string.
     *
     * @param sql its text without the terminating semicolon, stripped of surrounding whitespace
     * @param offset where {@code sql} starts in the string (0-based)
     * @param semicolon where its terminating semicolon is, -1 when the string's end ends it
     */
    public record Piece(String sql, int offset, int semicolon) {}

    /** The non-blank statements of {@code text}, in order. */
    public static List<Piece> split(String text) {
        List<Piece> out = new ArrayList<>();
        int start = 0;
        int i = 0;
        int n = text.length();
        int depth = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                i = skipQuoted(text, i, c);
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int eol = text.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '$' && DollarQuotes.end(text, i) >= 0) {
                i = DollarQuotes.end(text, i);
            } else if (c == '(') {
                depth++;
                i++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
                i++;
            } else if (c == ';' && depth == 0) {
                add(out, text, start, i, i);
                start = ++i;
            } else {
                i++;
            }
        }
        add(out, text, start, n, -1);
        return out;
    }

    /**
     * The offset after the quoted constant or name opening at {@code i}, or the text's end when
     * it is not closed. A constant right after a lone {@code E} takes backslash escapes ({@code
     * E'it\'s'}), so a quote a backslash escapes does not end it.
     */
    private static int skipQuoted(String text, int i, char quote) {
        boolean escapes = quote == '\''
                && i > 0
                && Character.toUpperCase(text.charAt(i - 1)) == 'E'
                && (i == 1 || !Character.isJavaIdentifierPart(text.charAt(i - 2)));
        int close = QuotedText.closingQuote(text, i, escapes);
        return close < 0 ? text.length() : close;
    }

    private static void add(List<Piece> out, String text, int start, int end, int semicolon) {
        String stmt = text.substring(start, end);
        if (!isBlank(stmt)) {
            int leading = stmt.length() - stmt.stripLeading().length();
            out.add(new Piece(stmt.strip(), start + leading, semicolon));
        }
    }

    /** True when the text holds only whitespace and comments. */
    public static boolean isBlank(String text) {
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int eol = text.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                return false;
            }
        }
        return true;
    }
}
