package io.tributary.sql;

/**
 * Writes the backslash-escaped quote of an escape string constant ({@code E'it\'s'}) as a doubled
 * one ({@code E'it''s'}), which means the same there and which Calcite's grammar reads (it ends
 * the constant at {@code \'}: 42601 where PostgreSQL answers). The text keeps its length, so error
 * positions still count in the client's text. Other quoted constants, quoted names and comments
 * are left alone. Run on a statement's text after {@link DollarQuotes#plain}. Stateless.
 */
public final class EscapedQuotes {
    private EscapedQuotes() {}

    /** {@code sql} with each {@code \'} inside an {@code E'...'} constant written {@code ''}. */
    public static String plain(String sql) {
        if (!sql.contains("\\'")) {
            return sql;
        }
        char[] out = null;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                boolean escapes = c == '\'' && escapeQuoteAt(sql, i);
                int close = QuotedText.closingQuote(sql, i, escapes);
                int end = close < 0 ? n : close;
                if (escapes) {
                    for (int j = i + 1; j < end - 1; j++) {
                        if (sql.charAt(j) == '\\') {
                            if (sql.charAt(j + 1) == '\'') {
                                if (out == null) {
                                    out = sql.toCharArray();
                                }
                                out[j] = '\'';
                            }
                            j++;
                        }
                    }
                }
                i = end;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
            } else {
                i++;
            }
        }
        return out == null ? sql : new String(out);
    }

    /** Whether the quote at {@code open} starts an escape string constant: {@code E} before it, not ending a name. */
    private static boolean escapeQuoteAt(String sql, int open) {
        if (open == 0 || (sql.charAt(open - 1) != 'e' && sql.charAt(open - 1) != 'E')) {
            return false;
        }
        if (open < 2) {
            return true;
        }
        char before = sql.charAt(open - 2);
        return !(Character.isLetterOrDigit(before) || before == '_' || before == '$');
    }
}
