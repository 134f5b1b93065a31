package io.tributary.sql;

import io.tributary.common.TributaryException;

/**
 * PostgreSQL's dollar-quoted string constants ({@code $$it's$$}, {@code $tag$a$$b$tag$}), which
 * pg_dump and many scripts write. Calcite's grammar and Tributary's own text readers know only
 * quoted constants, so a statement's dollar-quoted constants are written as ordinary ones
 * ({@link #plain}) before anything else reads it; {@link Lexer} and {@link StatementSplitter}
 * read them with {@link #end}. Stateless.
 */
public final class DollarQuotes {
    private DollarQuotes() {}

    /**
     * The offset after the dollar-quoted constant that starts at {@code start}, or -1 when none
     * does: {@code $} then a tag (empty, or a letter or {@code _} followed by letters, digits and
     * {@code _}) then {@code $}, not continuing a name or number ({@code a$$b} and {@code $1} are
     * no such constant), up to the same delimiter again. A constant with no closing delimiter
     * runs to the end of the text.
     */
    public static int end(String text, int start) {
        if (text.charAt(start) != '$' || start > 0 && continuesName(text.charAt(start - 1))) {
            return -1;
        }
        int n = text.length();
        int j = start + 1;
        if (j < n && !isTagStart(text.charAt(j)) && text.charAt(j) != '$') {
            return -1;
        }
        while (j < n && text.charAt(j) != '$') {
            if (!Character.isLetterOrDigit(text.charAt(j)) && text.charAt(j) != '_') {
                return -1;
            }
            j++;
        }
        if (j >= n) {
            return -1;
        }
        String delimiter = text.substring(start, j + 1);
        int close = text.indexOf(delimiter, j + 1);
        return close < 0 ? n : close + delimiter.length();
    }

    /**
     * The body of the dollar-quoted constant from {@code start} to {@code end} ({@link #end}),
     * without its delimiters.
     */
    public static String body(String text, int start, int end) {
        int open = text.indexOf('$', start + 1) + 1;
        int tag = open - start;
        return text.substring(open, Math.max(open, end - tag));
    }

    /**
     * {@code sql} with each dollar-quoted constant written as a quoted one (its quotes doubled),
     * padded with spaces to the constant's length where it is not longer, so that error positions
     * past it still count in the client's text. Quoted constants and names and comments are left
     * alone; text without {@code $} is returned as it is.
     *
     * @throws TributaryException 42601 for a dollar-quoted constant that is never closed, as
     *     PostgreSQL's lexer gives
     */
    public static String plain(String sql) {
        if (sql.indexOf('$') < 0) {
            return sql;
        }
        StringBuilder out = null;
        int copied = 0;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = afterQuoted(sql, i);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
            } else if (c == '$' && end(sql, i) >= 0) {
                int end = end(sql, i);
                String delimiter = sql.substring(i, sql.indexOf('$', i + 1) + 1);
                if (end - i < 2 * delimiter.length() || !sql.startsWith(delimiter, end - delimiter.length())) {
                    throw Lexer.syntax("unterminated dollar-quoted string at or near \"" + sql.substring(i) + "\"", i);
                }
                int next = afterSpace(sql, end);
                if (next < n && sql.charAt(next) == '\'') {
                    // a quoted constant never continues a dollar-quoted one, not even across a line
                    // break, where Calcite would join the two quoted constants written here
                    int close = QuotedText.closingQuote(sql, next, false);
                    String token = sql.substring(next, close < 0 ? n : close);
                    throw Lexer.syntax("syntax error at or near \"" + token + "\"", next);
                }
                String quoted = "'" + body(sql, i, end).replace("'", "''") + "'";
                if (out == null) {
                    out = new StringBuilder(n + 16);
                }
                out.append(sql, copied, i).append(quoted);
                out.append(" ".repeat(Math.max(0, end - i - quoted.length())));
                i = end;
                copied = end;
            } else {
                i++;
            }
        }
        return out == null ? sql : out.append(sql, copied, n).toString();
    }

    /** The offset of the first character at or after {@code i} that is not white space. */
    private static int afterSpace(String sql, int i) {
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    /** The offset after the quoted constant or name at {@code open}, a doubled quote inside it. */
    private static int afterQuoted(String sql, int open) {
        char quote = sql.charAt(open);
        boolean escapes = quote == '\''
                && open > 0
                && (sql.charAt(open - 1) == 'e' || sql.charAt(open - 1) == 'E')
                && (open < 2 || !continuesName(sql.charAt(open - 2)));
        int close = QuotedText.closingQuote(sql, open, escapes);
        return close < 0 ? sql.length() : close;
    }

    private static boolean isTagStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    /** Whether {@code c} may be inside a name (PostgreSQL's identifiers hold {@code $} after the first character). */
    private static boolean continuesName(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
