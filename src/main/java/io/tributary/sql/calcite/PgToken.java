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

    /**
     * The indexes in {@code tokens} of the tokens directly inside the round bracket at {@code open}
     * (a call's arguments' top level): neither its brackets nor anything inside nested round or
     * square brackets; up to the end of {@code tokens} when it is never closed.
     */
    static int[] topLevelInside(java.util.List<PgToken> tokens, int open) {
        int[] inside = new int[8];
        int count = 0;
        int depth = 0;
        for (int j = open; j < tokens.size(); j++) {
            Kind kind = tokens.get(j).kind();
            if (kind == Kind.OPEN || kind == Kind.OPEN_BRACKET) {
                depth++;
            } else if (kind == Kind.CLOSE || kind == Kind.CLOSE_BRACKET) {
                if (--depth == 0) {
                    break;
                }
            } else if (depth == 1) {
                if (count == inside.length) {
                    inside = java.util.Arrays.copyOf(inside, count * 2);
                }
                inside[count++] = j;
            }
        }
        return java.util.Arrays.copyOf(inside, count);
    }
}
