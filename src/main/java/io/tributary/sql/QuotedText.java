package io.tributary.sql;

/**
 * Where a quoted constant or name of PostgreSQL's text ends: the one scan shared by the tokenizers
 * and text rewrites that step over quotes ({@link DollarQuotes}, {@code PgTokenizer},
 * {@code PgSyntaxText}). Stateless.
 */
public final class QuotedText {
    private QuotedText() {}

    /**
     * The offset after the quote that closes the one at {@code open} (a doubled quote stands for
     * itself; with {@code escapes}, a backslash escapes the next character), or -1 when none does.
     * Whether the constant takes backslash escapes ({@code E'...'}) is the caller's reading of what
     * precedes {@code open}.
     */
    public static int closingQuote(String sql, int open, boolean escapes) {
        char quote = sql.charAt(open);
        int n = sql.length();
        int j = open + 1;
        while (j < n) {
            char d = sql.charAt(j);
            if (escapes && d == '\\') {
                j += 2;
            } else if (d != quote) {
                j++;
            } else if (j + 1 < n && sql.charAt(j + 1) == quote) {
                j += 2;
            } else {
                return j + 1;
            }
        }
        return -1;
    }
}
