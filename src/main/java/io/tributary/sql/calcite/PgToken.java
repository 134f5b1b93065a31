package io.tributary.sql.calcite;

/**
 * One token of a statement's text as {@link PgTokenizer} reads it, for the text rewrites that
 * give Calcite PostgreSQL's syntax ({@link PgOperatorText}, {@link AtTimeZoneText}).
 *
 * @param kind what the token is
 * @param start the offset of its first character in the statement
 * @param end the offset after its last character
 * @param lower its text in lower case (a string constant's with its quotes and prefix)
 */
record PgToken(Kind kind, int start, int end, String lower) {
    /** What a token is. */
    enum Kind {
        /** A name or keyword, unquoted. */
        WORD,
        /** A double-quoted name. */
        QUOTED_NAME,
        /** A string constant, with its prefix ({@code E'...'}, {@code X'...'}). */
        STRING,
        /** A numeric constant, with its exponent's sign ({@code 1e-3}). */
        NUMBER,
        /** A parameter, {@code $1}. */
        PARAMETER,
        /**
         * A {@code $} not followed by a digit; not dollar quoting, which the session has written as
         * ordinary constants before ({@link io.tributary.sql.DollarQuotes#plain}).
         */
        DOLLAR,
        /** A quoted name or string with no closing quote; it runs to the end of the text. */
        UNTERMINATED,
        OPEN,
        CLOSE,
        OPEN_BRACKET,
        CLOSE_BRACKET,
        COMMA,
        /** {@code ::}. */
        CAST,
        /** A {@code .} not starting a number. */
        DOT,
        /** An operator as PostgreSQL lexes it: the longest run of operator characters. */
        OPERATOR,
        /** Any other character ({@code ;}, a lone {@code :}, ...). */
        OTHER
    }

    boolean isWord(String word) {
        return kind == Kind.WORD && lower.equals(word);
    }
}
